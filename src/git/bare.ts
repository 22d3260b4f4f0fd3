// Bare git repositories on disk under <data>/git/: create, remove, list refs. Small files go through syncFs (each replaced whole).
import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { syncFs } from './sync-fs.js';

/** Where an area keeps its bare repositories, e.g. gitDir(data, 'gists', id) → <data>/git/gists/<id>.git. */
export function gitDir(dataDir: string, area: 'gists' | 'repos', ...names: string[]): string {
  for (const n of names) {
    if (!n || n === '.' || n === '..' || /[/\\\0]/.test(n)) throw new Error(`unsafe repository path segment: ${JSON.stringify(n)}`);
  }
  const last = names.length - 1;
  return path.join(dataDir, 'git', area, ...names.map((n, i) => (i === last ? `${n}.git` : n)));
}

/** Creates an empty bare repository (idempotent). Its few small files are written in place (syncFs: no thread-pool hops). */
export async function initBare(dir: string, defaultBranch = 'main'): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  await git.init({ fs: syncFs, dir, gitdir: dir, bare: true, defaultBranch });
  // Let stock git serve it over smart HTTP and accept pushes we authorised ourselves.
  await git.setConfig({ fs: syncFs, gitdir: dir, path: 'http.receivepack', value: true });
  await git.setConfig({ fs: syncFs, gitdir: dir, path: 'receive.denyNonFastForwards', value: false });
}

export function removeRepo(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export interface RefState {
  [ref: string]: string;
}

/** Every branch and tag with the object it points at. */
export async function readRefs(dir: string): Promise<RefState> {
  const out: RefState = {};
  if (!fs.existsSync(dir)) return out;
  for (const prefix of ['refs/heads', 'refs/tags']) {
    const names = await git.listRefs({ fs, gitdir: dir, filepath: prefix });
    for (const name of names) {
      const ref = `${prefix}/${name}`;
      out[ref] = await git.resolveRef({ fs, gitdir: dir, ref, depth: 1 }).catch(() => '');
      if (!out[ref]) delete out[ref];
    }
  }
  return out;
}

export interface RefUpdate {
  ref: string;
  before: string; // 40 zeros when created
  after: string; // 40 zeros when deleted
}

export const ZERO_SHA = '0'.repeat(40);

/** What changed between two snapshots of a repository's refs. */
export function diffRefs(before: RefState, after: RefState): RefUpdate[] {
  const refs = new Set([...Object.keys(before), ...Object.keys(after)]);
  const updates: RefUpdate[] = [];
  for (const ref of [...refs].sort()) {
    const b = before[ref] ?? ZERO_SHA;
    const a = after[ref] ?? ZERO_SHA;
    if (a !== b) updates.push({ ref, before: b, after: a });
  }
  return updates;
}
