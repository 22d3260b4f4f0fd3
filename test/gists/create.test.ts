// POST /gists and GET /gists/:gist_id: the single form, naming, languages, media types, truncation, raw URLs, limits, grants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; token: string };

// Limits small enough to reach in a test, large enough for the 1 MiB and 300-file cuts.
const LIMITS = { gistMaxFiles: 400, gistMaxFileBytes: 2 * 1024 * 1024, gistMaxDescription: 100, gistBodyLimitBytes: 4 * 1024 * 1024 };

beforeAll(async () => {
  s = await startServer({ config: LIMITS });
  alice = await s.userWithToken('alice');
});
afterAll(async () => s?.close());

const create = (body: unknown, token = alice.token, headers?: Record<string, string>) => s.api('POST', '/gists', { token, body, headers });
const path = (url: string) => new URL(url).pathname;

describe('POST /gists', () => {
  it('creates a secret gist by default: 201, Location and the single form', async () => {
    const r = await create({
      description: 'Hello World Examples',
      files: { 'hello_world.rb': { content: 'class HelloWorld\n  def hi\n  end\nend\n' } },
    });
    const gist = checkSchema(r, 'POST /gists');
    expect(r.status).toBe(201);
    expect(gist.id).toMatch(/^[0-9a-f]{32}$/);
    expect(r.headers.get('location')).toBe(`${s.url}/gists/${gist.id}`);
    expect(gist).toMatchObject({
      url: `${s.url}/gists/${gist.id}`,
      forks_url: `${s.url}/gists/${gist.id}/forks`,
      commits_url: `${s.url}/gists/${gist.id}/commits`,
      comments_url: `${s.url}/gists/${gist.id}/comments`,
      git_pull_url: `${s.url}/gist/${gist.id}.git`,
      git_push_url: `${s.url}/gist/${gist.id}.git`,
      html_url: `${s.url}/gist/${gist.id}`,
      node_id: Buffer.from(`04:Gist${gist.id}`).toString('base64'),
      public: false,
      description: 'Hello World Examples',
      comments: 0,
      comments_enabled: true,
      user: null,
      owner: { login: 'alice', type: 'User' },
      forks: [],
      truncated: false,
    });
    expect(gist.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const file = gist.files['hello_world.rb'];
    expect(file).toEqual({
      filename: 'hello_world.rb',
      type: 'text/x-ruby',
      language: 'Ruby',
      raw_url: expect.stringMatching(new RegExp(`^${s.url}/gist/alice/${gist.id}/raw/[0-9a-f]{40}/hello_world\\.rb$`)),
      size: 36,
      truncated: false,
      content: 'class HelloWorld\n  def hi\n  end\nend\n',
      encoding: 'utf-8',
    });
    expect(gist.history).toHaveLength(1);
    expect(gist.history[0]).toMatchObject({
      version: expect.stringMatching(/^[0-9a-f]{40}$/),
      user: { login: 'alice' },
      change_status: { total: 4, additions: 4, deletions: 0 },
      url: `${s.url}/gists/${gist.id}/${gist.history[0].version}`,
    });
  });

  it('accepts public as a boolean or the strings "true" and "false"', async () => {
    for (const [value, expected] of [
      [true, true],
      ['true', true],
      [false, false],
      ['false', false],
    ] as const) {
      const r = await create({ public: value, files: { 'a.txt': { content: 'x' } } });
      expect(r.status, String(value)).toBe(201);
      expect(r.body.public).toBe(expected);
    }
    for (const value of ['yes', 1, 'TRUE']) {
      const r = await create({ public: value, files: { 'a.txt': { content: 'x' } } });
      expect(r.status, String(value)).toBe(422);
      expect(r.body).toMatchObject({
        message: 'Validation Failed',
        errors: [expect.objectContaining({ resource: 'Gist', field: 'public', code: 'invalid' })],
      });
    }
  });

  it('names files sent without a usable name gistfile1.txt, gistfile2.txt, …', async () => {
    const r = await create({ files: { '': { content: 'first' }, '  ': { content: 'second' }, 'named.md': { content: '# hi' } } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body.files).sort()).toEqual(['gistfile1.txt', 'gistfile2.txt', 'named.md']);
    expect([r.body.files['gistfile1.txt'].content, r.body.files['gistfile2.txt'].content].sort()).toEqual(['first', 'second']);
    expect(r.body.description).toBe('');
  });

  it('takes explicit gistfile<N> names (gh names piped content gistfile0.txt); unnamed files get the next free one', async () => {
    const gh = await create({ files: { 'gistfile0.txt': { content: 'from stdin' } } });
    expect(gh.status).toBe(201);
    expect(Object.keys(gh.body.files)).toEqual(['gistfile0.txt']);
    checkSchema(gh, 'POST /gists');
    const r = await create({ files: { gistfile1: { content: 'a' }, 'gistfile1.txt': { content: 'b' }, '': { content: 'c' } } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body.files).sort()).toEqual(['gistfile1', 'gistfile1.txt', 'gistfile2.txt']);
    expect(r.body.files['gistfile2.txt'].content).toBe('c');
  });

  it('gives each file the language and media type Linguist would, by name, extension or shebang', async () => {
    const r = await create({
      files: {
        'README.md': { content: '# Title\n' },
        'notes.txt': { content: 'plain\n' },
        LICENSE_NOTES: { content: 'no extension\n' },
        Makefile: { content: 'all:\n\ttrue\n' },
        deploy: { content: '#!/usr/bin/env python3\nprint("hi")\n' },
        'data.json': { content: '{}' },
      },
    });
    expect(r.status).toBe(201);
    // A file Linguist does not know has language null, as on GitHub (the fixture corrects GitHub's description there).
    checkSchema(r, 'POST /gists');
    const f = r.body.files;
    expect([f['README.md'].language, f['README.md'].type]).toEqual(['Markdown', 'text/x-gfm']);
    expect([f['notes.txt'].language, f['notes.txt'].type]).toEqual(['Text', 'text/plain']);
    expect([f.LICENSE_NOTES.language, f.LICENSE_NOTES.type]).toEqual([null, 'text/plain']);
    expect([f.Makefile.language, f.Makefile.type]).toEqual(['Makefile', 'text/x-cmake']);
    expect([f.deploy.language, f.deploy.type]).toEqual(['Python', 'text/x-python']);
    expect([f['data.json'].language, f['data.json'].type]).toEqual(['JSON', 'application/json']);
  });

  describe('refuses what is not a gist', () => {
    const e = (field: string, code: string, message?: string) => ({
      resource: 'Gist',
      field,
      code,
      ...(message === undefined ? {} : { message }),
    });
    const notAFile = (key: string) => e('files', 'invalid', `files.${key} must be an object with a content string`);
    const noContent = (key: string) => e('files', 'missing_field', `files.${key}.content is required and must be a string`);
    const blank = (key: string) => e('files', 'missing_field', `contents of "${key}" can't be blank`);
    // The expected error: one field error (contained in the answer), or the answer's whole list, in that order.
    const cases: [string, unknown, number, Record<string, unknown> | Record<string, unknown>[]][] = [
      ['no body', undefined, 422, [e('files', 'missing_field')]],
      ['no files', { description: 'x' }, 422, [e('files', 'missing_field')]],
      ['files is an array', { files: [{ content: 'x' }] }, 422, [e('files', 'invalid', 'files must be object')]],
      ['files is a string', { files: 'a.txt' }, 422, { field: 'files', code: 'invalid' }],
      ['empty files', { files: {} }, 422, [e('files', 'missing_field', 'files cannot be empty')]],
      ['a file that is null', { files: { 'a.txt': null } }, 422, [notAFile('a.txt')]],
      [
        'a file that is a string, a number, an array',
        { files: { 'a.txt': 'x', 'b/c~1': 5, d: [] } },
        422,
        [notAFile('a.txt'), notAFile('b/c~1'), notAFile('d')],
      ],
      ['a file without content', { files: { 'a.txt': {} } }, 422, [noContent('a.txt')]],
      ['content that is a number', { files: { 'a.txt': { content: 5 } } }, 422, [noContent('a.txt')]],
      ['empty content', { files: { 'a.txt': { content: '' } } }, 422, [blank('a.txt')]],
      ['blank content', { files: { 'a.txt': { content: ' \n\t' } } }, 422, { field: 'files', code: 'missing_field' }],
      ['a name with a slash', { files: { 'dir/a.txt': { content: 'x' } } }, 422, { field: 'files', code: 'invalid' }],
      ['a name with a backslash', { files: { 'dir\\a.txt': { content: 'x' } } }, 422, { field: 'files', code: 'invalid' }],
      ['a name with NUL', { files: { 'a\u0000b': { content: 'x' } } }, 422, { field: 'files', code: 'invalid' }],
      ['a name with a newline', { files: { 'a\nb': { content: 'x' } } }, 422, { field: 'files', code: 'invalid' }],
      ['the name .', { files: { '.': { content: 'x' } } }, 422, { field: 'files', code: 'invalid' }],
      ['the name ..', { files: { '..': { content: 'x' } } }, 422, { field: 'files', code: 'invalid' }],
      ['the name .git', { files: { '.git': { content: 'x' } } }, 422, { field: 'files', code: 'invalid' }],
      ['a 256-byte name', { files: { ['n'.repeat(256)]: { content: 'x' } } }, 422, { field: 'files', code: 'invalid' }],
      [
        'a description that is a number',
        { description: 5, files: { 'a.txt': { content: 'x' } } },
        422,
        [e('description', 'invalid', 'description must be string,null')],
      ],
      [
        'a description with NUL (and too long)',
        { description: `a\u0000${'d'.repeat(101)}`, files: { 'a.txt': { content: 'x' } } },
        422,
        [e('description', 'invalid', 'description cannot contain NUL characters')],
      ],
      [
        'a description over the limit',
        { description: 'd'.repeat(101), files: { 'a.txt': { content: 'x' } } },
        422,
        [e('description', 'invalid', 'description is too long (maximum is 100 characters)')],
      ],
      [
        'public that is an object',
        { public: {}, files: { 'a.txt': { content: 'x' } } },
        422,
        [e('public', 'invalid', 'public must be boolean,string')],
      ],
      [
        'public "yes"',
        { public: 'yes', files: { 'a.txt': { content: 'x' } } },
        422,
        [e('public', 'invalid', 'public must be true or false')],
      ],
      [
        'every problem at once, in the body’s order',
        { files: { 'a.txt': 'x', 'b.txt': {}, 'c.txt': { content: ' ' }, 'd.txt': { content: 1 } }, public: 'no', description: 'a\u0000' },
        422,
        [
          e('description', 'invalid', 'description cannot contain NUL characters'),
          e('public', 'invalid', 'public must be true or false'),
          notAFile('a.txt'),
          noContent('b.txt'),
          blank('c.txt'),
          noContent('d.txt'),
        ],
      ],
      [
        'a field of the wrong type: that alone',
        { public: 1, files: { 'a.txt': 'x' }, description: 'a\u0000' },
        422,
        [e('public', 'invalid', 'public must be boolean,string')],
      ],
      [
        'fields of the wrong type: those alone, in the schema’s order',
        { public: null, files: 3, description: 5 },
        422,
        [
          e('description', 'invalid', 'description must be string,null'),
          e('files', 'invalid', 'files must be object'),
          e('public', 'invalid', 'public must be boolean,string'),
        ],
      ],
    ];
    for (const [name, body, status, error] of cases) {
      it(name, async () => {
        const r = await create(body);
        expect(r.status).toBe(status);
        expect(r.body.message).toBe('Validation Failed');
        expect(r.body.status).toBe('422');
        expect(r.body.documentation_url).toEqual(expect.any(String));
        expect(r.body.errors).toEqual(Array.isArray(error) ? error : expect.arrayContaining([expect.objectContaining(error)]));
        checkSchema(r, 'POST /gists');
      });
    }

    it('takes a file’s name from its key: a filename beside the content is not read', async () => {
      const r = await create({ files: { 'a.txt': { content: 'x', filename: 5 }, 'b.txt': { content: 'y', filename: 'c.txt' } } });
      expect([r.status, Object.keys(r.body.files)]).toEqual([201, ['a.txt', 'b.txt']]);
    });

    it('a body that is not JSON, or not an object: 400', async () => {
      for (const body of ['{"files": ', '[1]']) {
        const r = await create(body);
        expect(r.status, body).toBe(400);
        expect(r.body.status).toBe('400');
      }
    });

    it('allows a name that merely starts like the automatic ones', async () => {
      const r = await create({ files: { 'gistfile.txt': { content: 'x' }, 'my-gistfile1.txt': { content: 'y' } } });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body.files).sort()).toEqual(['gistfile.txt', 'my-gistfile1.txt']);
    });
  });

  describe('limits', () => {
    it('refuses more files than the configured limit', async () => {
      const files = Object.fromEntries(Array.from({ length: 401 }, (_, i) => [`f${i}.txt`, { content: `${i}` }]));
      const r = await create({ files });
      expect(r.status).toBe(422);
      expect(r.body.errors[0]).toMatchObject({
        resource: 'Gist',
        field: 'files',
        code: 'invalid',
        message: 'a gist can hold at most 400 files',
      });
    });

    it('refuses a file larger than the configured limit', async () => {
      const r = await create({ files: { 'big.txt': { content: 'x'.repeat(2 * 1024 * 1024 + 1) } } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].message).toBe('"big.txt" is larger than the limit of 2097152 bytes for a gist file');
    });

    it('refuses a request body larger than the gist body limit with 413', async () => {
      const files = {
        'a.txt': { content: 'a'.repeat(1024 * 1024) },
        'b.txt': { content: 'b'.repeat(1024 * 1024) },
        'c.txt': { content: 'c'.repeat(1024 * 1024) },
        'd.txt': { content: 'd'.repeat(1024 * 1024) },
      };
      const r = await create({ files });
      expect(r.status).toBe(413);
      expect(r.body).toMatchObject({ message: 'Request body is too large', status: '413' });
    });
  });

  describe('who may create', () => {
    const body = { files: { 'a.txt': { content: 'x' } } };

    it('anonymous: 401', async () => {
      const r = await s.api('POST', '/gists', { body });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ message: 'Requires authentication', status: '401' });
    });

    it('a classic token without the gist scope: 404, naming the scope it needs', async () => {
      const token = await s.createToken('alice', { scopes: ['repo'] });
      const r = await create(body, token);
      expect(r.status).toBe(404);
      expect(r.headers.get('x-accepted-oauth-scopes')).toBe('gist');
      expect(r.headers.get('x-oauth-scopes')).toBe('repo');
    });

    it('a fine-grained token needs the Gists permission (write)', async () => {
      const without = await s.createToken('alice', { kind: 'fine_grained', permissions: { gists: 'read' } });
      const refused = await create(body, without);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Resource not accessible by personal access token');
      const withWrite = await s.createToken('alice', { kind: 'fine_grained', permissions: { gists: 'write' } });
      expect((await create(body, withWrite)).status).toBe(201);
    });

    it('an app user token with the Gists permission creates; an installation token never does', async () => {
      const appUser = await s.createToken('alice', { kind: 'app_user', app_id: 7, permissions: { gists: 'write' } });
      expect((await create(body, appUser)).status).toBe(201);
      const appUserWithout = await s.createToken('alice', { kind: 'app_user', app_id: 7, permissions: {} });
      expect((await create(body, appUserWithout)).status).toBe(403);
      const installation = await s.createToken('alice', { kind: 'installation', app_id: 7, permissions: { gists: 'write' } });
      const r = await create(body, installation);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('Resource not accessible by integration');
    });
  });
});

