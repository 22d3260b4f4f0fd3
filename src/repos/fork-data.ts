// A fork's git data: the parent's objects hard-linked (copied where a link cannot be made) into a new bare repository,
// and its branches and tags (or the default branch alone) written as the fork's own refs.
//
// Why hard links, and not `git clone --shared` (alternates): a fork must outlive its parent (GitHub keeps a fork when
// its parent is deleted), and a repository borrowing objects through alternates breaks the moment the lender's
// objects go (its deletion, or a gc pruning what only the borrower still needs). A hard link shares the file, not the
// path: deleting the parent's directory leaves the fork's links, and so its objects, whole. Git never changes an object
// file in place (loose objects and packs are named by their content and only ever added or removed), so sharing the
// inode is safe. Linking costs one metadata write per file, however large the pack: forking is fast and the network's
// objects are on disk once.
//
// Why the copy is sound while the parent takes pushes (the reasoning of backup/git-copy.ts): refs are read first, and
// every object a ref names was on disk before the ref moved to it; objects are then linked, loose ones before packs (a
// loose object that vanished went into a pack), a pack with its index or not at all, the folder listed again when a
// pack vanished mid-way (a repack's new pack is already there). Temporary files, `.keep` markers and receive-pack's
// quarantine (`objects/incoming-*`) are left out.
import fs from 'node:fs';
import path from 'node:path';
import { readRefs, type RefState } from '../git/bare.js';
import { writeRefSha } from '../git/refs.js';
import { createBareRepository } from './git-data.js';

const LOOSE_DIR = /^[0-9a-f]{2}$/;
const LOOSE_FILE = /^[0-9a-f]{38,62}$/;
const PACK_FILE = /^(pack-[0-9a-f]{40,64})\.(pack|idx|rev)$/;

const readdir = (dir: string): fs.Dirent[] => {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
};

/** Links `from` at `to` (copies it where the file system refuses a link); false when `from` is gone. */
function linkOrCopy(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code === 'EEXIST') return true;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw err;
  }
  try {
    fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

function linkLooseObjects(src: string, dest: string): void {
  for (const d of readdir(src)) {
    if (!d.isDirectory() || !LOOSE_DIR.test(d.name)) continue;
    const files = readdir(path.join(src, d.name)).filter((f) => f.isFile() && LOOSE_FILE.test(f.name));
    if (!files.length) continue;
    fs.mkdirSync(path.join(dest, d.name), { recursive: true });
    for (const f of files) linkOrCopy(path.join(src, d.name, f.name), path.join(dest, d.name, f.name));
  }
}

function linkPacks(src: string, dest: string): void {
  const done = new Set<string>();
  for (let round = 0; round < 20; round++) {
    const packs = new Map<string, Set<string>>();
    for (const e of readdir(src)) {
      const m = e.isFile() ? PACK_FILE.exec(e.name) : null;
      if (m) packs.set(m[1], (packs.get(m[1]) ?? new Set()).add(m[2]));
    }
    let vanished = false;
    for (const [name, kinds] of packs) {
      if (done.has(name) || !kinds.has('pack') || !kinds.has('idx')) continue;
      fs.mkdirSync(dest, { recursive: true });
      const files = ['pack', 'idx', ...(kinds.has('rev') ? ['rev'] : [])].map((k) => `${name}.${k}`);
      const linked = files.filter((f) => linkOrCopy(path.join(src, f), path.join(dest, f)));
      if (linked.includes(`${name}.pack`) && linked.includes(`${name}.idx`)) done.add(name);
      else {
        for (const f of linked) fs.rmSync(path.join(dest, f), { force: true });
        vanished = true;
      }
    }
    if (!vanished) return;
  }
  throw new Error(`the packs of ${src} kept changing while a fork was made`);
}

/**
 * Makes `dest` a bare repository holding the parent's objects and refs: every branch and tag, or only the default
 * branch (`defaultBranchOnly`, GitHub's `default_branch_only`). HEAD names the default branch. Answers the refs written.
 */
export async function copyForForking(
  src: string,
  dest: string,
  opts: { defaultBranch: string; defaultBranchOnly: boolean },
): Promise<RefState> {
  const all = await readRefs(src);
  const head = `refs/heads/${opts.defaultBranch}`;
  const refs: RefState = opts.defaultBranchOnly ? (all[head] ? { [head]: all[head] } : {}) : all;
  await createBareRepository(dest, opts.defaultBranch);
  linkLooseObjects(path.join(src, 'objects'), path.join(dest, 'objects'));
  linkPacks(path.join(src, 'objects', 'pack'), path.join(dest, 'objects', 'pack'));
  for (const [ref, sha] of Object.entries(refs)) await writeRefSha(dest, ref, sha);
  return refs;
}
