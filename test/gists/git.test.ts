// git clone and git push against gists over smart HTTP: history equals the API's, owner pushes become revisions, refusals.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { git, gitFails, withCredentials } from './git-tools.js';

let s: TestServer;
let tmp: string;
let alice: { login: string; token: string };
let bob: { login: string; token: string };
let n = 0;

beforeAll(async () => {
  // Clones are anonymous requests, counted by the shared rate limiter: give them room.
  s = await startServer({ config: { gistMaxFiles: 20, gistMaxFileBytes: 64 * 1024, rateLimitAnonymous: 100_000 } });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-gist-git-'));
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function newGist(files: Record<string, string>, isPublic = true): Promise<any> {
  const r = await s.api('POST', '/gists', {
    token: alice.token,
    body: { public: isPublic, files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, { content: v }])) },
  });
  expect(r.status).toBe(201);
  return r.body;
}

const apiGist = async (id: string) => checkSchema((await s.api('GET', `/gists/${id}`)) as any, 'GET /gists/{gist_id}');

async function cloneOf(url: string): Promise<string> {
  const dir = path.join(tmp, `clone-${++n}`);
  await git(['clone', '-q', url, dir], tmp);
  return dir;
}

async function commitAll(dir: string, message: string): Promise<string> {
  await git(['add', '-A'], dir);
  await git(['commit', '-q', '-m', message], dir);
  return (await git(['rev-parse', 'HEAD'], dir)).trim();
}

describe('git clone', () => {
  it('gives the current files and the full history, with the API’s versions as commit SHAs', async () => {
    const g = await newGist({ 'a.txt': 'one\n', 'b.md': '# b\n' });
    const patched = await s.api('PATCH', `/gists/${g.id}`, { token: alice.token, body: { files: { 'a.txt': { content: 'two\n' } } } });
    expect(patched.status).toBe(200);
    const dir = await cloneOf(g.git_pull_url);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('two\n');
    expect(fs.readFileSync(path.join(dir, 'b.md'), 'utf8')).toBe('# b\n');
    const log = (await git(['log', '--format=%H'], dir)).trim().split('\n');
    expect(log).toEqual(patched.body.history.map((h: any) => h.version));
    const tree = await git(['ls-tree', 'HEAD'], dir);
    const blobOf = (name: string) => new RegExp(`blob ([0-9a-f]{40})\\t${name}`).exec(tree)![1];
    expect(patched.body.files['a.txt'].raw_url).toContain(`/raw/${blobOf('a.txt')}/a.txt`);
    expect(patched.body.files['b.md'].raw_url).toContain(`/raw/${blobOf('b.md')}/b.md`);
    expect((await git(['log', '-1', '--format=%an <%ae>'], dir)).trim()).toMatch(/^alice <\d+\+alice@users\.noreply\.127\.0\.0\.1>$/);
  });

  it('clones a secret gist anonymously, also from its html_url and through /api/v3', async () => {
    const g = await newGist({ 'secret.txt': 'psst\n' }, false);
    for (const url of [g.git_pull_url, g.html_url, g.git_pull_url.replace('/gist/', '/api/v3/gist/')]) {
      const dir = await cloneOf(url);
      expect(fs.readFileSync(path.join(dir, 'secret.txt'), 'utf8')).toBe('psst\n');
    }
  });

  it('answers a gist that does not exist with 404', async () => {
    const err = await gitFails(['clone', '-q', `${s.url}/gist/${'e'.repeat(32)}.git`, path.join(tmp, 'missing')], tmp);
    expect(err).toMatch(/not found|404/i);
  });

  it('follows API updates (the branch moves with every revision)', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const dir = await cloneOf(g.git_pull_url);
    const r = await s.api('PATCH', `/gists/${g.id}`, { token: alice.token, body: { files: { 'a.txt': { content: 'b\n' } } } });
    await git(['pull', '-q'], dir);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('b\n');
    expect((await git(['rev-parse', 'HEAD'], dir)).trim()).toBe(r.body.history[0].version);
  });

  it('serves the head the database names even when the branch was left behind', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const r = await s.api('PATCH', `/gists/${g.id}`, { token: alice.token, body: { files: { 'a.txt': { content: 'b\n' } } } });
    const bare = path.join(s.dataDir, 'git', 'gists', `${g.id}.git`);
    // As if the process had stopped between the database commit and the ref update.
    await git(['update-ref', 'refs/heads/main', g.history[0].version], bare);
    const dir = await cloneOf(g.git_pull_url);
    expect((await git(['rev-parse', 'HEAD'], dir)).trim()).toBe(r.body.history[0].version);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('b\n');
  });
});