describe('GET /gists/:gist_id', () => {
  let id: string;
  beforeAll(async () => {
    const r = await create({ description: 'secret one', files: { 'b.py': { content: 'print("é")\n' }, 'a.md': { content: '# a\n' } } });
    id = r.body.id;
  });

  it('reads a secret gist anonymously by its id, files in name order', async () => {
    const r = await s.api('GET', `/gists/${id}`);
    const gist = checkSchema(r, 'GET /gists/{gist_id}');
    expect(gist.public).toBe(false);
    expect(Object.keys(gist.files)).toEqual(['a.md', 'b.py']);
    expect(gist.files['b.py'].content).toBe('print("é")\n');
    expect(gist.files['b.py'].size).toBe(Buffer.byteLength('print("é")\n'));
    expect(r.headers.get('last-modified')).toBe(new Date(gist.updated_at).toUTCString());
  });

  it('validates against API version 2026-03-10 too', async () => {
    const r = await s.api('GET', `/gists/${id}`, { headers: { 'x-service-api-version': '2026-03-10' } });
    checkSchema(r, 'GET /gists/{gist_id}');
  });

  it('answers the same at /api/v3, its API links under the prefix', async () => {
    const a = await s.api('GET', `/gists/${id}`);
    const b = await s.api('GET', `/api/v3/gists/${id}`);
    expect(b.status).toBe(200);
    expect(JSON.parse(b.text.replaceAll(`${s.url}/api/v3/`, `${s.url}/`))).toEqual(a.body);
    expect(b.body.url).toBe(`${s.url}/api/v3/gists/${id}`);
  });

  it('answers an unknown or malformed id with 404', async () => {
    for (const bad of ['0123456789abcdef0123456789abcdef', 'not-a-gist', '%00', 'x'.repeat(300)]) {
      const r = await s.api('GET', `/gists/${bad}`);
      expect(r.status, bad).toBe(404);
      expect(r.body).toMatchObject({ message: 'Not Found', status: '404' });
    }
  });

  it('answers If-None-Match with 304', async () => {
    const first = await s.api('GET', `/gists/${id}`);
    const again = await s.api('GET', `/gists/${id}`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const since = await s.api('GET', `/gists/${id}`, { headers: { 'if-modified-since': first.headers.get('last-modified')! } });
    expect(since.status).toBe(304);
  });

  it('serves content base64-encoded under application/vnd.service.base64+json', async () => {
    const r = await s.api('GET', `/gists/${id}`, { headers: { accept: 'application/vnd.service.base64+json' } });
    checkSchema(r, 'GET /gists/{gist_id}');
    expect(r.headers.get('x-service-media-type')).toBe('service.v3; param=base64; format=json');
    expect(r.body.files['b.py'].encoding).toBe('base64');
    expect(Buffer.from(r.body.files['b.py'].content, 'base64').toString('utf8')).toBe('print("é")\n');
    const raw = await s.api('GET', `/gists/${id}`, { headers: { accept: 'application/vnd.service.raw+json' } });
    expect(raw.body.files['b.py']).toMatchObject({ encoding: 'utf-8', content: 'print("é")\n' });
  });
});

describe('truncation', () => {
  it('cuts content over 1 MiB, marks it truncated, and serves every byte at raw_url', async () => {
    // Three-byte characters, so the cut must fall back to a character boundary.
    const content = `${'€'.repeat(350_000)}tail\n`;
    const bytes = Buffer.from(content);
    expect(bytes.length).toBeGreaterThan(1024 * 1024);
    const created = await create({ files: { 'big.txt': { content } } });
    expect(created.status).toBe(201);
    const file = created.body.files['big.txt'];
    expect(file.truncated).toBe(true);
    expect(file.size).toBe(bytes.length);
    const shown = Buffer.from(file.content);
    expect(shown.length).toBeLessThanOrEqual(1024 * 1024);
    expect(shown.length).toBeGreaterThan(1024 * 1024 - 3);
    expect(bytes.subarray(0, shown.length).equals(shown)).toBe(true);

    const b64 = await s.api('GET', `/gists/${created.body.id}`, { headers: { accept: 'application/vnd.service.base64+json' } });
    expect(b64.body.files['big.txt'].truncated).toBe(true);
    expect(Buffer.from(b64.body.files['big.txt'].content, 'base64').equals(bytes.subarray(0, 1024 * 1024))).toBe(true);

    const raw = await fetch(file.raw_url);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(Buffer.from(await raw.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('shows the first 300 files in name order and marks the gist truncated', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 301 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, { content: `file ${i}` }]),
    );
    const created = await create({ public: true, files });
    expect(created.status).toBe(201);
    expect(created.body.truncated).toBe(true);
    const names = Object.keys(created.body.files);
    expect(names).toHaveLength(300);
    expect(names[0]).toBe('f000.txt');
    expect(names[299]).toBe('f299.txt');
    const list = await s.api('GET', '/users/alice/gists?per_page=1');
    expect(list.body[0].id).toBe(created.body.id);
    expect(list.body[0].truncated).toBe(true);
    expect(Object.keys(list.body[0].files)).toHaveLength(300);
  });
});

describe('raw URLs', () => {
  let gist: any;
  beforeAll(async () => {
    gist = (await create({ files: { 'one.txt': { content: 'one\n' }, 'two words.txt': { content: 'two\n' } } })).body;
  });

  it('serves the exact bytes at the blob-SHA form, with the name percent-encoded', async () => {
    const url = gist.files['two words.txt'].raw_url;
    expect(url).toContain('/raw/');
    expect(url.endsWith('/two%20words.txt')).toBe(true);
    const r = await s.api('GET', path(url));
    expect(r.status).toBe(200);
    expect(r.text).toBe('two\n');
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the latest version by name, the first file without a name, and a file at a revision SHA', async () => {
    expect((await s.api('GET', `/gist/alice/${gist.id}/raw/one.txt`)).text).toBe('one\n');
    expect((await s.api('GET', `/gist/alice/${gist.id}/raw`)).text).toBe('one\n');
    expect((await s.api('GET', `/gist/alice/${gist.id}/raw/${gist.history[0].version}/one.txt`)).text).toBe('one\n');
    expect((await s.api('GET', `/api/v3/gist/alice/${gist.id}/raw/one.txt`)).text).toBe('one\n');
  });

  it('answers 404 for a wrong owner, an unknown file or SHA', async () => {
    for (const p of [
      `/gist/bob/${gist.id}/raw/one.txt`,
      `/gist/alice/${gist.id}/raw/missing.txt`,
      `/gist/alice/${gist.id}/raw/${'0'.repeat(40)}/one.txt`,
      `/gist/alice/${gist.id}/raw/nothex/one.txt`,
      `/gist/alice/${'f'.repeat(32)}/raw/one.txt`,
    ]) {
      const r = await s.api('GET', p);
      expect(r.status, p).toBe(404);
    }
  });
});

describe('with Octokit', () => {
  it('creates and reads a gist', async () => {
    const octokit = s.octokit(alice.token);
    const created = await octokit.rest.gists.create({
      description: 'via octokit',
      public: true,
      files: { 'x.js': { content: 'console.log(1)\n' } },
    });
    expect(created.status).toBe(201);
    expect(created.data.files!['x.js']!.language).toBe('JavaScript');
    const got = await s.octokit().rest.gists.get({ gist_id: created.data.id! });
    expect(got.data.files!['x.js']!.content).toBe('console.log(1)\n');
    expect(got.data.history![0].version).toBe(created.data.history![0].version);
  });
});
