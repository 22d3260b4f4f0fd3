// Checks every repository of a data dir: each row has its bare repository, HEAD names the default branch, `git fsck`.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { eachLimited, gitFsck, type CheckReport } from '../git/fsck.js';
import { repositoryDir } from './git-data.js';

export interface RepositoryCheckOptions {
  gitFsck: boolean;
  concurrency?: number;
}

/** The branch HEAD names (`ref: refs/heads/<branch>`), or undefined when HEAD is missing, empty or detached. */
function headBranchOf(dir: string): string | undefined {
  try {
    return /^ref: refs\/heads\/(\S+)\n?$/.exec(fs.readFileSync(path.join(dir, 'HEAD'), 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

async function checkRepository(dir: string, defaultBranch: string, opts: RepositoryCheckOptions): Promise<string[]> {
  if (!fs.existsSync(dir)) return [`its repository ${dir} is missing`];
  const problems: string[] = [];
  const head = headBranchOf(dir);
  if (head === undefined) problems.push('its HEAD is missing or does not name a branch');
  else if (head !== defaultBranch) problems.push(`its HEAD names ${head}, the database's default branch is ${defaultBranch}`);
  if (opts.gitFsck) for (const line of await gitFsck(dir)) problems.push(`git fsck: ${line}`);
  return problems;
}

/** Checks every repository row against the disk, and notes directories under <data>/git/repos no row refers to. */
export async function checkRepositories(config: Readonly<Config>, db: Db, opts: RepositoryCheckOptions): Promise<CheckReport> {
  const rows = await db
    .selectFrom('repositories as r')
    .innerJoin('users as u', 'u.id', 'r.owner_id')
    .select(['r.id', 'r.name', 'r.default_branch', 'u.login'])
    .orderBy('r.id')
    .execute();
  const report: CheckReport = { problems: [], notes: [], checked: rows.length };
  const found = new Map<number, string[]>();
  await eachLimited(rows, opts.concurrency ?? 4, async (r) => {
    found.set(r.id, await checkRepository(repositoryDir(config.dataDir, r.id), r.default_branch, opts));
  });
  for (const r of rows) {
    const subject = `repository ${r.login}/${r.name} (id ${r.id})`;
    for (const message of found.get(r.id)!) report.problems.push({ subject, message });
  }
  const root = path.join(config.dataDir, 'git', 'repos');
  const known = new Set(rows.map((r) => `${r.id}.git`));
  for (const name of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    if (known.has(name)) continue;
    const why = name.startsWith('.import-')
      ? 'an import that did not finish'
      : 'no repository refers to it (left by an interrupted create or delete)';
    report.notes.push({ subject: path.join(root, name), message: `${why}; safe to remove` });
  }
  return report;
}