describe('git push', () => {
  it('by the owner creates revisions visible in the API, one per pushed commit', async () => {
    const g = await newGist({ 'a.txt': 'one\ntwo\n', 'old.txt': 'old\n' });
    const dir = await cloneOf(g.git_pull_url);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n2\nthree\n');
    fs.writeFileSync(path.join(dir, 'new.py'), 'print(1)\n');
    const first = await commitAll(dir, 'edit');
    fs.rmSync(path.join(dir, 'old.txt'));
    const second = await commitAll(dir, 'remove');
    await git(['push', '-q', withCredentials(g.git_push_url, 'alice', alice.token), 'main'], dir);

    const after = await apiGist(g.id);
    expect(Object.keys(after.files)).toEqual(['a.txt', 'new.py']);
    expect(after.files['a.txt'].content).toBe('one\n2\nthree\n');
    expect(after.files['new.py']).toMatchObject({ language: 'Python', size: 9 });
    expect(after.history.map((h: any) => h.version)).toEqual([second, first, g.history[0].version]);
    expect(after.history[1].change_status).toEqual({ total: 4, additions: 3, deletions: 1 });
    expect(after.history[0].change_status).toEqual({ total: 1, additions: 0, deletions: 1 });
    expect(after.history[0].user.login).toBe('alice');
    expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(g.updated_at));
    const raw = await fetch(after.files['new.py'].raw_url);
    expect(await raw.text()).toBe('print(1)\n');
    const commits = await s.api('GET', `/gists/${g.id}/commits`);
    expect(commits.body.map((c: any) => c.version)).toEqual([second, first, g.history[0].version]);
    const atFirst = await s.api('GET', `/gists/${g.id}/${first}`);
    expect(Object.keys(atFirst.body.files)).toEqual(['a.txt', 'new.py', 'old.txt']);
  });

  it('keeps bytes that are not UTF-8 exactly (raw URL and base64 media type)', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const dir = await cloneOf(g.git_pull_url);
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x0a]);
    fs.writeFileSync(path.join(dir, 'image.png'), bytes);
    await commitAll(dir, 'binary');
    await git(['push', '-q', withCredentials(g.git_push_url, 'alice', alice.token), 'main'], dir);
    const b64 = await s.api('GET', `/gists/${g.id}`, { headers: { accept: 'application/vnd.service.base64+json' } });
    const file = b64.body.files['image.png'];
    expect(file).toMatchObject({ size: 8, encoding: 'base64', type: 'application/octet-stream', language: null });
    expect(Buffer.from(file.content, 'base64').equals(bytes)).toBe(true);
    const raw = await fetch(file.raw_url);
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await raw.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('rewrites the history on a force push', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const dir = await cloneOf(g.git_pull_url);
    const push = withCredentials(g.git_push_url, 'alice', alice.token);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'b\n');
    const dropped = await commitAll(dir, 'b');
    await git(['push', '-q', push, 'main'], dir);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'c\n');
    await git(['commit', '-q', '-a', '--amend', '-m', 'c'], dir);
    const amended = (await git(['rev-parse', 'HEAD'], dir)).trim();
    await git(['push', '-q', '-f', push, 'main'], dir);
    const after = await apiGist(g.id);
    expect(after.history.map((h: any) => h.version)).toEqual([amended, g.history[0].version]);
    expect(after.history.map((h: any) => h.version)).not.toContain(dropped);
    expect(after.files['a.txt'].content).toBe('c\n');
    expect((await s.api('GET', `/gists/${g.id}/${dropped}`)).status).toBe(404);
  });

  it('needs credentials: an anonymous push gets 401 and changes nothing', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const dir = await cloneOf(g.git_pull_url);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'anon\n');
    await commitAll(dir, 'anon');
    const err = await gitFails(['push', '-q', g.git_push_url, 'main'], dir);
    expect(err).toMatch(/401|Authentication|could not read Username/i);
    const info = await fetch(`${g.git_push_url}/info/refs?service=git-receive-pack`);
    expect(info.status).toBe(401);
    expect(info.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await apiGist(g.id)).files['a.txt'].content).toBe('a\n');
  });

  it('is refused for another user (403 with a message) and for a token without the gist scope', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const dir = await cloneOf(g.git_pull_url);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'bob was here\n');
    await commitAll(dir, 'bob');
    const err = await gitFails(['push', '-q', withCredentials(g.git_push_url, 'bob', bob.token), 'main'], dir);
    expect(err).toContain(`Permission to gist ${g.id} denied to bob.`);
    const noScope = await s.createToken('alice', { scopes: ['repo'] });
    const err2 = await gitFails(['push', '-q', withCredentials(g.git_push_url, 'alice', noScope), 'main'], dir);
    expect(err2).toContain('needs the gist scope');
    expect((await apiGist(g.id)).files['a.txt'].content).toBe('a\n');
  });

  it('refuses directories, other branches, deleting the branch and files over the limits', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const dir = await cloneOf(g.git_pull_url);
    const push = withCredentials(g.git_push_url, 'alice', alice.token);

    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'x.txt'), 'x\n');
    await commitAll(dir, 'dir');
    expect(await gitFails(['push', '-q', push, 'main'], dir)).toContain('Gist does not support directories.');
    await git(['reset', '-q', '--hard', 'HEAD~1'], dir);

    await git(['checkout', '-q', '-b', 'feature'], dir);
    fs.writeFileSync(path.join(dir, 'b.txt'), 'b\n');
    await commitAll(dir, 'feature');
    expect(await gitFails(['push', '-q', push, 'feature'], dir)).toContain('Gists only accept pushes to the main branch');
    expect(await gitFails(['push', '-q', push, ':main'], dir)).toContain('cannot be deleted');
    await git(['checkout', '-q', 'main'], dir);

    fs.writeFileSync(path.join(dir, 'big.txt'), Buffer.alloc(64 * 1024 + 1, 'x'));
    await commitAll(dir, 'big');
    expect(await gitFails(['push', '-q', push, 'main'], dir)).toContain(
      '"big.txt" is larger than the limit of 65536 bytes for a gist file',
    );
    await git(['reset', '-q', '--hard', 'HEAD~1'], dir);

    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(dir, `f${i}.txt`), `${i}\n`);
    await commitAll(dir, 'many');
    expect(await gitFails(['push', '-q', push, 'main'], dir)).toContain('a gist can hold at most 20 files');

    const after = await apiGist(g.id);
    expect(Object.keys(after.files)).toEqual(['a.txt']);
    expect(after.history).toHaveLength(1);
  });
});

describe('deleting a gist', () => {
  it('removes its repository: clones then fail', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    await cloneOf(g.git_pull_url);
    expect((await s.api('DELETE', `/gists/${g.id}`, { token: alice.token })).status).toBe(204);
    expect(fs.existsSync(path.join(s.dataDir, 'git', 'gists', `${g.id}.git`))).toBe(false);
    const err = await gitFails(['clone', '-q', g.git_pull_url, path.join(tmp, 'gone')], tmp);
    expect(err).toMatch(/not found|404/i);
  });
});
