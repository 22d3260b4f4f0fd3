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

/**
 * The config of every bare repository hublet makes: isomorphic-git's `init`, stock git serving it over smart HTTP and
 * accepting the pushes hublet authorised (fast-forward or not), pushed objects checked (fsck) on the way in.
 */
const BARE_CONFIG =
  '[core]\n\trepositoryformatversion = 0\n\tfilemode = false\n\tbare = true\n\tsymlinks = false\n\tignorecase = true\n\n' +
  '[http]\n\treceivepack = true\n[receive]\n\tfsckObjects = true\n\tdenyNonFastForwards = false';

/** The directories (parents first) and files (path, content, mode) of a new bare repository. */
function bareSkeleton(dir: string, headRef: string, hooks: Record<string, string>) {
  const names = Object.keys(hooks);
  const dirs = [path.join(dir, 'objects'), path.join(dir, 'refs', 'heads'), ...(names.length ? [path.join(dir, 'hooks')] : [])];
  const files: [string, string, number][] = [
    [path.join(dir, 'HEAD'), `ref: ${headRef}\n`, 0o644],
    [path.join(dir, 'config'), BARE_CONFIG, 0o644],
    ...names.map((name): [string, string, number] => [path.join(dir, 'hooks', name), hooks[name], 0o755]),
  ];
  return { dirs, files };
}

/**
 * Creates a new, empty bare repository whose HEAD names `headRef`, with `hooks` (name → script) in hooks/: its few
 * files written directly (HEAD, one config, objects/, refs/heads/) rather than through initBare and three config
 * rewrites. Creating a file or directory costs 100–300 µs of kernel time on the bench machine's file system, and git
 * makes objects/pack, refs/tags and the rest when it needs them (POST /gists and POST /orgs/{org}/repos profiles in
 * `make bench`: isomorphic-git's init and config rewrites took ~7 ms per repository). Nothing may refer to `dir` before
 * this returns: the callers create it inside the transaction that inserts its row, and remove it when that fails, so a
 * crash leaves only a directory nobody sees. On libuv's threads, so the event loop goes on meanwhile (a repository's
 * creation held it ~3 ms, which every webhook delivery in flight waited out).
 */
export async function createBare(dir: string, headRef: string, hooks: Record<string, string> = {}): Promise<void> {
  const { dirs, files } = bareSkeleton(dir, headRef, hooks);
  for (const d of dirs) await fs.promises.mkdir(d, { recursive: true });
  await Promise.all(files.map(([file, content, mode]) => fs.promises.writeFile(file, content, { mode })));
}

/**
 * createBare in place, on the main thread: for a new gist, whose handful of calls cost less than as many hops through
 * libuv's pool, where they would queue with the SQLite queries of every other request (see sync-fs.ts).
 */
export function createBareSync(dir: string, headRef: string): void {
  const { dirs, files } = bareSkeleton(dir, headRef, {});
  for (const d of dirs) fs.mkdirSync(d, { recursive: true });
  for (const [file, content, mode] of files) fs.writeFileSync(file, content, { mode });
}

/**
 * Makes `dir` a bare repository, or brings an existing one (an imported archive's) to hublet's settings, keeping its
 * objects, refs and other config. Its few small files are written in place (syncFs: no thread-pool hops).
 */
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
