// The archive's layout (GitHub's migration archives) and its writing: JSON files and bare repositories, streamed as tar.gz.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { create as createTar } from 'tar';
import { findAccountById, membersOf } from '../accounts/store.js';
import type { BlobStore } from '../blob/store.js';
import type { UserRow } from '../db/schema.js';
import type { AppContext } from '../core/context.js';
import { mergeSettings } from '../repos/present.js';
import { loadRepositories, repositoryGitDir, type LoadedRepository } from './repositories.js';
import { migrationRepositories } from './store.js';
import type { MigrationRow } from '../db/tables/migrations.js';
import type { RepositoryRow } from '../db/tables/repos.js';
import { inSpan } from '../tracing/spans.js';

const run = promisify(execFile);

/** Runs `git ARGS…` (`service`: the git command it runs), a span `git <service>` while traces are on. */
function git(service: string, args: string[], options: { env: NodeJS.ProcessEnv; maxBuffer?: number }) {
  return inSpan(`git ${service}`, {}, () => run('git', args, options));
}

/** GitHub's archive schema version (`schema.json`). */
const SCHEMA_VERSION = '1.0.1';
/** Records per JSON file: `repositories_000001.json` holds the first 100, `_000002` the next. */
const RECORDS_PER_FILE = 100;

/** The archive's blob key: one per migration, so a repeated export replaces it. */
export function archiveKey(m: MigrationRow): string {
  return `migrations/${m.guid}.tar.gz`;
}

/** Where a repository's git data sits in the archive (and what its record's `git_url` names). */
function gitPath(ownerLogin: string, name: string): string {
  return `repositories/${ownerLogin}/${name}.git`;
}

/** Archive times: ISO 8601 with milliseconds and a numeric offset. */
function archiveTime(iso: string): string {
  return new Date(iso).toISOString().replace(/Z$/, '+00:00');
}

/** `urls.json`: how the URLs in the records are built (GitHub's URL templates), on this server's host and path. */
function urlTemplates(baseUrl: string): Record<string, unknown> {
  const prefix = `{scheme}://{host}${new URL(baseUrl).pathname.replace(/\/+$/, '')}`;
  const repo = `${prefix}/{owner}/{repository}`;
  return {
    user: `${prefix}/{user}`,
    organization: `${prefix}/{organization}`,
    team: `${prefix}/orgs/{owner}/teams/{team}`,
    repository: repo,
    protected_branch: `${repo}/protected_branches/{protected_branch}`,
    milestone: `${repo}/milestones/{milestone}`,
    issue: `${repo}/issues/{issue}`,
    pull_request: `${repo}/pull/{pull_request}`,
    pull_request_review_comment: `${repo}/pull/{pull_request}/files#r{pull_request_review_comment}`,
    pull_request_review: `${repo}/pull/{pull_request}/files#pullrequestreview-{pull_request_review}`,
    commit_comment: `${repo}/commit/{commit}#commitcomment-{commit_comment}`,
    issue_comment: {
      issue: `${repo}/issues/{number}#issuecomment-{issue_comment}`,
      pull_request: `${repo}/pull/{number}#issuecomment-{issue_comment}`,
    },
    issue_event: {
      issue: `${repo}/issues/{number}#event-{event}`,
      pull_request: `${repo}/pull/{number}#event-{event}`,
    },
    release: `${repo}/releases/tag/{release}`,
    label: `${repo}/labels/{label}`,
  };
}

interface Records {
  html(p: string): string;
}

function userRecord(u: UserRow, r: Records) {
  // GitHub's field order; `billing_plan` is GitHub's (null on exports of GitHub.com user accounts, as here).
  return {
    type: 'user',
    url: r.html(`/${u.login}`),
    avatar_url: r.html(`/avatars/${u.login}`),
    login: u.login,
    name: u.name,
    bio: u.bio,
    company: u.company,
    website: u.blog || null,
    location: u.location,
    emails: u.email ? [{ address: u.email, primary: true, verified: true }] : [],
    billing_plan: null,
    created_at: archiveTime(u.created_at),
  };
}

function organizationRecord(org: UserRow, members: { user: UserRow; role: string }[], r: Records) {
  return {
    type: 'organization',
    url: r.html(`/${org.login}`),
    login: org.login,
    name: org.name,
    description: org.bio,
    website: org.blog || null,
    location: org.location,
    email: org.email,
    members: members.map((m) => ({
      user: r.html(`/${m.user.login}`),
      role: m.role === 'admin' ? 'admin' : 'direct_member',
      state: 'active',
    })),
    created_at: archiveTime(org.created_at),
  };
}

