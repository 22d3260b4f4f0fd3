// `hublet gist import --from URL`: every gist of a user on a second hublet server (public and secret, several files and
// revisions) copied into this one in local and remote mode, with the same revision SHAs, files, description and
// visibility; a second run adds only new gists and revisions; an import cut short is finished; bad URLs, bad tokens and
// hostile answers of the source end with a clear message and exit code, leaving nothing half-imported here.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { failed, ok, type CliResult } from '../helpers/cli.js';
import { runInProcess, startInProcessCliServer, type InProcessCliServer } from '../helpers/cli-inprocess.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { gistApi } from './gist-api.js';

// Real git fetches and pushes for every gist, on a shared machine.
vi.setConfig({ testTimeout: 120_000 });

let source: TestServer;
let octo: { login: string; token: string };
let cli: InProcessCliServer;
let dst: TestServer;
/** mona imports in local mode; hubot in remote mode. */
let hubot: { login: string; token: string };
/** A token of mona's on this server, to read her import records. */
let monaToken: string;
const src = gistApi(() => source);
/** The source's gists, by id. */
const made: Record<string, string> = {};

/** A gist as the test compares it: what import must keep. */
async function shape(server: TestServer, id: string) {
  const r = await server.api('GET', `/gists/${id}`);
  expect(r.status, r.text).toBe(200);
  const g = r.body;
  return {
    description: g.description,
    public: g.public,
    files: Object.fromEntries(Object.entries(g.files).map(([name, f]: [string, any]) => [name, f.content])),
    history: g.history.map((h: { version: string; committed_at: string; change_status: unknown }) => ({
      version: h.version,
      committed_at: h.committed_at,
      change_status: h.change_status,
    })),
  };
}

async function patch(id: string, body: unknown): Promise<void> {
  const r = await source.api('PATCH', `/gists/${id}`, { token: octo.token, body });
  expect(r.status, r.text).toBe(200);
}

/** The user's gists on this server (secret ones too), as id → source URL through their import records. */
async function importsOf(token: string): Promise<Record<string, string>> {
  const r = await dst.api('GET', '/user/gist-imports?per_page=100', { token });
  expect(r.status, r.text).toBe(200);
  return Object.fromEntries(r.body.map((x: { source: string; gist_id: string }) => [x.source, x.gist_id]));
}

const sourceUrl = (id: string) => `${source.url}/gists/${id}`;
/** The source gist's API URL as the source gives it to a client of its /api/v3 prefix. */
async function prefixedUrl(id: string): Promise<string> {
  const r = await source.api('GET', `/api/v3/gists/${id}`);
  expect(r.status, r.text).toBe(200);
  return r.body.url;
}

beforeAll(async () => {
  // The importer reads the source anonymously too (--user without a token): room in its rate limit.
  source = await startServer({ config: { rateLimitAnonymous: 100_000, rateLimitAuthenticated: 100_000 } });
  octo = await source.userWithToken('octo', ['gist']);
  // A public gist with three revisions (an edit, a file added, a rename), a secret one with two files and two
  // revisions, and a one-revision public gist.
  const notes = await src.newGist(octo.token, { 'notes.md': '# notes\n', 'run.sh': 'echo 1\n' }, { public: true, description: 'my notes' });
  await patch(notes.id, { files: { 'run.sh': { content: 'echo 2\n' } } });
  await patch(notes.id, { files: { 'extra.txt': { content: 'more\n' }, 'notes.md': { filename: 'README.md' } } });
  made.notes = notes.id;
  const secret = await src.newGist(octo.token, { 'a.txt': 'a\n', 'b.txt': 'b\n' }, { public: false, description: 'secret pair' });
  await patch(secret.id, { description: 'secret pair, edited', files: { 'b.txt': { content: 'b2\n' } } });
  made.secret = secret.id;
  made.single = (await src.newGist(octo.token, { 'one.py': 'print(1)\n' }, { public: true })).id;

  cli = await startInProcessCliServer();
  dst = cli.server;
  monaToken = (await dst.userWithToken('mona', ['gist'])).token;
  hubot = await dst.userWithToken('hubot', ['gist']);
});
afterAll(async () => {
  await cli?.close();
  await source?.close();
});

