// A repository's git data, read and written in-process with isomorphic-git: the initial commit, HEAD, size, language, history walks.
import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { replaceFile } from '../git/atomic-file.js';
import { createBare, gitDir } from '../git/bare.js';
import { serializeCommit, serializeFlatTree, writeLooseObject } from '../git/loose-objects.js';
import { writeRefSha, writeSymbolicRef } from '../git/refs.js';
import { syncFs } from '../git/sync-fs.js';

/** isomorphic-git's object cache: share one per operation so pack indexes are parsed once. */
export type GitCache = Record<string, unknown>;

/** The bare repository of a repository id (keyed by id, so a rename moves nothing on disk). */
export function repositoryDir(dataDir: string, id: number): string {
  return gitDir(dataDir, 'repos', String(id));
}

export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes west of UTC, as git and isomorphic-git record it (e.g. 240 for -04:00). */
  timezoneOffset: number;
}

/** Creates the bare repository with HEAD naming the default branch, ready for pushes. */
export async function createBareRepository(dir: string, defaultBranch: string): Promise<void> {
  await createBare(dir, `refs/heads/${defaultBranch}`, { 'pre-receive': PRE_RECEIVE });
}

/** What `git receive-pack` runs before accepting a push: the default branch (HEAD) cannot be deleted, as on GitHub. */
const PRE_RECEIVE = `#!/bin/sh
# Written by hublet for every repository: the default branch cannot be deleted (change the default first).
zero=0000000000000000000000000000000000000000
head=$(git symbolic-ref -q HEAD)
while read -r old new ref; do
  if [ "$new" = "$zero" ] && [ "$ref" = "$head" ]; then
    echo "refusing to delete the current branch: $ref"
    exit 1
  fi
done
exit 0
`;

/**
 * Makes a repository ready for stock git pushes: the pre-receive hook above, and objects checked (fsck) on the way in,
 * as GitHub checks them. Cheap when already done; also brings repositories made by older versions up to date.
 */
export async function preparePushes(dir: string): Promise<void> {
  const file = path.join(dir, 'hooks', 'pre-receive');
  const current = await fs.promises.readFile(file, 'utf8').catch(() => undefined);
  if (current === PRE_RECEIVE) return;
  await git.setConfig({ fs: syncFs, gitdir: dir, path: 'receive.fsckObjects', value: true }); // config replaced whole
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  await replaceFile(file, PRE_RECEIVE, { tmpDir: path.dirname(file), prefix: 'pre-receive.tmp-', mode: 0o755 });
}

/** Points HEAD at a branch (which need not exist yet); the file is replaced whole (crash-safe). */
export async function setHead(dir: string, branch: string): Promise<void> {
  await writeSymbolicRef(dir, 'HEAD', `refs/heads/${branch}`);
}

/** GitHub's first commit of an auto-initialized repository: a README.md naming the repository. */
export async function writeInitialCommit(
  dir: string,
  input: { name: string; description: string | null; branch: string; author: Signature },
): Promise<string> {
  const readme = `# ${input.name}\n${input.description ? `${input.description}\n` : ''}`;
  // Written as crash-safe loose objects (src/git/loose-objects.ts): the same bytes isomorphic-git writes.
  const blob = await writeLooseObject(dir, 'blob', Buffer.from(readme, 'utf8'));
  const tree = await writeLooseObject(dir, 'tree', serializeFlatTree([{ filename: 'README.md', oid: blob }]));
  const oid = await writeLooseObject(
    dir,
    'commit',
    serializeCommit({ tree, parents: [], signature: input.author, message: 'Initial commit\n' }),
  );
  await writeRefSha(dir, `refs/heads/${input.branch}`, oid);
  return oid;
}

/** Kilobytes the bare repository takes on disk (GitHub's `size`). */
export async function diskSizeKb(dir: string): Promise<number> {
  let bytes = 0;
  const visit = async (d: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await visit(p);
      else if (e.isFile()) bytes += (await fs.promises.stat(p).catch(() => ({ size: 0 }))).size;
    }
  };
  await visit(dir);
  return Math.round(bytes / 1024);
}

/** The commit an object id finally names (annotated tags peeled); null for trees, blobs or missing objects. */
export async function peelToCommit(dir: string, oid: string, cache: GitCache): Promise<string | null> {
  let current = oid;
  for (let i = 0; i < 10; i++) {
    let obj: { type: string; object: unknown };
    try {
      obj = (await git.readObject({ fs, gitdir: dir, oid: current, format: 'parsed', cache })) as { type: string; object: unknown };
    } catch {
      return null;
    }
    if (obj.type === 'commit') return current;
    if (obj.type !== 'tag') return null;
    current = (obj.object as { object: string }).object;
  }
  return null;
}

interface WalkNode {
  oid: string;
  time: number;
  bad: boolean;
}

/** How far committer clocks may disagree before the walk below could misjudge reachability (git allows similar slop). */
const CLOCK_SLOP_SECONDS = 86_400;