/** The repository settings GitHub's record carries under `general_settings`, from what hublet stores. */
function generalSettings(row: RepositoryRow) {
  const merge = mergeSettings(row);
  return {
    template: Boolean(row.is_template),
    allow_forking: Boolean(row.allow_forking),
    projects: Boolean(row.has_projects),
    discussions: Boolean(row.has_discussions),
    merge_commit: merge.allow_merge_commit,
    squash_merge: merge.allow_squash_merge,
    rebase_merge: merge.allow_rebase_merge,
    auto_merge: merge.allow_auto_merge,
    delete_branch_heads: merge.delete_branch_on_merge,
    update_branch: merge.allow_update_branch,
  };
}

function repositoryRecord(repo: LoadedRepository, m: MigrationRow, r: Records) {
  const { row, owner } = repo;
  const url = r.html(`/${owner.login}/${row.name}`);
  const record: Record<string, unknown> = {
    type: 'repository',
    url,
    owner: r.html(`/${owner.login}`),
    name: row.name,
    description: row.description,
    website: row.homepage,
    private: row.visibility !== 'public',
    has_issues: Boolean(row.has_issues),
    has_wiki: Boolean(row.has_wiki),
    has_downloads: Boolean(row.has_downloads),
    is_archived: Boolean(row.archived),
    created_at: archiveTime(row.created_at),
    git_url: `tarball://root/${gitPath(owner.login, row.name)}`,
    // hublet has no wikis: null, never absent or "" (GitHub's importer refuses an empty tarball URL).
    wiki_url: null,
    default_branch: row.default_branch,
    // No GitHub Pages site.
    page: null,
    general_settings: generalSettings(row),
  };
  // Metadata beyond the repository itself; `exclude_metadata` leaves it out ("only git source").
  if (!m.exclude_metadata) {
    Object.assign(record, {
      labels: [],
      collaborators: [],
      webhooks: [],
      public_keys: [],
      autolinks: [],
      repository_topics: (JSON.parse(row.topics) as string[]).map((name) => ({ name, repository: url })),
    });
  }
  return record;
}

/** Writes records as `<kind>_000001.json`, `_000002`, … (100 each); nothing when there are none. */
async function writeRecords(dir: string, kind: string, records: Iterable<unknown>): Promise<string[]> {
  const files: string[] = [];
  let batch: unknown[] = [];
  const flush = async () => {
    const name = `${kind}_${String(files.length + 1).padStart(6, '0')}.json`;
    await fs.promises.writeFile(path.join(dir, name), `${JSON.stringify(batch, null, 2)}\n`);
    files.push(name);
    batch = [];
  };
  for (const record of records) {
    batch.push(record);
    if (batch.length === RECORDS_PER_FILE) await flush();
  }
  if (batch.length) await flush();
  return files;
}

const gitEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
});

/**
 * Copies one repository's git data as a complete bare repository. `git clone --mirror` of the local path reads the refs
 * once and then hardlinks (or copies) the object files: a push landing meanwhile only adds objects, so the copy's refs
 * always point at objects it has (a consistent snapshot without a lock). The copy forgets where it came from.
 */
async function copyGitData(source: string, dest: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(dest), { recursive: true });
  if (!fs.existsSync(source)) {
    await git('init', ['init', '--quiet', '--bare', '--template=', dest], { env: gitEnv() });
    return;
  }
  await git('clone', ['clone', '--quiet', '--mirror', '--template=', '--', source, dest], { env: gitEnv(), maxBuffer: 16 * 1024 * 1024 });
  await git('remote', ['--git-dir', dest, 'remote', 'remove', 'origin'], { env: gitEnv() });
}

/** `info/last-sync`'s time: UTC, to the second, without a zone (the form archives GitHub's importer accepts carry). */
function lastSyncTime(at: Date): string {
  return at.toISOString().slice(0, 19);
}

/**
 * The files GitHub's own bare repositories carry in `info/`, which its importer reads: `nwo` ("name with owner",
 * `owner/name` and a newline) and `last-sync` (when the copy was taken).
 */
async function writeInfoFiles(dest: string, nwo: string, at: Date): Promise<void> {
  const info = path.join(dest, 'info');
  await fs.promises.mkdir(info, { recursive: true });
  await fs.promises.writeFile(path.join(info, 'nwo'), `${nwo}\n`);
  await fs.promises.writeFile(path.join(info, 'last-sync'), lastSyncTime(at));
}

