// Loose refs written whole (a temporary file in the git dir, then a rename): a ref is never seen empty or half-written.
import path from 'node:path';
import { replaceFile } from './atomic-file.js';

/** Temporary ref files start with this, in the git dir itself: git and isomorphic-git look for refs only under refs/. */
export const REF_TMP_PREFIX = 'hublet-ref-';

function checkRefName(ref: string): void {
  if (ref !== 'HEAD' && !/^refs\/(?:[^/\0\s]+\/)*[^/\0\s]+$/.test(ref)) throw new Error(`not a ref name: ${JSON.stringify(ref)}`);
  if (ref.split('/').some((part) => part === '..' || part === '.' || part.startsWith('.') || part.endsWith('.lock'))) {
    throw new Error(`not a ref name: ${JSON.stringify(ref)}`);
  }
}

/** Points `ref` at a commit (`refs/heads/main` → `<sha>\n`), replacing the file whole. */
export async function writeRefSha(gitdir: string, ref: string, sha: string): Promise<void> {
  if (!/^[0-9a-f]{40}$/.test(sha)) throw new Error(`not a commit id: ${JSON.stringify(sha)}`);
  checkRefName(ref);
  await replaceFile(path.join(gitdir, ref), `${sha}\n`, { tmpDir: gitdir, prefix: REF_TMP_PREFIX });
}

/** Makes `ref` (usually HEAD) a symbolic ref to `target` (`ref: refs/heads/main\n`), replacing the file whole. */
export async function writeSymbolicRef(gitdir: string, ref: string, target: string): Promise<void> {
  checkRefName(ref);
  checkRefName(target);
  await replaceFile(path.join(gitdir, ref), `ref: ${target}\n`, { tmpDir: gitdir, prefix: REF_TMP_PREFIX });
}
