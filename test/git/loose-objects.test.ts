// Loose objects written in place are the objects isomorphic-git and git would write: same ids, valid to `git fsck`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { afterAll, describe, expect, it } from 'vitest';
import { initBare } from '../../src/git/bare.js';
import { objectId, serializeCommit, serializeFlatTree, writeLooseObject } from '../../src/git/loose-objects.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-loose-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function repo(name: string): Promise<string> {
  const dir = path.join(root, `${name}.git`);
  await initBare(dir);
  return dir;
}

// Names whose byte order differs from naive orders: case, prefixes, dots, multi-byte and astral characters.
const NAMES = ['b.txt', 'B.txt', 'a', 'a.b', 'a-b', 'a_b', 'ä.md', 'z', '日本語.txt', '😀.txt', 'ﬀ.txt', 'README'];

describe('loose objects', () => {
  it('gives blobs, flat trees and empty-message commits the ids isomorphic-git gives them', async () => {
    const ours = await repo('ours');
    const theirs = await repo('theirs');
    const entries: { filename: string; oid: string }[] = [];
    for (const [i, filename] of NAMES.entries()) {
      const content = Buffer.from(`${filename}\n${'x'.repeat(i * 37)}\n`);
      const oid = await writeLooseObject(ours, 'blob', content);
      expect(oid).toBe(await git.writeBlob({ fs, gitdir: theirs, blob: content }));
      entries.push({ filename, oid });
    }
    const tree = await writeLooseObject(ours, 'tree', serializeFlatTree(entries));
    expect(tree).toBe(
      await git.writeTree({
        fs,
        gitdir: theirs,
        tree: entries.map((e) => ({ mode: '100644', path: e.filename, oid: e.oid, type: 'blob' as const })),
      }),
    );

    const signature = { name: 'monalisa', email: '7+monalisa@users.noreply.localhost', timestamp: 1_795_000_000 };
    const stamp = { ...signature, timezoneOffset: 0 };
    const first = await writeLooseObject(ours, 'commit', serializeCommit({ tree, parents: [], signature }));
    expect(first).toBe(
      await git.writeCommit({ fs, gitdir: theirs, commit: { message: '', tree, parent: [], author: stamp, committer: stamp } }),
    );
    const second = await writeLooseObject(ours, 'commit', serializeCommit({ tree, parents: [first], signature }));
    expect(second).toBe(
      await git.writeCommit({ fs, gitdir: theirs, commit: { message: '', tree, parent: [first], author: stamp, committer: stamp } }),
    );

    // isomorphic-git reads what was written in place.
    const read = await git.readCommit({ fs, gitdir: ours, oid: second });
    expect(read.commit.parent).toEqual([first]);
    expect((await git.readTree({ fs, gitdir: ours, oid: tree })).tree.map((e) => e.path)).toEqual(
      [...NAMES].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
  });

  it('writes an object once: a second write of the same bytes leaves the file alone', async () => {
    const dir = await repo('twice');
    const content = Buffer.from('same bytes\n');
    const oid = await writeLooseObject(dir, 'blob', content);
    const file = path.join(dir, 'objects', oid.slice(0, 2), oid.slice(2));
    const before = fs.statSync(file);
    expect(await writeLooseObject(dir, 'blob', content)).toBe(oid);
    expect(fs.statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(oid).toBe(objectId('blob', content));
  });

  it('writes objects git reads and fsck accepts', async () => {
    const dir = await repo('fsck');
    const blob = await writeLooseObject(dir, 'blob', Buffer.from('hello\n'));
    const tree = await writeLooseObject(dir, 'tree', serializeFlatTree([{ filename: 'hello.txt', oid: blob }]));
    const commit = await writeLooseObject(
      dir,
      'commit',
      serializeCommit({ tree, parents: [], signature: { name: 'a', email: 'a@example.com', timestamp: 1_700_000_000 } }),
    );
    fs.writeFileSync(path.join(dir, 'refs', 'heads', 'main'), `${commit}\n`);
    expect(execFileSync('git', ['--git-dir', dir, 'hash-object', '--stdin'], { input: 'hello\n' }).toString().trim()).toBe(blob);
    expect(execFileSync('git', ['--git-dir', dir, 'cat-file', '-p', `${commit}:hello.txt`]).toString()).toBe('hello\n');
    execFileSync('git', ['--git-dir', dir, 'fsck', '--strict', '--no-dangling'], { stdio: 'pipe' });
  });
});

describe('the gist ref', () => {
  it('is created, moved, and cut back to 41 bytes when something longer was there', async () => {
    const { setHead, readHead, GIST_REF } = await import('../../src/gists/git.js');
    const dir = path.join(root, 'refs.git');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, GIST_REF);
    const [a, b, c] = ['a', 'b', 'c'].map((x) => x.repeat(40));
    await setHead(dir, a);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${a}\n`);
    await setHead(dir, b);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${b}\n`);
    expect(await readHead(dir)).toBe(b);
    fs.writeFileSync(file, `${a}\n# something longer left by another tool\n`);
    await setHead(dir, c);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${c}\n`);
    await expect(setHead(dir, 'not-a-sha')).rejects.toThrow(/not a commit id/);
  });
});
