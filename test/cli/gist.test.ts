// The `gist` commands' run functions against a stubbed client and a fake I/O (no server, no data dir): what the user
// sees on stdout and stderr, how a command ends, and the requests it makes.
import { describe, expect, it } from 'vitest';
import { createFiles, runCreate } from '../../src/cli/commands/gist/create.js';
import { runDelete } from '../../src/cli/commands/gist/delete.js';
import { runFork } from '../../src/cli/commands/gist/fork.js';
import { runHistory } from '../../src/cli/commands/gist/history.js';
import { runList } from '../../src/cli/commands/gist/list.js';
import { runRename } from '../../src/cli/commands/gist/rename.js';
import { runStar } from '../../src/cli/commands/gist/star.js';
import { runUnstar } from '../../src/cli/commands/gist/unstar.js';
import { runView } from '../../src/cli/commands/gist/view.js';
import { fakeIO } from '../helpers/cli-inprocess.js';
import { BASE, GIST_ID, gistBody } from './bodies.js';
import { stubClient } from './stub-client.js';

const ID = GIST_ID;

describe('gist create', () => {
  it('reads piped stdin under --filename, posts the gist and prints its URL (the ✓ line only at a terminal)', async () => {
    const fake = fakeIO({ stdin: 'hello\n' });
    const files = await createFiles([], { filename: 'hello.txt' }, fake.io);
    expect(files).toEqual({ 'hello.txt': { content: 'hello\n' } });
    const client = stubClient({ 'POST /gists': { status: 201, body: gistBody({ 'hello.txt': 'hello\n' }) } });
    await runCreate({ client, json: false, files, desc: 'greeting' }, fake.io);
    expect(client.sent).toEqual([
      { method: 'POST', path: '/gists', body: { description: 'greeting', public: false, files: { 'hello.txt': { content: 'hello\n' } } } },
    ]);
    expect(fake.stdout()).toBe(`${BASE}/gist/alice/${ID}\n`);
    expect(fake.stderr()).toBe('');

    const tty = fakeIO({ stderrIsTTY: true });
    await runCreate({ client, json: false, files }, tty.io);
    expect(tty.stderr()).toBe('✓ Created secret gist hello.txt\n');
  });

  it('refuses to wait for a terminal to type into: no file and stdin a terminal is a usage error', async () => {
    const fake = fakeIO({ stdinIsTTY: true });
    await expect(createFiles([], {}, fake.io)).rejects.toMatchObject({
      code: 2,
      message: 'hublet: name files to put in the gist, or pipe the content on stdin (or use -)',
    });
    await expect(createFiles(['-', '-'], {}, fakeIO().io)).rejects.toMatchObject({
      code: 2,
      message: 'hublet: stdin (-) can be named once',
    });
  });

  it('ends with the API error body and exit 1 when the server refuses', async () => {
    const client = stubClient({
      'POST /gists': {
        status: 422,
        body: { message: 'Validation Failed', errors: [{ resource: 'Gist', code: 'missing_field', field: 'files' }] },
      },
    });
    const fake = fakeIO();
    const err = await runCreate({ client, json: false, files: {} }, fake.io).catch((e) => e);
    expect(err).toMatchObject({ code: 1 });
    expect(JSON.parse(err.message)).toMatchObject({ message: 'Validation Failed' });
    expect(fake.stdout()).toBe('');
  });
});

describe('gist list', () => {
  const listed = [
    gistBody({ 'a.md': 'a' }, { description: '  two\n words ' }),
    gistBody({ 'gistfile1.txt': 'x', 'b.sh': 'b' }, { id: 'bb', public: true, description: null }),
  ];

  it('asks for no bigger page than --limit and prints a table, times as ISO 8601 in a pipe', async () => {
    const client = stubClient({ 'GET /gists?per_page=2&page=1': { body: listed } });
    const fake = fakeIO();
    await runList({ client, json: false, anonymous: false, limit: 2 }, fake.io);
    expect(client.calls()).toEqual(['GET /gists?per_page=2&page=1']);
    expect(fake.stdout().split('\n')).toEqual([
      'ID                    DESCRIPTION  FILES    VISIBILITY  UPDATED',
      `${ID}  two words    1 file   secret      2026-01-02T03:04:05Z`,
      'bb                    b.sh         2 files  public      2026-01-02T03:04:05Z',
      '',
    ]);
  });

  it('filters by visibility over full pages, following Link to the next page; anonymously lists /gists/public with owners', async () => {
    const client = stubClient({
      'GET /gists?per_page=100&page=1': { body: listed, headers: { link: `<${BASE}/gists?page=2>; rel="next"` } },
      'GET /gists?per_page=100&page=2': { body: [gistBody({ 'c.txt': 'c' }, { id: 'cc', public: true })] },
    });
    const fake = fakeIO();
    await runList({ client, json: true, anonymous: false, limit: 10, public: true }, fake.io);
    expect(JSON.parse(fake.stdout()).map((g: { id: string }) => g.id)).toEqual(['bb', 'cc']);

    const anon = stubClient({ 'GET /gists/public?per_page=10&page=1': { body: [listed[1]] } });
    const out = fakeIO();
    await runList({ client: anon, json: false, anonymous: true, limit: 10, public: true }, out.io);
    expect(out.stdout().split('\n')[0]).toBe('ID  OWNER  DESCRIPTION  FILES    VISIBILITY  UPDATED');
  });
});

