// `git push` refuses exactly what the API refuses, with the same reason: file names (newline, control characters,
// backslash, over 255 bytes, `.git`), accepts what the API accepts (gistfileN names), and keeps accepting names the gist
// already has.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { git, gitFails, withCredentials } from './git-tools.js';

let s: TestServer;
let tmp: string;
let alice: { login: string; token: string };
let n = 0;

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-gist-names-'));
  alice = await s.userWithToken('alice');
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function newGist(files: Record<string, string>): Promise<any> {
  const r = await s.api('POST', '/gists', {
    token: alice.token,
    body: { public: true, files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, { content: v }])) },
  });
  expect(r.status).toBe(201);
  return r.body;
}

/**
 * A clone of the gist, and a commit on `parent` (its head) whose tree is `base`'s (the parent's) plus `extra`: any
 * names, through plumbing (no working tree file needed).
 */
async function commitWith(
  g: any,
  extra: Record<string, string>,
  opts: { parent?: string; base?: string; dir?: string } = {},
): Promise<{ dir: string; commit: string }> {
  let dir = opts.dir;
  if (!dir) {
    dir = path.join(tmp, `clone-${++n}`);
    await git(['clone', '-q', g.git_pull_url, dir], tmp);
  }
  const parent = opts.parent ?? 'HEAD';
  const base = await git(['ls-tree', '-z', `${opts.base ?? parent}^{tree}`], dir);
  const lines = base.split('\0').filter(Boolean);
  for (const [name, content] of Object.entries(extra)) {
    const oid = (await git(['hash-object', '-w', '--stdin'], dir, content)).trim();
    lines.push(`100644 blob ${oid}\t${name}`);
  }
  const tree = (await git(['mktree', '-z'], dir, lines.map((l) => `${l}\0`).join(''))).trim();
  const commit = (await git(['commit-tree', tree, '-p', parent, '-m', 'plumbing'], dir)).trim();
  return { dir, commit };
}

const apiReason = async (name: string): Promise<string> => {
  const r = await s.api('POST', '/gists', { token: alice.token, body: { files: { [name]: { content: 'x\n' } } } });
  expect(r.status).toBe(422);
  expect(r.body.errors).toHaveLength(1);
  return r.body.errors[0].message as string;
};

const REFUSED: [string, string][] = [
  ['a newline', 'two\nlines.txt'],
  ['a tab', 'tab\there.txt'],
  ['a backslash', 'back\\slash.txt'],
  ['more than 255 bytes', `${'é'.repeat(127)}.txt`],
  ['.git', '.git'],
];

describe('file names a push adds', () => {
  it.each(REFUSED)('are refused with the API’s reason: %s', async (_what, name) => {
    const reason = await apiReason(name);
    const g = await newGist({ 'a.txt': 'a\n' });
    // The same reason when the API is asked to add it to this gist.
    const patched = await s.api('PATCH', `/gists/${g.id}`, { token: alice.token, body: { files: { [name]: { content: 'x\n' } } } });
    expect(patched.status).toBe(422);
    expect(patched.body.errors.map((e: { message: string }) => e.message)).toEqual([reason]);

    const { dir, commit } = await commitWith(g, { [name]: 'x\n' });
    const err = await gitFails(['push', '-q', withCredentials(g.git_push_url, 'alice', alice.token), `${commit}:refs/heads/main`], dir);
    expect(err).toContain(`remote: ${reason}`);
    expect(err).toContain('[remote rejected]');
    expect(err).toContain(`(${reason})`);
    // Nothing changed: not the API's gist, not the branch.
    const after = (await s.api('GET', `/gists/${g.id}`)).body;
    expect(Object.keys(after.files)).toEqual(['a.txt']);
    expect(after.history).toHaveLength(1);
    expect((await git(['ls-remote', g.git_pull_url, 'refs/heads/main'], dir)).split('\t')[0]).toBe(g.history[0].version);
  });

  it('are checked in every pushed commit, not only the tip', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const bad = await commitWith(g, { 'back\\slash.txt': 'x\n' });
    // The tip drops the name again: its tree is the first revision's plus fine.txt.
    const good = await commitWith(g, { 'fine.txt': 'x\n' }, { parent: bad.commit, base: 'HEAD', dir: bad.dir });
    expect(await git(['ls-tree', '--name-only', good.commit], bad.dir)).toBe('a.txt\nfine.txt\n');
    const err = await gitFails(
      ['push', '-q', withCredentials(g.git_push_url, 'alice', alice.token), `${good.commit}:refs/heads/main`],
      bad.dir,
    );
    expect(err).toContain(`remote: ${await apiReason('back\\slash.txt')}`);
  });

  it('may keep names the gist already has (an unnamed file’s gistfile1.txt) and add acceptable ones', async () => {
    const created = await s.api('POST', '/gists', { token: alice.token, body: { files: { '': { content: 'unnamed\n' } } } });
    expect(Object.keys(created.body.files)).toEqual(['gistfile1.txt']);
    const g = created.body;
    const longest = `${'é'.repeat(125)}.txt`; // 254 bytes
    const { dir, commit } = await commitWith(g, { 'notes.md': '# ok\n', [longest]: 'long\n', constructor: 'c\n' });
    await git(['push', '-q', withCredentials(g.git_push_url, 'alice', alice.token), `${commit}:refs/heads/main`], dir);
    const after = (await s.api('GET', `/gists/${g.id}`)).body;
    expect(Object.keys(after.files).sort()).toEqual(['constructor', 'gistfile1.txt', longest, 'notes.md'].sort());
    expect(after.history[0].version).toBe(commit);
  });

  it('are refused the same way as the API for a rename onto a refused name', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const r = await s.api('PATCH', `/gists/${g.id}`, { token: alice.token, body: { files: { 'a.txt': { filename: 'back\\slash.txt' } } } });
    expect(r.status).toBe(422);
    const reason = r.body.errors[0].message as string;
    const dir = path.join(tmp, `clone-${++n}`);
    await git(['clone', '-q', g.git_pull_url, dir], tmp);
    await git(['mv', 'a.txt', 'back\\slash.txt'], dir);
    await git(['commit', '-q', '-m', 'rename'], dir);
    const err = await gitFails(['push', '-q', withCredentials(g.git_push_url, 'alice', alice.token), 'main'], dir);
    expect(err).toContain(`remote: ${reason}`);
  });

  it('may be of the form gistfile<number>, like the automatic names, as through the API', async () => {
    const g = await newGist({ 'gistfile0.txt': 'from gh\n' });
    const renamed = await s.api('PATCH', `/gists/${g.id}`, {
      token: alice.token,
      body: { files: { 'gistfile0.txt': { filename: 'GISTFILE12.md' } } },
    });
    expect(renamed.status).toBe(200);
    expect(Object.keys(renamed.body.files)).toEqual(['GISTFILE12.md']);
    const after = (await s.api('GET', `/gists/${g.id}`)).body;
    const { dir, commit } = await commitWith(after, { 'gistfile7.txt': 'x\n' });
    await git(['push', '-q', withCredentials(g.git_push_url, 'alice', alice.token), `${commit}:refs/heads/main`], dir);
    const pushed = (await s.api('GET', `/gists/${g.id}`)).body;
    expect(Object.keys(pushed.files).sort()).toEqual(['GISTFILE12.md', 'gistfile7.txt']);
    expect(pushed.history[0].version).toBe(commit);
  });
});
