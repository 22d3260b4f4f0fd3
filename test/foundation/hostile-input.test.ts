// Hostile input at the edges: huge pages and ids, bad cursors and dates, requests the router or Node's parser refuses, the /api/v3 root.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, type Seeded } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let d: Seeded;
beforeAll(async () => {
  s = await startServer();
  d = await seed(s);
});
afterAll(async () => s?.close());

const githubBody = (status: number) => ({
  message: expect.any(String),
  documentation_url: 'https://docs.github.com/rest',
  status: String(status),
});

/** Sends bytes as they are and reads the whole answer (the server closes the connection). */
function raw(data: string | Buffer): Promise<{ status: number; headers: string; body: string }> {
  const port = Number(new URL(s.url).port);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(data));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: rest.join('\r\n\r\n') });
    });
  });
}

describe('page and per_page far out of range', () => {
  const lists = () => [
    '/gists',
    '/gists/starred',
    `/users/${d.user.login}/gists`,
    `/gists/${d.gistId}/commits`,
    `/gists/${d.gistId}/forks`,
    `/gists/${d.gistId}/comments`,
    `/orgs/${d.org}/hooks`,
    `/orgs/${d.org}/migrations`,
    '/user/migrations',
    `/orgs/${d.org}/repos`,
    '/user/repos',
    `/users/${d.user.login}/repos`,
    `/user/migrations/${d.userMigrationId}/repositories`,
  ];

  it('answers a page beyond the end with an empty list on every paged list, however large the number', async () => {
    for (const path of lists()) {
      for (const page of [
        '99999999999999999999',
        '307445734561825861',
        '9007199254740993',
        '3002399751580330',
        '90071992547409',
        '2147483648',
      ]) {
        const r = await s.api('GET', `${path}?page=${page}`, { token: d.user.token });
        expect(r.status, `${path}?page=${page}: ${r.text}`).toBe(200);
        expect(r.body, `${path}?page=${page}`).toEqual([]);
      }
    }
  });

  it('answers the same on the admin list of tokens', async () => {
    const r = await s.api('GET', `/admin/users/${d.user.login}/authorizations?page=99999999999999999999&per_page=99999999999999999999`, {
      token: s.adminToken,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual([]);
  });

  it('caps a huge per_page at 100 and reads garbage pages as the first', async () => {
    for (const q of [
      'per_page=99999999999999999999',
      'page=-1',
      'page=0',
      'page=1e400',
      'page=abc&per_page=-5',
      'page=1&page=2',
      'page[]=x',
    ]) {
      const r = await s.api('GET', `/gists?${q}`, { token: d.user.token });
      expect(r.status, `${q}: ${r.text}`).toBeLessThan(500);
      if (r.status === 200) expect(r.body.length, q).toBe(1);
      else expect(r.body, q).toEqual(expect.objectContaining(githubBody(r.status)));
    }
  });

  it('keeps the Link header within clients’ limits when the request is padded with long parameters', async () => {
    const r = await s.api('GET', `/users/${d.user.login}/repos?page=2&per_page=1&q=${'a'.repeat(9000)}`, { token: d.user.token });
    expect(r.status).toBe(200);
    const link = r.headers.get('link') ?? '';
    expect(link).toContain(`${s.url}/users/${d.user.login}/repos?page=1&per_page=1>; rel="prev"`);
    expect(link.length).toBeLessThan(8192);
  });

  it('writes a Link header without exponent notation for a far page', async () => {
    const r = await s.api('GET', '/gists?page=99999999999999999999', { token: d.user.token });
    expect(r.headers.get('link')).toMatch(/page=\d+&per_page=30>; rel="prev"/);
  });
});

describe('numeric ids in paths', () => {
  const routes = () => [
    (id: string) => `/orgs/${d.org}/hooks/${id}`,
    (id: string) => `/orgs/${d.org}/hooks/${id}/config`,
    (id: string) => `/orgs/${d.org}/hooks/${id}/deliveries`,
    (id: string) => `/orgs/${d.org}/hooks/${d.hookId}/deliveries/${id}`,
    (id: string) => `/orgs/${d.org}/migrations/${id}`,
    (id: string) => `/orgs/${d.org}/migrations/${id}/repositories`,
    (id: string) => `/user/migrations/${id}`,
    (id: string) => `/user/migrations/${id}/archive`,
    (id: string) => `/repositories/${id}`,
    (id: string) => `/gists/${d.gistId}/comments/${id}`,
  ];

  it('answers a non-numeric, zero, negative or overflowing id with 404 Not Found, on every route', async () => {
    for (const route of routes()) {
      for (const id of ['abc', '0', '-1', '1.5', '2147483648', '9999999999999999', '99999999999999999999', '1e3', '%20', '+1']) {
        const r = await s.api('GET', route(id), { token: d.user.token });
        expect(r.status, `${route(id)}: ${r.text}`).toBe(404);
        expect(r.body).toEqual(githubBody(404));
      }
    }
  });

  it('still finds what the ids name', async () => {
    expect((await s.api('GET', `/orgs/${d.org}/hooks/${d.hookId}`, { token: d.user.token })).status).toBe(200);
    expect((await s.api('GET', `/user/migrations/${d.userMigrationId}`, { token: d.user.token })).status).toBe(200);
    expect((await s.api('GET', `/gists/${d.gistId}/comments/${d.commentId}`, { token: d.user.token })).status).toBe(200);
  });
});

describe('cursors and dates', () => {
  it('refuses a delivery cursor that is not one with 400 in GitHub shape', async () => {
    for (const cursor of ['v1_99999999999999999999', 'v1_0', 'v1_-1', 'garbage', 'v1_2147483648']) {
      const r = await s.api('GET', `/orgs/${d.org}/hooks/${d.hookId}/deliveries?cursor=${cursor}&per_page=99999999999999999999`, {
        token: d.user.token,
      });
      expect(r.status, `${cursor}: ${r.text}`).toBe(400);
      expect(r.body).toEqual(githubBody(400));
    }
  });

  it('answers since far in the past or future with 200 or a 422, never 500', async () => {
    for (const since of [
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '+275760-09-13T00:00:00Z',
      '-271821-04-20T00:00:00Z',
      '99999-01-01',
      '2020-13-45T99:99:99Z',
    ]) {
      for (const path of ['/gists', `/users/${d.user.login}/gists`, '/gists/public', '/user/repos']) {
        const r = await s.api('GET', `${path}?since=${encodeURIComponent(since)}`, { token: d.user.token });
        expect([200, 422], `${path}?since=${since}: ${r.text}`).toContain(r.status);
        if (r.status === 422) expect(r.body).toEqual(expect.objectContaining(githubBody(422)));
      }
    }
  });
});

describe('requests refused before any route', () => {
  it('answers a path that does not decode with 400 in GitHub shape', async () => {
    const r = await s.api('GET', '/gists/%zz');
    expect(r.status).toBe(400);
    expect(r.body).toEqual(githubBody(400));
  });

  it('answers a path segment over the router limit with 414 in GitHub shape, without echoing the path', async () => {
    const r = await s.api('GET', `/gists/${'a'.repeat(5000)}`);
    expect(r.status).toBe(414);
    expect(r.body).toEqual(githubBody(414));
  });

  it("answers Node's parser errors with a GitHub body and closes the connection", async () => {
    const requests: [string, string, number][] = [
      ['headers too large', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['bad chunk size', 'POST /gists HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n', 400],
      [
        'Content-Length with Transfer-Encoding',
        'POST /gists HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
      ],
      ['NUL in a header', 'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n', 400],
      ['unknown method', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['not HTTP at all', 'hello\r\n\r\n', 400],
    ];
    for (const [what, request, status] of requests) {
      const r = await raw(request);
      expect(r.status, what).toBe(status);
      expect(r.headers, what).toMatch(/\r\nconnection: close/i);
      expect(r.headers, what).toMatch(/\r\ncontent-type: application\/json/i);
      expect(JSON.parse(r.body), what).toEqual(githubBody(status));
    }
  });

  it('answers a HEAD refused by the parser without a body', async () => {
    const r = await raw(`HEAD /gists HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(r.status).toBe(431);
    expect(r.headers).toMatch(/\r\ncontent-type: application\/json/i);
    expect(r.body).toBe('');
  });

  it('keeps serving after all of that', async () => {
    expect((await s.api('GET', '/')).status).toBe(200);
  });
});

describe('the /api/v3 prefix', () => {
  it('answers /api/v3, /api/v3/, /api/v3?x and /api/v3/?x as the root, its links under the prefix', async () => {
    const root = await s.api('GET', '/?per_page=1');
    expect(root.status).toBe(200);
    for (const path of ['/api/v3', '/api/v3/', '/api/v3?per_page=1', '/api/v3/?per_page=1']) {
      const r = await s.api('GET', path);
      expect(r.status, path).toBe(200);
      expect(JSON.parse(r.text.replaceAll(`${s.url}/api/v3/`, `${s.url}/`)), path).toEqual(root.body);
      expect(r.body.current_user_url, path).toBe(`${s.url}/api/v3/user`);
    }
  });

  it('answers a paged list under the prefix with a query string', async () => {
    const r = await s.api('GET', '/api/v3/gists?per_page=1', { token: d.user.token });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
  });
});