describe('gist view', () => {
  it('prints the description and each file under its name, asking for base64 content', async () => {
    const client = stubClient({ [`GET /gists/${ID}`]: { body: gistBody({ 'a.md': '# A', 'b.txt': 'bee\n' }) } });
    const fake = fakeIO();
    await runView({ client, json: false, id: `${BASE}/gist/alice/${ID}` }, fake.io);
    expect(client.sent[0].headers).toEqual({ accept: 'application/vnd.service.base64+json' });
    expect(fake.stdout()).toBe('notes\n\na.md\n\n# A\n\nb.txt\n\nbee\n');
  });

  it('--files lists the names; --filename with a name the gist lacks exits 1; --revision asks for that revision', async () => {
    const client = stubClient({
      [`GET /gists/${ID}`]: { body: gistBody({ 'b.txt': 'b', 'a.md': 'a' }) },
      [`GET /gists/${ID}/abc123`]: { body: gistBody({ 'old.txt': 'then' }) },
    });
    const files = fakeIO();
    await runView({ client, json: false, id: ID, files: true }, files.io);
    expect(files.stdout()).toBe('a.md\nb.txt\n');
    await expect(runView({ client, json: false, id: ID, filename: 'c.txt' }, fakeIO().io)).rejects.toMatchObject({
      code: 1,
      message: `hublet: gist ${ID} has no file "c.txt"`,
    });
    const raw = fakeIO();
    await runView({ client, json: false, id: ID, revision: 'abc123', raw: true }, raw.io);
    expect(raw.stdout()).toBe('then');
  });
});

describe('gist rename, fork, star, unstar, history', () => {
  it('rename sends the new name of the one file', async () => {
    const client = stubClient({ [`PATCH /gists/${ID}`]: { body: gistBody({ 'notes.md': 'x' }) } });
    const fake = fakeIO();
    await runRename({ client, json: false, id: ID, from: 'notes.txt', to: 'notes.md' }, fake.io);
    expect(client.sent[0].body).toEqual({ files: { 'notes.txt': { filename: 'notes.md' } } });
    expect(fake.stdout()).toBe(`renamed notes.txt to notes.md in gist ${ID}\n`);
  });

  it('fork prints the fork’s id (the gist with --json)', async () => {
    const client = stubClient({ [`POST /gists/${ID}/forks`]: { status: 201, body: gistBody({ 'a.md': 'a' }, { id: 'f0' }) } });
    const fake = fakeIO();
    await runFork({ client, json: false, id: ID }, fake.io);
    expect(fake.stdout()).toBe('f0\n');
    const json = fakeIO();
    await runFork({ client, json: true, id: ID }, json.io);
    expect(JSON.parse(json.stdout()).id).toBe('f0');
  });

  it('star sends PUT with an empty body, unstar DELETE; --json prints nothing (the exit code says it)', async () => {
    const client = stubClient({ [`PUT /gists/${ID}/star`]: { status: 204 }, [`DELETE /gists/${ID}/star`]: { status: 204 } });
    const fake = fakeIO();
    await runStar({ client, json: false, id: ID }, fake.io);
    await runUnstar({ client, json: false, id: ID }, fake.io);
    await runStar({ client, json: true, id: ID }, fake.io);
    expect(client.sent.map((s) => [s.method, s.path, s.headers])).toEqual([
      ['PUT', `/gists/${ID}/star`, { 'content-length': '0' }],
      ['DELETE', `/gists/${ID}/star`, undefined],
      ['PUT', `/gists/${ID}/star`, { 'content-length': '0' }],
    ]);
    expect(fake.stdout()).toBe(`starred gist ${ID}\nunstarred gist ${ID}\n`);
  });

  it('history prints every revision with its line changes', async () => {
    const commit = (version: string, additions: number) => ({
      version,
      committed_at: '2026-01-02T03:04:05Z',
      user: { login: 'alice' },
      change_status: { total: additions, additions, deletions: 0 },
      url: '',
    });
    const client = stubClient({ [`GET /gists/${ID}/commits?per_page=100&page=1`]: { body: [commit('v2', 3), commit('v1', 1)] } });
    const fake = fakeIO();
    await runHistory({ client, json: false, id: ID }, fake.io);
    expect(fake.stdout().split('\n')).toEqual([
      'VERSION  USER   COMMITTED             ADDITIONS  DELETIONS',
      'v2       alice  2026-01-02T03:04:05Z  3          0',
      'v1       alice  2026-01-02T03:04:05Z  1          0',
      '',
    ]);
  });
});

describe('gist delete', () => {
  const routes = () => ({
    [`GET /gists/${ID}`]: { body: gistBody({ 'b.md': 'b', 'a.md': 'a' }) },
    [`DELETE /gists/${ID}`]: { status: 204 },
  });

  it('asks on stderr, naming the gist by its first file, and deletes on yes', async () => {
    const client = stubClient(routes());
    const fake = fakeIO({ stdin: 'y\n', isTTY: true, stdinIsTTY: true });
    await runDelete({ client, json: false, id: ID, confirmed: false }, fake.io);
    expect(fake.stderr()).toBe('? Delete "a.md" gist? (y/N) ');
    expect(client.calls()).toEqual([`GET /gists/${ID}`, `DELETE /gists/${ID}`]);
    expect(fake.stdout()).toBe(`deleted gist ${ID}\n`);
  });

  it('deletes nothing and exits 2 on any other answer; --yes asks nothing', async () => {
    const client = stubClient(routes());
    await expect(runDelete({ client, json: false, id: ID, confirmed: false }, fakeIO({ stdin: 'no\n' }).io)).rejects.toMatchObject({
      code: 2,
      message: 'hublet: not deleted',
    });
    expect(client.calls()).toEqual([`GET /gists/${ID}`]);
    const yes = stubClient(routes());
    const fake = fakeIO();
    await runDelete({ client: yes, json: true, id: ID, confirmed: true }, fake.io);
    expect(yes.calls()).toEqual([`DELETE /gists/${ID}`]);
    expect(fake.stdout() + fake.stderr()).toBe('');
  });
});
