// Git objects and refs of gists survive what a crash leaves behind: an empty or cut object file is replaced, never trusted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectId, serializeFlatTree } from '../../src/git/loose-objects.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { fsckProblems, git } from './git-tools.js';

let s: TestServer;
let tmp: string;
let alice: { login: string; token: string };

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-crash-'));
  alice = await s.userWithToken('alice');
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const bareOf = (id: string) => path.join(s.dataDir, 'git', 'gists', `${id}.git`);
const objectFile = (id: string, oid: string) => path.join(bareOf(id), 'objects', oid.slice(0, 2), oid.slice(2));

/** What a process killed between creating an object file and writing it leaves: the file, empty (or cut short). */
function plantBroken(id: string, oid: string, bytes = Buffer.alloc(0)): void {
  fs.mkdirSync(path.dirname(objectFile(id, oid)), { recursive: true });
  fs.writeFileSync(objectFile(id, oid), bytes);
}

describe('a gist write over objects a crash left behind', () => {
  it('replaces an empty blob and tree file: the revision is intact, git fsck is clean, the clone has the file', async () => {
    const created = await s.api('POST', '/gists', {
      token: alice.token,
      body: { public: true, files: { 'a.txt': { content: 'one\n' }, 'b.txt': { content: 'stays\n' } } },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const content = Buffer.from('two\n');
    const blob = objectId('blob', content);
    const tree = objectId(
      'tree',
      serializeFlatTree([
        { filename: 'a.txt', oid: blob },
        { filename: 'b.txt', oid: created.body.files['b.txt'].raw_url.split('/raw/')[1].split('/')[0] },
      ]),
    );
    plantBroken(id, blob);
    plantBroken(id, tree);

    const patched = await s.api('PATCH', `/gists/${id}`, { token: alice.token, body: { files: { 'a.txt': { content: 'two\n' } } } });
    expect(patched.status).toBe(200);
    expect(patched.body.files['a.txt'].content).toBe('two\n');
    expect(fs.statSync(objectFile(id, blob)).size).toBeGreaterThan(0);
    expect(fs.statSync(objectFile(id, tree)).size).toBeGreaterThan(0);

    // The revision shows the file (it is read from git), git finds nothing wrong, and a clone works.
    const revision = await s.api('GET', `/gists/${id}/${patched.body.history[0].version}`);
    expect(revision.status).toBe(200);
    expect(Object.keys(revision.body.files)).toEqual(['a.txt', 'b.txt']);
    expect(revision.body.files['a.txt'].content).toBe('two\n');
    expect(await fsckProblems(bareOf(id))).toBe('');
    const dir = path.join(tmp, `clone-${id}`);
    await git(['clone', '-q', created.body.git_pull_url, dir], tmp);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('two\n');
    expect((await git(['log', '--format=%H'], dir)).trim().split('\n')).toEqual(
      patched.body.history.map((h: { version: string }) => h.version),
    );
  });

  it('replaces a cut object file (its first bytes only) and a file holding another object', async () => {
    const created = await s.api('POST', '/gists', { token: alice.token, body: { files: { 'a.txt': { content: 'one\n' } } } });
    const id = created.body.id as string;
    const first = objectFile(id, created.body.files['a.txt'].raw_url.split('/raw/')[1].split('/')[0]);
    const whole = fs.readFileSync(first);
    const cut = objectId('blob', Buffer.from('cut\n'));
    const other = objectId('blob', Buffer.from('other\n'));
    plantBroken(id, cut, whole.subarray(0, Math.ceil(whole.length / 2)));
    plantBroken(id, other, whole); // intact zlib, but the bytes of a different object

    const patched = await s.api('PATCH', `/gists/${id}`, {
      token: alice.token,
      body: { files: { 'cut.txt': { content: 'cut\n' }, 'other.txt': { content: 'other\n' } } },
    });
    expect(patched.status).toBe(200);
    expect(await fsckProblems(bareOf(id))).toBe('');
    const dir = path.join(tmp, `clone-${id}`);
    await git(['clone', '-q', created.body.git_pull_url, dir], tmp);
    expect(fs.readFileSync(path.join(dir, 'cut.txt'), 'utf8')).toBe('cut\n');
    expect(fs.readFileSync(path.join(dir, 'other.txt'), 'utf8')).toBe('other\n');
  });

  it('leaves no temporary files behind and the ref whole', async () => {
    const created = await s.api('POST', '/gists', { token: alice.token, body: { files: { 'a.txt': { content: 'one\n' } } } });
    const id = created.body.id as string;
    for (let i = 0; i < 5; i++) {
      expect(
        (await s.api('PATCH', `/gists/${id}`, { token: alice.token, body: { files: { 'a.txt': { content: `v${i}\n` } } } })).status,
      ).toBe(200);
    }
    const all = fs.readdirSync(bareOf(id), { recursive: true }).map(String);
    expect(all.filter((f) => /tmp/.test(f))).toEqual([]);
    const head = (await s.api('GET', `/gists/${id}`)).body.history[0].version;
    expect(fs.readFileSync(path.join(bareOf(id), 'refs', 'heads', 'main'), 'utf8')).toBe(`${head}\n`);
  });
});
