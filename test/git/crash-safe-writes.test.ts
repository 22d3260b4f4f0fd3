// Writes into git dirs never leave an empty or partial file under a name git reads: objects, refs, HEAD and config.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { afterAll, describe, expect, it } from 'vitest';
import { initBare } from '../../src/git/bare.js';
import { isIntactLooseObject, objectId, serializeCommit, writeLooseObject } from '../../src/git/loose-objects.js';
import { moveRef, writeRefSha, writeSymbolicRef } from '../../src/git/refs.js';
import { syncFs } from '../../src/git/sync-fs.js';
import { preparePushes, writeInitialCommit } from '../../src/repos/git-data.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-crash-safe-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function repo(name: string): Promise<string> {
  const dir = path.join(root, `${name}.git`);
  await initBare(dir);
  return dir;
}

const everyFile = (dir: string) => fs.readdirSync(dir, { recursive: true }).map(String);
const fsck = (dir: string) =>
  execFileSync('git', ['--git-dir', dir, 'fsck', '--full', '--strict', '--no-dangling'], { stdio: 'pipe' }).toString();

describe('loose objects', () => {
  it('replace an empty, a cut or a wrong file at their path, and trust only an intact one', async () => {
    const dir = await repo('objects');
    const contents = ['empty\n', 'cut\n', 'wrong\n'].map((c) => Buffer.from(c));
    const files = contents.map((c) => {
      const oid = objectId('blob', c);
      return path.join(dir, 'objects', oid.slice(0, 2), oid.slice(2));
    });
    for (const f of files) fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(files[0], '');
    const x = execFileSync('git', ['--git-dir', dir, 'hash-object', '-w', '--stdin'], { input: 'x\n' }).toString().trim();
    const good = fs.readFileSync(path.join(dir, 'objects', x.slice(0, 2), x.slice(2)));
    fs.writeFileSync(files[1], good.subarray(0, 5));
    fs.writeFileSync(files[2], good);
    for (const [i, c] of contents.entries()) {
      expect(isIntactLooseObject(fs.readFileSync(files[i]), objectId('blob', c))).toBe(false);
      expect(await writeLooseObject(dir, 'blob', c)).toBe(objectId('blob', c));
      expect(isIntactLooseObject(fs.readFileSync(files[i]), objectId('blob', c))).toBe(true);
      expect(execFileSync('git', ['--git-dir', dir, 'cat-file', 'blob', objectId('blob', c)]).toString()).toBe(c.toString());
    }
    expect(everyFile(dir).filter((f) => f.includes('tmp_obj_'))).toEqual([]);
    fsck(dir);
  });

  it('do not recreate a repository that is gone', async () => {
    const dir = path.join(root, 'gone.git');
    await expect(writeLooseObject(dir, 'blob', Buffer.from('x\n'))).rejects.toThrow(/ENOENT/);
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('commits with a message and a time zone', () => {
  it('get the ids isomorphic-git gives them (a repository’s initial commit)', async () => {
    const ours = await repo('initial-ours');
    const theirs = await repo('initial-theirs');
    const author = { name: 'Mona', email: 'mona@example.com', timestamp: 1_795_000_000, timezoneOffset: 240 };
    const oid = await writeInitialCommit(ours, { name: 'hello', description: 'a repo', branch: 'main', author });
    const blob = await git.writeBlob({ fs, gitdir: theirs, blob: Buffer.from('# hello\na repo\n') });
    const tree = await git.writeTree({ fs, gitdir: theirs, tree: [{ mode: '100644', path: 'README.md', oid: blob, type: 'blob' }] });
    for (const timezoneOffset of [240, -330, 0]) {
      const stamp = { ...author, timezoneOffset };
      const expected = await git.writeCommit({
        fs,
        gitdir: theirs,
        commit: { message: 'Initial commit\n', tree, parent: [], author: stamp, committer: stamp },
      });
      const mine = objectId('commit', serializeCommit({ tree, parents: [], signature: stamp, message: 'Initial commit\n' }));
      expect(mine).toBe(expected);
      if (timezoneOffset === 240) expect(oid).toBe(expected);
    }
    expect(fs.readFileSync(path.join(ours, 'refs', 'heads', 'main'), 'utf8')).toBe(`${oid}\n`);
    expect(execFileSync('git', ['--git-dir', ours, 'log', '-1', '--format=%s %ai'], { stdio: 'pipe' }).toString()).toBe(
      'Initial commit 2026-11-18 07:06:40 -0400\n',
    );
    fsck(ours);
  });
});

describe('refs, HEAD and config', () => {
  it('are replaced whole through a temporary file in the git dir (a new inode each time, no leftovers)', async () => {
    const dir = await repo('refs');
    const [a, b] = ['a', 'b'].map((x) => x.repeat(40));
    const ref = path.join(dir, 'refs', 'heads', 'topic', 'x');
    await writeRefSha(dir, 'refs/heads/topic/x', a);
    const first = fs.statSync(ref).ino;
    await writeRefSha(dir, 'refs/heads/topic/x', b);
    expect(fs.readFileSync(ref, 'utf8')).toBe(`${b}\n`);
    expect(fs.statSync(ref).ino).not.toBe(first); // renamed into place, never rewritten in place
    await writeSymbolicRef(dir, 'HEAD', 'refs/heads/topic/x');
    expect(fs.readFileSync(path.join(dir, 'HEAD'), 'utf8')).toBe('ref: refs/heads/topic/x\n');
    await expect(writeRefSha(dir, 'refs/heads/../../config', a)).rejects.toThrow(/not a ref name/);
    await expect(writeRefSha(dir, 'refs/heads/x', 'nope')).rejects.toThrow(/not a commit id/);

    const config = path.join(dir, 'config');
    const before = fs.statSync(config).ino;
    await git.setConfig({ fs: syncFs, gitdir: dir, path: 'receive.fsckObjects', value: true });
    expect(fs.statSync(config).ino).not.toBe(before);
    expect(execFileSync('git', ['--git-dir', dir, 'config', 'receive.fsckObjects']).toString()).toBe('true\n');
    await preparePushes(dir);
    expect(fs.statSync(path.join(dir, 'hooks', 'pre-receive')).mode & 0o111).not.toBe(0);
    expect(everyFile(dir).filter((f) => /tmp/.test(f))).toEqual([]);
  });
});

describe('moving a gist branch (moveRef)', () => {
  it('creates a missing ref whole, rewrites a 41-byte ref with one same-length write, replaces an empty or odd-sized one', async () => {
    const dir = await repo('move');
    const file = path.join(dir, 'refs', 'heads', 'main');
    const [a, b, c] = ['a', 'b', 'c'].map((x) => x.repeat(40));
    await moveRef(dir, 'refs/heads/main', a);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${a}\n`);
    const inode = fs.statSync(file).ino;
    await moveRef(dir, 'refs/heads/main', b);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${b}\n`);
    expect(fs.statSync(file).ino).toBe(inode);
    // What a crash of an older version (truncate, then write) could leave: an empty ref.
    fs.writeFileSync(file, '');
    await moveRef(dir, 'refs/heads/main', c);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${c}\n`);
    fs.writeFileSync(file, `${a}\n${b}\n`);
    await moveRef(dir, 'refs/heads/main', c);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${c}\n`);
    expect(everyFile(dir).filter((f) => /tmp/.test(f))).toEqual([]);
    await expect(moveRef(dir, 'refs/heads/main', 'x')).rejects.toThrow(/not a commit id/);
  });
});