/** `hublet gist import` in local mode as mona, with octo's token for the source unless told otherwise. */
function localImport(args: string[], opts: { token?: string | null; tty?: boolean } = {}): Promise<CliResult> {
  const token = opts.token === undefined ? octo.token : opts.token;
  const argv = ['--data', dst.dataDir, '--database', dst.databaseUrl, '--as', 'mona', 'gist', 'import', '--from', source.url, ...args];
  return runInProcess(argv, { env: cli.localEnv, extraEnv: token ? { HUBLET_FROM_TOKEN: token } : {}, stderrIsTTY: Boolean(opts.tty) });
}

describe('hublet gist import, local mode, the token’s own gists', () => {
  let first: any;

  it('copies every gist, public and secret, oldest first: 201 records, a summary, exit 0', async () => {
    const r = ok(await localImport(['--json']));
    first = JSON.parse(r.stdout);
    expect(first.summary).toEqual({ created: 3, updated: 0, unchanged: 0, diverged: 0, failed: 0, revisions_added: 6 });
    expect(
      first.gists.map((g: { source: string; status: string; revisions_added: number }) => [g.source, g.status, g.revisions_added]),
    ).toEqual([
      [sourceUrl(made.notes), 'created', 3],
      [sourceUrl(made.secret), 'created', 2],
      [sourceUrl(made.single), 'created', 1],
    ]);
    for (const g of first.gists) expect(g.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps every revision’s SHA and time, the files of each, the description and the visibility', async () => {
    const records = await importsOf(monaToken);
    for (const id of Object.values(made)) {
      const copy = records[sourceUrl(id)];
      expect(copy, id).toMatch(/^[0-9a-f]{32}$/);
      expect(copy).not.toBe(id);
      expect(await shape(dst, copy)).toEqual(await shape(source, id));
    }
    const secret = await shape(dst, records[sourceUrl(made.secret)]);
    expect(secret).toMatchObject({ public: false, description: 'secret pair, edited', files: { 'a.txt': 'a\n', 'b.txt': 'b2\n' } });
    expect(secret.history).toHaveLength(2);
    // The placeholder revision the import started from is gone from the history.
    const notes = await dst.api('GET', `/gists/${records[sourceUrl(made.notes)]}`);
    expect(Object.keys(notes.body.files).sort()).toEqual(['README.md', 'extra.txt', 'run.sh']);
    expect(notes.body.owner.login).toBe('mona');
  });

  it('a second run changes nothing', async () => {
    const r = ok(await localImport([]));
    expect(r.stdout).toMatch(/^STATUS +SOURCE +GIST +REVISIONS$/m);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('0 gists imported, 0 updated, 0 revisions added, 3 unchanged');
  });

  it('a later run adds only the new revisions and the new gists', async () => {
    await patch(made.notes, { files: { 'run.sh': { content: 'echo 3\n' } } });
    await patch(made.notes, { files: { 'extra.txt': null } });
    made.later = (await src.newGist(octo.token, { 'late.txt': 'late\n' }, { public: false, description: 'later' })).id;
    const r = ok(await localImport(['--json']));
    const out = JSON.parse(r.stdout);
    expect(out.summary).toEqual({ created: 1, updated: 1, unchanged: 2, diverged: 0, failed: 0, revisions_added: 3 });
    const byStatus = Object.fromEntries(
      out.gists.map((g: { source: string; status: string; revisions_added: number }) => [g.source, [g.status, g.revisions_added]]),
    );
    expect(byStatus[sourceUrl(made.notes)]).toEqual(['updated', 2]);
    expect(byStatus[sourceUrl(made.later)]).toEqual(['created', 1]);
    const records = await importsOf(monaToken);
    expect(await shape(dst, records[sourceUrl(made.notes)])).toEqual(await shape(source, made.notes));
    expect(records[sourceUrl(made.notes)]).toBe(first.gists[0].id);
    expect(await shape(dst, records[sourceUrl(made.later)])).toEqual(await shape(source, made.later));
  });

  it('shows progress on a terminal, on stderr only', async () => {
    const r = await localImport([], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('\r\x1b[2K[1/4] ');
    expect(r.stdout).not.toContain('\r');
  });
});

describe('hublet gist import, remote mode, a user’s public gists', () => {
  it('copies only the public ones without a source token, then finds nothing new', async () => {
    const r = ok(await cli.remote(hubot.token, ['gist', 'import', '--from', `${source.url}/api/v3/`, '--user', 'octo', '--json']));
    const out = JSON.parse(r.stdout);
    expect(out.from).toBe(`${source.url}/api/v3`);
    expect(out.summary).toEqual({ created: 2, updated: 0, unchanged: 0, diverged: 0, failed: 0, revisions_added: 6 });
    // The records name each source gist by the URL the source's API gave it (here under its /api/v3 prefix).
    const records = await importsOf(hubot.token);
    const expected = [await prefixedUrl(made.notes), await prefixedUrl(made.single)];
    expect(Object.keys(records).sort()).toEqual(expected.sort());
    expect(await shape(dst, records[await prefixedUrl(made.notes)])).toEqual(await shape(source, made.notes));
    expect(await shape(dst, records[await prefixedUrl(made.single)])).toEqual(await shape(source, made.single));
    const again = ok(await cli.remote(hubot.token, ['gist', 'import', '--from', `${source.url}/api/v3`, '--user', 'octo']));
    expect(again.stdout.trim().split('\n').at(-1)).toBe('0 gists imported, 0 updated, 0 revisions added, 2 unchanged');
  });

  it('finishes an import that was cut short (a copy still at its placeholder)', async () => {
    const fresh = await src.newGist(octo.token, { 'x.txt': 'x\n' }, { public: true, description: 'cut short' });
    await patch(fresh.id, { files: { 'x.txt': { content: 'x2\n' } } });
    const url = await prefixedUrl(fresh.id);
    const pending = await dst.api('POST', '/user/gist-imports', {
      token: hubot.token,
      body: { source: url, description: 'cut short', public: true, files: { 'importing.md': { content: 'wait\n' } } },
    });
    expect(pending.status, pending.text).toBe(201);
    expect(pending.body).toMatchObject({ source: url, pending: true, gist: { id: pending.body.gist_id } });
    const r = ok(await cli.remote(hubot.token, ['gist', 'import', '--from', `${source.url}/api/v3`, '--user', 'octo', '--json']));
    const entry = JSON.parse(r.stdout).gists.find((g: { source: string }) => g.source === url);
    expect(entry).toMatchObject({ id: pending.body.gist_id, status: 'created', revisions_added: 2 });
    expect(await shape(dst, pending.body.gist_id)).toEqual(await shape(source, fresh.id));
  });
});

describe('what the import refuses', () => {
  it('POST /user/gist-imports: a body of the wrong types alone (GistImport), the source next, then the gist body (Gist)', async () => {
    const post = async (body: unknown) => (await dst.api('POST', '/user/gist-imports', { token: hubot.token, body })).body.errors;
    const source = 'https://example.com/gists/never-imported';
    expect(await post({ files: { 'a.txt': 5 } })).toEqual([{ resource: 'GistImport', field: 'source', code: 'missing_field' }]);
    expect(await post({ source: 5, description: 5, files: { 'a.txt': 5 } })).toEqual([
      { resource: 'GistImport', field: 'description', code: 'invalid', message: 'description must be string,null' },
      { resource: 'GistImport', field: 'source', code: 'invalid', message: 'source must be string' },
    ]);
    expect(await post({ source: 'ftp://x', files: { 'a.txt': 5 } })).toEqual([
      expect.objectContaining({ resource: 'GistImport', field: 'source', code: 'invalid' }),
    ]);
    expect(await post({ source, public: 'no', files: { 'a.txt': 5 } })).toEqual([
      { resource: 'Gist', field: 'public', code: 'invalid', message: 'public must be true or false' },
      { resource: 'Gist', field: 'files', code: 'invalid', message: 'files.a.txt must be an object with a content string' },
    ]);
    expect(await post({ source, files: {} })).toEqual([
      { resource: 'Gist', field: 'files', code: 'missing_field', message: 'files cannot be empty' },
    ]);
  });

  it('a --from that is no http(s) URL: exit 2 before anything is opened', async () => {
    const r = failed(await cli.remote(hubot.token, ['gist', 'import', '--from', 'ftp://example.com', '--user', 'octo']), 2);
    expect(r.stderr).toContain('--from must be the http(s) URL');
  });

  it('neither --user nor a source token: exit 2', async () => {
    const r = failed(await localImport([], { token: null }), 2);
    expect(r.stderr).toContain('pass --user LOGIN, or a token');
  });

  it('a token the source refuses: exit 4, saying so; nothing is created', async () => {
    const before = await importsOf(hubot.token);
    const r = failed(await cli.remote(hubot.token, ['gist', 'import', '--from', source.url, '--from-token', 'not-a-token']), 4);
    expect(r.stderr).toContain(`${source.url} refused the token (HTTP 401`);
    expect(await importsOf(hubot.token)).toEqual(before);
  });

  it('a server that is not there: exit 1, cannot reach', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = failed(await cli.remote(hubot.token, ['gist', 'import', '--from', `http://127.0.0.1:${port}`, '--user', 'octo']), 1);
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${port}`);
  });

  it('an unknown user at the source: exit 1', async () => {
    const r = failed(await cli.remote(hubot.token, ['gist', 'import', '--from', source.url, '--user', 'nobody-here']), 1);
    expect(r.stderr).toContain('has no user nobody-here (HTTP 404)');
  });

  it('no token for this server in remote mode: exit 4 before the source is read', async () => {
    const r = failed(await cli.remote(null, ['gist', 'import', '--from', source.url, '--user', 'octo']), 4);
    expect(r.stderr).toContain('Requires authentication');
  });

  describe('a hostile source', () => {
    let fake: http.Server;
    let fakeUrl: string;
    const pwned = path.join(os.tmpdir(), `hublet-import-pwned-${process.pid}`);

    beforeAll(async () => {
      fake = http.createServer((req, res) => {
        const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
        };
        if (req.url?.startsWith('/users/eve/gists')) {
          json(200, [
            { id: 'aaa', url: `${fakeUrl}/gists/aaa`, git_pull_url: `ext::sh -c touch% ${pwned}`, public: true, description: 'ext' },
            { id: 'bbb', url: `${fakeUrl}/gists/bbb`, git_pull_url: `${fakeUrl}/gist/bbb.git`, public: true, description: 'no repository' },
            { id: '../x', url: 'file:///etc/passwd', git_pull_url: `${fakeUrl}/gist/x.git`, public: true },
            'not an object',
          ]);
        } else if (req.url?.startsWith('/users/mallory/gists')) {
          json(200, [], { link: '<http://evil.invalid/next?page=2>; rel="next"' });
        } else if (req.url?.startsWith('/users/html/gists')) {
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>a web page</html>');
        } else {
          json(404, { message: 'Not Found' });
        }
      });
      await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
      fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    });

    it('reports each unusable gist and one it cannot fetch as failed (exit 1), creating none of them; git never runs ext::', async () => {
      const before = await importsOf(hubot.token);
      const r = await cli.remote(hubot.token, ['gist', 'import', '--from', fakeUrl, '--user', 'eve', '--json']);
      expect(r.code, r.stderr).toBe(1);
      const out = JSON.parse(r.stdout);
      expect(out.summary).toEqual({ created: 0, updated: 0, unchanged: 0, diverged: 0, failed: 4, revisions_added: 0 });
      const problems = Object.fromEntries(out.gists.map((g: { source: string; message: string }) => [g.source, g.message]));
      expect(problems[`${fakeUrl}/gists/aaa`]).toBe('the source gives no http(s) git_pull_url to clone it from');
      expect(problems[`${fakeUrl}/gists/bbb`]).toMatch(/^fetching .* failed: /);
      expect(r.stderr).toContain('hublet: 4 gists of 4 could not be imported');
      expect(fs.existsSync(pwned)).toBe(false);
      expect(await importsOf(hubot.token)).toEqual(before);
    });

    it('refuses a link to another server, before importing anything', async () => {
      const r = failed(
        await cli.remote(hubot.token, ['gist', 'import', '--from', fakeUrl, '--user', 'mallory', '--from-token', 'mallorys-token']),
        1,
      );
      expect(r.stderr).toContain('sent a link to another server (http://evil.invalid); not followed');
    });

    it('says what is wrong when the answer is no list of gists', async () => {
      const r = failed(await cli.remote(hubot.token, ['gist', 'import', '--from', fakeUrl, '--user', 'html']), 1);
      expect(r.stderr).toContain('did not answer with a list of gists');
    });
  });
});
