// A gist's bare repository: objects written in-process, the head ref, past revisions, a per-gist write lock.
import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import type { Config } from '../config.js';
import { createBareSync, gitDir, removeRepo } from '../git/bare.js';
import { objectId, serializeCommit, serializeFlatTree, writeLooseObject } from '../git/loose-objects.js';
import { spanningLock, type SpanningLock } from '../git/keyed-lock.js';
import { moveRef } from '../git/refs.js';

/** The one branch a gist has. */
export const GIST_BRANCH = 'main';
export const GIST_REF = `refs/heads/${GIST_BRANCH}`;

export function gistRepoDir(config: Readonly<Config>, id: string): string {
  return gitDir(config.dataDir, 'gists', id);
}

export interface Identity {
  name: string;
  email: string;
}

export interface TreeEntry {
  filename: string;
  oid: string;
}

/**
 * Removes the pre-receive hook older versions wrote into every gist repository: pushes are checked by the server
 * before git sees them (push.ts, with the API's rules in rules.ts), and a second, shell copy of the rules could only
 * drift from them. Cheap when there is none.
 */
export function removeLegacyHook(dir: string): void {
  fs.rmSync(path.join(dir, 'hooks', 'pre-receive'), { force: true });
}

/** Creates an empty bare repository for a new gist (git/bare.ts); pushed objects are checked (fsck) on the way in. */
export function createRepo(dir: string): void {
  createBareSync(dir, GIST_REF);
}

export { removeRepo };

/** Copies every object of one gist's repository into another (a fork carries its parent's history). */
export function copyObjects(fromDir: string, toDir: string): void {
  fs.cpSync(path.join(fromDir, 'objects'), path.join(toDir, 'objects'), { recursive: true, force: false, errorOnExist: false });
}

/** Writes blobs; returns their object ids in input order (loose objects written in place, see loose-objects.ts). */
export async function writeBlobs(dir: string, contents: Buffer[]): Promise<string[]> {
  return Promise.all(contents.map((content) => writeLooseObject(dir, 'blob', content)));
}

/** Writes the flat tree and the commit of one revision; nothing points at it until setHead. */
export async function writeCommit(
  dir: string,
  input: { entries: TreeEntry[]; parent: string | null; author: Identity; when: Date },
): Promise<string> {
  const treeBytes = serializeFlatTree(input.entries);
  const tree = objectId('tree', treeBytes);
  const signature = { ...input.author, timestamp: Math.floor(input.when.getTime() / 1000) };
  // Both files at once: the commit's id needs only the tree's id, and nothing points at either until setHead.
  const [, commit] = await Promise.all([
    writeLooseObject(dir, 'tree', treeBytes),
    writeLooseObject(dir, 'commit', serializeCommit({ tree, parents: input.parent ? [input.parent] : [], signature })),
  ]);
  return commit;
}

/**
 * Points the gist's branch at a commit: the loose ref file (a loose ref wins over packed-refs), moved crash-safely by
 * src/git/refs.ts (a new ref through a temporary file and a rename; the usual 41-byte ref by one same-length write in
 * place), never left empty or half-written by a crash. Without isomorphic-git's lock and fs wrapping (3% of PATCH
 * /gists under load in `make bench`).
 */
export async function setHead(dir: string, sha: string): Promise<void> {
  await moveRef(dir, GIST_REF, sha);
}

export async function readHead(dir: string): Promise<string | null> {
  return git.resolveRef({ fs, gitdir: dir, ref: GIST_REF }).catch(() => null);
}

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  committedAt: Date;
}

export async function readCommit(dir: string, sha: string, cache: object = {}): Promise<CommitInfo | null> {
  try {
    const { commit } = await git.readCommit({ fs, gitdir: dir, oid: sha, cache });
    return { sha, tree: commit.tree, parents: commit.parent, committedAt: new Date(commit.committer.timestamp * 1000) };
  } catch {
    return null;
  }
}

/** The files of a commit's tree (regular files only; a gist has no directories). */
export async function readTreeEntries(dir: string, commitSha: string, cache: object = {}): Promise<TreeEntry[]> {
  const { tree } = await git.readTree({ fs, gitdir: dir, oid: commitSha, cache });
  return tree.filter((e) => e.type === 'blob').map((e) => ({ filename: e.path, oid: e.oid }));
}

/** A blob's bytes, or null when the repository has no such blob. */
export async function readBlob(dir: string, oid: string, cache: object = {}): Promise<Buffer | null> {
  try {
    const { blob } = await git.readBlob({ fs, gitdir: dir, oid, cache });
    return Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  } catch {
    return null;
  }
}

/** The first-parent chain from `tip`, newest first, stopping after `stop` returns true for a commit (included). */
export async function firstParentChain(
  dir: string,
  tip: string,
  stop: (sha: string) => boolean,
  cache: object = {},
): Promise<CommitInfo[]> {
  const chain: CommitInfo[] = [];
  let sha: string | undefined = tip;
  const seen = new Set<string>();
  while (sha && !seen.has(sha)) {
    seen.add(sha);
    const info = await readCommit(dir, sha, cache);
    if (!info) throw new Error(`gist repository ${dir} is missing commit ${sha}`);
    chain.push(info);
    if (stop(sha)) break;
    sha = info.parents[0];
  }
  return chain;
}

/** Per-gist serialisation of writes (API writes, pushes, deletes, ref repairs), in this process and across the servers on one PostgreSQL database. */
export const withGistLock: SpanningLock = spanningLock('gist');