/**
 * Commits reachable from `include` and from none of `exclude`, newest first (git's `rev-list include ^exclude…`:
 * a walk by committer time that paints what the exclusions reach). At most `limit` commits.
 */
export async function commitsBetween(
  dir: string,
  include: string,
  exclude: readonly string[],
  limit: number,
  cache: GitCache,
): Promise<string[]> {
  const uninteresting = new Set<string>();
  const seen = new Map<string, boolean>(); // oid -> queued as uninteresting?
  const times = new Map<string, number>();
  const parentsOf = new Map<string, string[]>();
  const queue: WalkNode[] = []; // newest first
  const push = async (oid: string, bad: boolean) => {
    const prior = seen.get(oid);
    if (prior !== undefined && (prior || !bad)) return;
    seen.set(oid, bad);
    if (bad) uninteresting.add(oid);
    if (!parentsOf.has(oid)) {
      try {
        const { commit } = await git.readCommit({ fs, gitdir: dir, oid, cache });
        parentsOf.set(oid, commit.parent);
        times.set(oid, commit.committer.timestamp);
      } catch {
        return; // a missing commit ends this line of history
      }
    }
    const node = { oid, time: times.get(oid)!, bad };
    let i = queue.length;
    while (i > 0 && queue[i - 1].time < node.time) i--;
    queue.splice(i, 0, node);
  };
  for (const e of exclude) await push(e, true);
  await push(include, false);
  const out: string[] = [];
  let steps = 0;
  // Walk newest first while anything interesting is left.
  while (queue.length && out.length < limit && steps++ < 200_000 && queue.some((n) => !n.bad && !uninteresting.has(n.oid))) {
    const node = queue.shift()!;
    const bad = node.bad || uninteresting.has(node.oid);
    if (!bad) out.push(node.oid);
    for (const p of parentsOf.get(node.oid) ?? []) await push(p, bad);
  }
  // Keep painting what the exclusions reach until nothing queued is new enough to reach a listed commit.
  if (out.length) {
    const oldest = Math.min(...out.map((o) => times.get(o)!));
    while (queue.length && steps++ < 200_000 && queue[0].time >= oldest - CLOCK_SLOP_SECONDS) {
      const node = queue.shift()!;
      if (!node.bad && !uninteresting.has(node.oid)) continue;
      for (const p of parentsOf.get(node.oid) ?? []) await push(p, true);
    }
  }
  return out.filter((oid) => !uninteresting.has(oid));
}

/** True when `ancestor` is `descendant` or reachable from it. */
export async function isAncestor(dir: string, ancestor: string, descendant: string, cache: GitCache): Promise<boolean> {
  if (ancestor === descendant) return true;
  try {
    return await git.isDescendent({ fs, gitdir: dir, oid: descendant, ancestor, depth: -1, cache });
  } catch {
    return false;
  }
}

export interface CommitSummary {
  id: string;
  tree_id: string;
  message: string;
  author: Signature;
  committer: Signature;
  added: string[];
  removed: string[];
  modified: string[];
}

/** A commit with the paths it added, removed and modified against its first parent (all added for a root commit). */
export async function summarizeCommit(dir: string, oid: string, cache: GitCache): Promise<CommitSummary> {
  const { commit } = await git.readCommit({ fs, gitdir: dir, oid, cache });
  let parentTree: string | null = null;
  if (commit.parent.length) {
    parentTree = (await git.readCommit({ fs, gitdir: dir, oid: commit.parent[0], cache }).catch(() => null))?.commit.tree ?? null;
  }
  const changes = { added: [] as string[], removed: [] as string[], modified: [] as string[] };
  await diffTrees(dir, parentTree, commit.tree, '', changes, cache);
  return { id: oid, tree_id: commit.tree, message: commit.message, author: commit.author, committer: commit.committer, ...changes };
}

type Entry = { mode: string; oid: string; type: string };

async function treeEntries(dir: string, oid: string | null, cache: GitCache): Promise<Map<string, Entry>> {
  const out = new Map<string, Entry>();
  if (!oid) return out;
  const { tree } = await git.readTree({ fs, gitdir: dir, oid, cache });
  for (const e of tree) out.set(e.path, { mode: e.mode, oid: e.oid, type: e.type });
  return out;
}

/** Compares two trees, descending only into subtrees whose ids differ. */
async function diffTrees(
  dir: string,
  a: string | null,
  b: string | null,
  prefix: string,
  out: { added: string[]; removed: string[]; modified: string[] },
  cache: GitCache,
): Promise<void> {
  if (a === b) return;
  const [left, right] = await Promise.all([treeEntries(dir, a, cache), treeEntries(dir, b, cache)]);
  const names = [...new Set([...left.keys(), ...right.keys()])].sort();
  for (const name of names) {
    const l = left.get(name);
    const r = right.get(name);
    const p = prefix + name;
    const lTree = l?.type === 'tree';
    const rTree = r?.type === 'tree';
    if (l && r && l.oid === r.oid && l.mode === r.mode) continue;
    if (lTree || rTree) {
      // A tree on either side: compare what lies beneath; a file on the other side is added or removed on its own.
      if (l && !lTree) out.removed.push(p);
      if (r && !rTree) out.added.push(p);
      await diffTrees(dir, lTree ? l!.oid : null, rTree ? r!.oid : null, `${p}/`, out, cache);
    } else if (l && r) out.modified.push(p);
    else if (r) out.added.push(p);
    else out.removed.push(p);
  }
}

