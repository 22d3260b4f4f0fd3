// `hublet api`'s run function against a stubbed client and a fake I/O (no server, no data dir): the request gh's flags
// make (method, path and query, body), what is printed for a page, for several pages and for an error, and the usage
// errors that come before any client is opened.
import { describe, expect, it } from 'vitest';
import { apiRequest, runApi } from '../../src/cli/commands/api/api.js';
import { fakeIO } from '../helpers/cli-inprocess.js';
import { BASE } from './bodies.js';
import { stubClient, type StubClient } from './stub-client.js';

/** `hublet api ENDPOINT` with these flags, as the command runs it. */
async function api(client: StubClient, endpoint: string, flags: Parameters<typeof apiRequest>[1], fake = fakeIO()) {
  await runApi({ ...(await apiRequest(endpoint, flags, fake.io, {})), client, json: false }, fake.io);
  return fake;
}

describe('hublet api: the request', () => {
  it('GET puts the fields in the query string; the answer is printed as indented JSON', async () => {
    const client = stubClient({ 'GET /gists?per_page=1&since=2026-01-01': { body: [{ id: 'g1' }] } });
    const fake = await api(client, 'gists', { method: 'GET', rawField: ['per_page=1', 'since=2026-01-01'] });
    expect(client.sent[0]).toMatchObject({ method: 'GET', body: undefined });
    expect(fake.stdout()).toBe('[\n  {\n    "id": "g1"\n  }\n]\n');
  });

  it('fields make it a POST with a JSON body: -F typed (booleans, integers, nesting), -f strings, -H headers', async () => {
    const client = stubClient({ 'POST /gists': { status: 201, body: { id: 'g2' } } });
    await api(client, '/gists', {
      field: ['public=false', 'n=3', 'files[a.txt][content]=hi'],
      rawField: ['description=7'],
      header: ['X-Trace: on'],
    });
    expect(client.sent[0]).toEqual({
      method: 'POST',
      path: '/gists',
      body: { public: false, n: 3, files: { 'a.txt': { content: 'hi' } }, description: '7' },
      headers: { 'x-trace': 'on' },
    });
  });

  it('-F key=@- reads the value from stdin', async () => {
    const client = stubClient({ 'PATCH /gists/g1': { body: {} } });
    await api(client, 'gists/g1', { method: 'patch', field: ['description=@-'] }, fakeIO({ stdin: 'from stdin' }));
    expect(client.sent[0]).toMatchObject({ method: 'PATCH', body: { description: 'from stdin' } });
  });
});

describe('hublet api: the answer', () => {
  it('--paginate follows Link rel="next" and prints the array pages as one array', async () => {
    const client = stubClient({
      'GET /gists?per_page=100': { body: [{ id: 1 }], headers: { link: `<${BASE}/gists?per_page=100&page=2>; rel="next"` } },
      'GET /gists?per_page=100&page=2': { body: [{ id: 2 }] },
    });
    const fake = await api(client, 'gists', { paginate: true, jq: '.[].id' });
    expect(client.calls()).toEqual(['GET /gists?per_page=100', 'GET /gists?per_page=100&page=2']);
    expect(fake.stdout()).toBe('1\n2\n');
  });

  it('-i prints the status line and headers first', async () => {
    const client = stubClient({ 'GET /user': { body: { login: 'alice' }, headers: { 'x-oauth-scopes': 'gist' } } });
    const fake = await api(client, 'user', { include: true, template: '{{.login}}' });
    expect(fake.stdout()).toBe('HTTP/1.1 200 OK\nContent-Type: application/json; charset=utf-8\r\nX-Oauth-Scopes: gist\r\n\r\nalice');
  });

  it('an error status prints the body on stdout and ends with `hublet: MESSAGE (HTTP N)`, exit 1 (4 for 401)', async () => {
    const client = stubClient({
      'GET /gists/nope': { status: 404, body: { message: 'Not Found' } },
      'GET /user': { status: 401, body: { message: 'Bad credentials' } },
    });
    const fake = fakeIO();
    await expect(api(client, 'gists/nope', {}, fake)).rejects.toMatchObject({ code: 1, message: 'hublet: Not Found (HTTP 404)' });
    expect(fake.stdout()).toBe('{\n  "message": "Not Found"\n}\n');
    const err = await api(client, 'user', {}).catch((e) => e);
    expect(err.code).toBe(4);
    expect(err.message.split('\n')[0]).toBe('hublet: Bad credentials (HTTP 401)');
  });
});

describe('hublet api: usage errors, before any request', () => {
  it('refuses flags that do not go together, a bad header and a bad template (exit 2)', async () => {
    const io = fakeIO().io;
    await expect(apiRequest('gists', { slurp: true }, io, {})).rejects.toMatchObject({
      code: 2,
      message: 'hublet: `--paginate` required when passing `--slurp`',
    });
    await expect(apiRequest('gists', { paginate: true, method: 'POST' }, io, {})).rejects.toMatchObject({
      code: 2,
      message: 'hublet: the `--paginate` option is not supported for non-GET requests',
    });
    await expect(apiRequest('gists', { header: ['nocolon'] }, io, {})).rejects.toMatchObject({
      code: 2,
      message: 'hublet: header "nocolon" requires a value separated by \':\'',
    });
    await expect(apiRequest('gists', { template: '{{.a' }, io, {})).rejects.toMatchObject({ code: 2 });
  });
});
