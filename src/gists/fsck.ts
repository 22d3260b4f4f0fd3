// Checks every gist of a data dir: the database (head, history, files) against its git repository, and `git fsck`.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { eachLimited, gitFsck, type CheckReport, type Finding } from '../git/fsck.js';
import { objectId } from '../git/loose-objects.js';
import { gistRepoDir, readCommit, readHead, readTreeEntries, setHead, type CommitInfo } from './git.js';
import { filesWithContent, listRevisions } from './store.js';
import type { GistRow } from '../db/tables/gists.js';

export interface GistCheckOptions {
  /** Run `git fsck --full` on every gist repository (the slow part). */
  gitFsck: boolean;
  /** Move a branch that is not where the database says to the database's head (what the next git request does). */
  repair: boolean;
  /** Repositories checked at once. */
  concurrency?: number;
}

const PAGE = 500;

/** What is wrong with one gist; `notes` gets repairs made. */
async function checkGist(config: Readonly<Config>, db: Db, gist: GistRow, opts: GistCheckOptions, notes: string[]): Promise<string[]> {
  const dir = gistRepoDir(config, gist.id);
  if (!fs.existsSync(dir)) return [`its repository ${dir} is missing`];
  const problems: string[] = [];
  const head = gist.head_sha;
  const cache = {};

  // The history: positions 0…n-1, newest = head, equal to git's first-parent chain from the head.
  const revisions = await listRevisions(db, gist.id);
  if (!revisions.length) problems.push('it has no revisions in the database');
  else if (revisions[0].version !== head) problems.push(`its newest revision ${revisions[0].version} is not its head ${head}`);
  if (revisions.some((r, i) => r.position !== revisions.length - 1 - i)) problems.push('its revision positions are not 0…n-1');
  const chain: CommitInfo[] = [];
  for (let sha: string | undefined = head; sha && chain.length <= revisions.length; ) {
    const commit = await readCommit(dir, sha, cache);
    if (!commit) {
      problems.push(
        sha === head
          ? `its head commit ${head} cannot be read from its repository`
          : `commit ${sha} of its history cannot be read from its repository`,
      );
      break;
    }
    chain.push(commit);
    sha = commit.parents[0];
  }
  if (chain.length && chain[0].sha === head) {
    const at = revisions.findIndex((r, i) => chain[i]?.sha !== r.version);
    if (at >= 0 || chain.length !== revisions.length) {
      const i = at >= 0 ? at : Math.min(chain.length, revisions.length);
      problems.push(
        `its history differs from git's at the ${i + 1}. revision from the newest: database ${revisions[i]?.version ?? 'none'}, git ${chain[i]?.sha ?? 'none'}`,
      );
    }
    // The current files: the head tree's names and blobs, and bytes that are those blobs.
    try {
      const tree = new Map((await readTreeEntries(dir, head, cache)).map((e) => [e.filename, e.oid]));
      const rows = await filesWithContent(db, gist.id);
      for (const f of rows) {
        const oid = tree.get(f.filename);
        if (oid === undefined) problems.push(`file ${JSON.stringify(f.filename)} is in the database but not in the head commit`);
        else if (oid !== f.blob_sha)
          problems.push(`file ${JSON.stringify(f.filename)} is blob ${f.blob_sha} in the database, ${oid} in the head commit`);
        if (objectId('blob', f.content) !== f.blob_sha)
          problems.push(`file ${JSON.stringify(f.filename)}: the database's bytes are not blob ${f.blob_sha}`);
      }
      const names = new Set(rows.map((f) => f.filename));
      for (const name of tree.keys())
        if (!names.has(name)) problems.push(`file ${JSON.stringify(name)} is in the head commit but not in the database`);
    } catch (err) {
      problems.push(`its head tree cannot be read: ${(err as Error).message}`);
    }
  }

  // The branch: where the database says (an interrupted write may leave it behind; git requests and --repair move it).
  const ref = await readHead(dir);
  if (ref !== head) {
    if (opts.repair && chain[0]?.sha === head) {
      await setHead(dir, head);
      notes.push(`branch main moved from ${ref ?? '(none)'} to the database's head ${head}`);
    } else {
      problems.push(
        ref
          ? `its branch main points at ${ref}, the database's head is ${head}`
          : `its branch main is missing or unreadable (the database's head is ${head})`,
      );
    }
  }
  if (opts.gitFsck) for (const line of await gitFsck(dir)) problems.push(`git fsck: ${line}`);
  return problems;
}

/** Gist repositories on disk that no gist row names (a create or delete interrupted by a crash leaves them). */
function strayDirectories(config: Readonly<Config>, known: Set<string>): string[] {
  const root = path.join(config.dataDir, 'git', 'gists');
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.git') && !known.has(n.slice(0, -4))).map((n) => path.join(root, n));
}

/** Checks every gist (in pages of 500, a few repositories at a time). */
export async function checkGists(config: Readonly<Config>, db: Db, opts: GistCheckOptions): Promise<CheckReport> {
  const report: CheckReport = { problems: [], notes: [], checked: 0 };
  const known = new Set<string>();
  for (let after = ''; ; ) {
    const page = await db.selectFrom('gists').selectAll().where('id', '>', after).orderBy('id').limit(PAGE).execute();
    if (!page.length) break;
    after = page[page.length - 1].id;
    const found = new Map<string, { problems: string[]; notes: string[] }>();
    await eachLimited(page, opts.concurrency ?? 4, async (gist) => {
      known.add(gist.id);
      const notes: string[] = [];
      const problems = await checkGist(config, db, gist, opts, notes);
      found.set(gist.id, { problems, notes });
    });
    for (const gist of page) {
      const f = found.get(gist.id)!;
      const subject = `gist ${gist.id}`;
      report.problems.push(...f.problems.map((message): Finding => ({ subject, message })));
      report.notes.push(...f.notes.map((message): Finding => ({ subject, message })));
    }
    report.checked += page.length;
  }
  for (const dir of strayDirectories(config, known)) {
    report.notes.push({
      subject: dir,
      message: 'a gist repository no gist refers to (left by an interrupted create or delete; safe to remove)',
    });
  }
  return report;
}