/** Paths and sizes of every file in a commit's tree (at most `limit` files). */
async function listFiles(dir: string, treeOid: string, limit: number, cache: GitCache): Promise<{ path: string; oid: string }[]> {
  const out: { path: string; oid: string }[] = [];
  const visit = async (oid: string, prefix: string): Promise<void> => {
    const { tree } = await git.readTree({ fs, gitdir: dir, oid, cache });
    for (const e of tree) {
      if (out.length >= limit) return;
      if (e.type === 'tree') {
        if (!VENDORED.test(`${prefix}${e.path}/`)) await visit(e.oid, `${prefix}${e.path}/`);
      } else if (e.type === 'blob') out.push({ path: prefix + e.path, oid: e.oid });
    }
  };
  await visit(treeOid, '');
  return out;
}

/** Directories linguist treats as vendored or generated (not counted towards the language). */
const VENDORED = /(^|\/)(node_modules|vendor|third[_-]party|bower_components|\.git)\//i;

/** A constant built on first use from the bundled linguist data: the same for every app, never changed once built. */
let languageIndex: Promise<{ byExtension: Map<string, Language>; byFilename: Map<string, Language> }> | undefined;

interface Language {
  name: string;
  type: string;
  extensions?: string[];
  filenames?: string[];
}

/** Languages that win an extension they share with rarer ones (`.md`, `.rs`, `.m`, `.pl`, `.v`, …). */
const COMMON_CLAIMANTS: ReadonlySet<string> = new Set([
  'Markdown',
  'Rust',
  'Objective-C',
  'Perl',
  'F#',
  'OCaml',
  'R',
  'Verilog',
  'Fortran',
  'D',
  'Lex',
  'Scheme',
  'Smalltalk',
  'HTML',
  'SQL',
  'Assembly',
  'Eiffel',
  'OpenCL',
  'Visual Basic 6.0',
  'JSON',
  'ActionScript',
  'Apex',
  'Text',
  'Lean 4',
  'YAML',
  'Modelica',
  'Public Key',
  'Q#',
  'Odin',
  'Pkl',
  'TypeSpec',
  'XML Property List',
  'GAP',
  'jq',
  'Nushell',
]);

/** File name and extension → language, a language's primary extension first (`.md` is Markdown, not GCC Machine Description). */
async function languages() {
  languageIndex ??= import('linguist-languages').then((mod) => {
    // Without linguist's content heuristics, an extension several languages claim goes to the common one.
    const rank = (l: Language) => (COMMON_CLAIMANTS.has(l.name) ? 0 : 1);
    const all = Object.values(mod as unknown as Record<string, Language>)
      .filter((l) => l && typeof l.name === 'string')
      .sort((x, y) => rank(x) - rank(y) || x.name.localeCompare(y.name));
    const byExtension = new Map<string, Language>();
    const byFilename = new Map<string, Language>();
    for (const l of all) if (l.extensions?.[0] && !byExtension.has(l.extensions[0])) byExtension.set(l.extensions[0], l);
    for (const l of all) for (const ext of l.extensions ?? []) if (!byExtension.has(ext)) byExtension.set(ext, l);
    for (const l of all) for (const f of l.filenames ?? []) if (!byFilename.has(f)) byFilename.set(f, l);
    return { byExtension, byFilename };
  });
  return languageIndex;
}

/** The language with the most bytes in a commit's tree (GitHub's `language`), or null when no file counts. */
export async function primaryLanguage(dir: string, commitOid: string, cache: GitCache): Promise<string | null> {
  const { commit } = await git.readCommit({ fs, gitdir: dir, oid: commitOid, cache });
  const files = await listFiles(dir, commit.tree, 5_000, cache);
  const { byExtension, byFilename } = await languages();
  const bytes = new Map<string, number>();
  for (const f of files) {
    const base = f.path.slice(f.path.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    const language =
      byFilename.get(base) ?? (dot > 0 ? (byExtension.get(base.slice(dot)) ?? byExtension.get(base.slice(dot).toLowerCase())) : undefined);
    // Only programming and markup languages count, as in GitHub's language bar (prose and data do not).
    if (!language || (language.type !== 'programming' && language.type !== 'markup')) continue;
    const lang = language.name;
    const { blob } = await git.readBlob({ fs, gitdir: dir, oid: f.oid, cache });
    bytes.set(lang, (bytes.get(lang) ?? 0) + blob.length);
  }
  let best: string | null = null;
  let most = 0;
  for (const [lang, n] of bytes) if (n > most || (n === most && best !== null && lang < best)) [best, most] = [lang, n];
  return best;
}