/** Where exports assemble their files before packing: beside the git data, so clones can hardlink. */
function stagingRoot(ctx: AppContext): string {
  return path.join(ctx.config.dataDir, 'tmp', 'migrations');
}

/** A git failure as the migration's reason: what git said (its `fatal:`/`error:` lines), without server paths. */
function gitFailure(what: string, err: unknown, dataDir: string): Error {
  const stderr = String((err as { stderr?: unknown }).stderr ?? (err instanceof Error ? err.message : err));
  const said = stderr
    .split('\n')
    .filter((l) => /^(fatal|error):/.test(l))
    .join('; ')
    .split(dataDir)
    .join('<data>');
  return new Error(`could not copy the git data of ${what}${said ? `: ${said}` : ''}`);
}

/** Lays the archive out in a fresh staging directory; returns the top-level entries in archive order. */
async function stage(ctx: AppContext, m: MigrationRow, dir: string): Promise<string[]> {
  const db = ctx.db;
  const r: Records = { html: (p) => ctx.urls.html(p) };
  const owner = await findAccountById(db, m.owner_id);
  if (!owner) throw new Error(`the owner of migration ${m.id} no longer exists`);
  const entries = ['schema.json', 'urls.json'];
  await fs.promises.writeFile(path.join(dir, 'schema.json'), `${JSON.stringify({ version: SCHEMA_VERSION }, null, 2)}\n`);
  await fs.promises.writeFile(path.join(dir, 'urls.json'), `${JSON.stringify(urlTemplates(ctx.config.baseUrl), null, 2)}\n`);

  let users: UserRow[] = [owner];
  if (owner.type === 'Organization') {
    const list = await membersOf(db, owner.id);
    entries.push(...(await writeRecords(dir, 'organizations', [organizationRecord(owner, list, r)])));
    users = list.map((x) => x.user);
  }
  entries.push(
    ...(await writeRecords(
      dir,
      'users',
      users.map((u) => userRecord(u, r)),
    )),
  );

  if (m.org_metadata_only) return entries;
  const named = await migrationRepositories(db, m.id);
  const repos = await loadRepositories(
    db,
    named.map((n) => n.repository_id),
  );
  entries.push(
    ...(await writeRecords(
      dir,
      'repositories',
      repos.map((repo) => repositoryRecord(repo, m, r)),
    )),
  );
  if (!m.exclude_git_data && repos.length) {
    for (const repo of repos) {
      const fullName = `${repo.owner.login}/${repo.row.name}`;
      const dest = path.join(dir, gitPath(repo.owner.login, repo.row.name));
      await copyGitData(repositoryGitDir(ctx.config.dataDir, repo.row.id), dest).catch((err: unknown) => {
        throw gitFailure(fullName, err, ctx.config.dataDir);
      });
      await writeInfoFiles(dest, fullName, ctx.clock.now());
    }
    entries.push('repositories');
  }
  return entries;
}

/**
 * Writes the migration's archive to the store under its key and returns its size in bytes. The tar.gz is produced by
 * streaming from the staging directory (bounded read buffers, backpressure to the store), so memory stays flat however
 * large the repositories are; the store publishes it only once complete.
 */
export async function writeArchive(ctx: AppContext, m: MigrationRow, store: BlobStore, key: string): Promise<number> {
  const root = stagingRoot(ctx);
  await fs.promises.mkdir(root, { recursive: true });
  // Leftovers of an earlier attempt at this export (its worker died) are removed first.
  for (const name of await fs.promises.readdir(root)) {
    if (name.startsWith(`${m.guid}-`)) await fs.promises.rm(path.join(root, name), { recursive: true, force: true });
  }
  const dir = path.join(root, `${m.guid}-${crypto.randomBytes(4).toString('hex')}`);
  await fs.promises.mkdir(dir);
  try {
    const entries = await stage(ctx, m, dir);
    // 64 KiB reads: every read is a fresh Buffer, and 1 MiB ones (past glibc's mmap threshold) piled up as garbage
    // between collections: 500 MB exported grew the server's peak RSS by 120 MB, 64 KiB reads keep it near 45 (`make bench`).
    const pack = createTar({ gzip: true, cwd: dir, portable: true, maxReadSize: 64 * 1024, jobs: 2 }, entries);
    return await store.put(key, pack);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
