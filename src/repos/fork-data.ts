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
// every object a ref names was on disk before the ref moved to it; the objects are then linked by the walk backups
// copy with (git/object-files.ts).
import fs from 'node:fs';
import path from 'node:path';
import { readRefs, type RefState } from '../git/bare.js';
import { placeLooseObjects, placePacks } from '../git/object-files.js';
import { writeRefSha } from '../git/refs.js';
import { createBareRepository } from './git-data.js';

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
  placeLooseObjects(path.join(src, 'objects'), path.join(dest, 'objects'), linkOrCopy);
  placePacks(path.join(src, 'objects', 'pack'), path.join(dest, 'objects', 'pack'), linkOrCopy);
  for (const [ref, sha] of Object.entries(refs)) await writeRefSha(dest, ref, sha);
  return refs;
}
