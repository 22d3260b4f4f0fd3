// `hublet admin backup`: a consistent backup of a running installation, taken beside its servers while they write.
//
// What "consistent" means, and why the order below gives it. The database is the source of truth: it names every
// gist's head and every repository, migration archive and hook (git objects are written before the row that names them,
// see gists/write.ts). So:
// 1. The database is snapshotted first, at one point in time T (SQLite: VACUUM INTO; PostgreSQL: pg_dump of an exported
//    snapshot; database.ts). Every write acknowledged before the backup began is in it.
// 2. Then the git data of exactly the gists and repositories the snapshot names is copied (git-copy.ts). Each object
//    the snapshot names was on disk before T, and objects are immutable, so the copy has them all. Gist branches are
//    written where the snapshot's heads are (a later PATCH is not half in the backup). Repository refs live only in
//    git: they are taken as git lists them when that repository is copied, a moment after T, and every object they
//    name is copied after them; HEAD is set to the snapshot's default branch. A push acknowledged before the backup
//    began is therefore in it; one made during the backup may be too (the repository's row, its size and push time,
//    then lags behind its refs until its next push).
// 3. Then the archives the snapshot's exported migrations name (filesystem store), and the secret key when asked.
// A gist or repository deleted after T has no data left to copy: the backup lists it (`deleted_during_backup`, when
// the live database no longer has its row) and restore deletes its rows, so the result is T plus that delete. One
// whose row is still there was missing before the backup (what `admin fsck` reports): it is kept as it is, with a note.
//
// Atomic: everything goes into `<to>/.partial-<name>-<pid>/`; the manifest is written last (after a file-system sync)
// and the directory renamed to `<to>/<name>/` only then, so a backup killed at any moment leaves only a `.partial-`
// directory, which restore never takes and the next backup removes. Incremental: git objects and packs (and archives
// unchanged in size and time) are hard-linked from the latest complete backup in `<to>`, so a second backup costs
// only what changed; each backup is still complete on its own, and deleting one never harms another.
// Test hook: HUBLET_TEST_BACKUP_PAUSE=after-snapshot|before-manifest stops it there (testPause), for the tests that
// delete a gist between the snapshot and the copy, and that kill a backup that has everything but its manifest.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { assertSafeKey } from '../blob/store.js';
import type { Config } from '../config.js';
import { syncDir } from '../git/atomic-file.js';
import { GIST_REF, gistRepoDir } from '../gists/git.js';
import { repositoryDir } from '../repos/git-data.js';
import { parseKey } from '../secrets/secret-box.js';
import { keyFilePath, readOrCreateKeyFile } from '../server/secret-key-file.js';
import { VERSION } from '../version.js';
import { databaseKind, dumpName, type SnapshotRows, snapshotDatabase, stillPresent } from './database.js';
import { Copier, copyRepository } from './git-copy.js';
import { BackupRefusal, checkFile, completeManifest, FORMAT_VERSION, type CheckedFile, type Manifest, writeManifest } from './manifest.js';

const PARTIAL = '.partial-';
/** Repositories in hand at once: the copying is synchronous (git-copy.ts says why); this overlaps their `git for-each-ref`. */
const CONCURRENCY = 4;

export interface BackupOptions {
  /** The installation's configuration (data dir, database, archive store, secret key). */
  config: Readonly<Config>;
  /** The directory backups are kept in (created when missing); each backup is a folder in it. */
  to: string;
  includeSecretKey: boolean;
  /** Keep only this many complete backups in `to` (the newest); undefined keeps all. */
  keep?: number;
  /** Progress and notes, one line each (stderr). */
  say(line: string): void;
  env: NodeJS.ProcessEnv;
}

export interface BackupResult {
  dir: string;
  manifest: Manifest;
  removed: string[];
}

/** A backup's folder name: its snapshot time, sortable (`2026-05-12T03-15-00Z`). */
function folderName(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
}

/** The complete backups in a --to directory, oldest first (a folder with a manifest that checks). */
export function completeBackups(to: string): { dir: string; manifest: Manifest }[] {
  let names: string[];
  try {
    names = fs.readdirSync(to);
  } catch {
    return [];
  }
  const out: { dir: string; manifest: Manifest }[] = [];
  for (const name of names.filter((n) => !n.startsWith('.')).sort()) {
    const dir = path.join(to, name);
    const manifest = fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? completeManifest(dir) : undefined;
    if (manifest) out.push({ dir, manifest });
  }
  return out.sort((a, b) => (a.manifest.created_at < b.manifest.created_at ? -1 : a.manifest.created_at > b.manifest.created_at ? 1 : 0));
}

/** Backups that did not finish in `to`: `.partial-<name>-<pid>` folders. */
export function partialBackups(to: string): string[] {
  try {
    return fs
      .readdirSync(to)
      .filter((n) => n.startsWith(PARTIAL))
      .map((n) => path.join(to, n));
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes what killed backups left; refuses while another backup is still writing into the same directory. */
function removeUnfinished(to: string, say: (line: string) => void): string[] {
  const removed: string[] = [];
  for (const dir of partialBackups(to)) {
    const pid = Number(/-(\d+)$/.exec(dir)?.[1]);
    if (pid && pid !== process.pid && alive(pid))
      throw new BackupRefusal('error', `another backup (pid ${pid}) is writing into ${to} (${dir}); wait for it to finish`);
    fs.rmSync(dir, { recursive: true, force: true });
    say(`removed ${dir}, a backup that did not finish`);
    removed.push(dir);
  }
  return removed;
}

/** The secret key to include: the configured one (HUBLET_SECRET_KEY) or the data dir's key file; never made here. */
function secretKeyText(config: Readonly<Config>): string {
  const fromEnv = config.secretKey ? parseKey(config.secretKey) : undefined;
  if (fromEnv) return `${fromEnv.toString('base64')}\n`;
  const file = keyFilePath(config.dataDir);
  if (!fs.existsSync(file))
    throw new BackupRefusal(
      'usage',
      `--include-secret-key: there is no key to include: ${file} does not exist and HUBLET_SECRET_KEY is not set (give the backup the environment the server has)`,
    );
  return `${readOrCreateKeyFile(file).toString('base64')}\n`;
}

/** Writes everything copied so far to disk (`sync -f`: syncfs of the backup's file system) before the manifest vouches for it. */
export async function syncFileSystem(dir: string): Promise<void> {
  await promisify(execFile)('sync', ['-f', dir]).catch(() => promisify(execFile)('sync', []).catch(() => undefined));
}

/** Runs `task` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]);
    }),
  );
}

/** Takes one backup (see the header). */
export async function takeBackup(opts: BackupOptions): Promise<BackupResult> {
  const { config, say } = opts;
  const to = path.resolve(opts.to);
  const key = opts.includeSecretKey ? secretKeyText(config) : undefined;
  try {
    fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new BackupRefusal('usage', `cannot create --to ${to}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const removed = removeUnfinished(to, say);
  const previous = completeBackups(to).at(-1);
  const createdAt = new Date();
  const name = folderName(createdAt);
  const partial = path.join(to, `${PARTIAL}${name}-${process.pid}`);
  fs.mkdirSync(partial, { mode: 0o700 });
  try {
    const kind = databaseKind(config.databaseUrl);
    const dump = dumpName(kind);
    const rows = await snapshotDatabase(config.databaseUrl, path.join(partial, dump));
    if (rows.gists.length + rows.repositories.length && !fs.existsSync(path.join(config.dataDir, 'git')))
      throw new BackupRefusal(
        'usage',
        `the data dir ${config.dataDir} has no git data, but the database names ${rows.gists.length} gists and ${rows.repositories.length} repositories: give --data (HUBLET_DATA) as the servers have it`,
      );
    await testPause(opts, 'after-snapshot', say);

    const git = new Copier(previous?.dir);
    const deleted: Manifest['deleted_during_backup'] = { gists: [], repositories: [], archives: [] };
    await eachLimited(rows.gists, CONCURRENCY, async (g) => {
      const rel = `git/gists/${g.id}.git`;
      const ok = await copyRepository(git, gistRepoDir(config, g.id), path.join(partial, rel), rel, {
        kind: 'gist',
        ref: GIST_REF,
        head: g.head_sha,
      });
      if (!ok) deleted.gists.push(g.id);
    });
    await eachLimited(rows.repositories, CONCURRENCY, async (r) => {
      const rel = `git/repos/${r.id}.git`;
      const ok = await copyRepository(git, repositoryDir(config.dataDir, r.id), path.join(partial, rel), rel, {
        kind: 'repository',
        defaultBranch: r.default_branch,
      });
      if (!ok) deleted.repositories.push(r.id);
    });
    await sortOutMissing(config, rows, deleted, say);

    const archives: CheckedFile[] = [];
    const archiveCopier = new Copier(previous?.dir);
    if (config.archiveStorage === 'filesystem') {
      for (const k of rows.archiveKeys) {
        assertSafeKey(k);
        const rel = `archives/${k}`;
        const dest = path.join(partial, ...rel.split('/'));
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        const src = path.join(config.archiveDir, ...k.split('/'));
        const known = previous?.manifest.archives.find((a) => a.path === rel);
        const linked = known ? archiveCopier.unchanged(src, dest, rel) : false;
        if (linked && known) archives.push(known);
        else if (archiveCopier.file(src, dest, rel, false, true)) archives.push(await checkFile(partial, rel));
        else deleted.archives.push(k);
      }
    } else if (config.archiveStorage === 's3' && rows.archiveKeys.length) {
      say(`note: ${rows.archiveKeys.length} migration archives are in S3 (${config.s3Bucket}) and are not in the backup`);
    }
    const secret = key === undefined ? null : await writeSecretKey(partial, key);
    if (deleted.gists.length + deleted.repositories.length + deleted.archives.length)
      say(
        `note: deleted while the backup ran, left out: ${deleted.gists.length} gists, ${deleted.repositories.length} repositories, ${deleted.archives.length} archives`,
      );

    await testPause(opts, 'before-manifest', say);
    await syncFileSystem(partial);
    const manifest = writeManifest(partial, {
      format: 'hublet-backup',
      format_version: FORMAT_VERSION,
      hublet_version: VERSION,
      created_at: createdAt.toISOString(),
      finished_at: new Date().toISOString(),
      database: { kind, file: await checkFile(partial, dump) },
      schema_migrations: rows.schemaMigrations,
      gists: rows.gists.length - deleted.gists.length,
      repositories: rows.repositories.length - deleted.repositories.length,
      archive_storage: config.archiveStorage,
      archives,
      secret_key: secret,
      git: { files: git.stats.files, bytes: git.stats.bytes },
      linked: {
        files: git.stats.linkedFiles + archiveCopier.stats.linkedFiles,
        bytes: git.stats.linkedBytes + archiveCopier.stats.linkedBytes,
        from: previous ? path.basename(previous.dir) : null,
      },
      deleted_during_backup: deleted,
    });
    syncDir(partial);
    let dir = path.join(to, name);
    for (let i = 2; fs.existsSync(dir); i++) dir = path.join(to, `${name}-${i}`);
    fs.renameSync(partial, dir);
    syncDir(to);
    if (opts.keep !== undefined) removed.push(...prune(to, opts.keep, say));
    return { dir, manifest, removed };
  } catch (err) {
    // A backup that failed is removed at once (one that was killed is removed by the next backup).
    fs.rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Repositories the snapshot names that were not on disk: those the live database no longer has were deleted during the
 * backup (restore deletes their rows too); those it still has were missing before the backup began (what `admin fsck`
 * reports), are kept as they are and named in a note. When none at all could be copied, the data dir is the wrong one.
 */
async function sortOutMissing(
  config: Readonly<Config>,
  rows: SnapshotRows,
  deleted: Manifest['deleted_during_backup'],
  say: (line: string) => void,
): Promise<void> {
  if (!deleted.gists.length && !deleted.repositories.length) return;
  const live = await stillPresent(config.databaseUrl, deleted.gists, deleted.repositories);
  const absent = live.gists.size + live.repositories.size;
  if (absent === rows.gists.length + rows.repositories.length)
    throw new BackupRefusal(
      'usage',
      `none of the ${absent} gists and repositories the database names has its git data in the data dir ${config.dataDir}: give --data (HUBLET_DATA) as the servers have it`,
    );
  for (const id of deleted.gists.filter((g) => live.gists.has(g)))
    say(`note: gist ${id}: its repository is missing from the data dir (admin fsck reports it); backed up without it`);
  for (const id of deleted.repositories.filter((r) => live.repositories.has(r)))
    say(`note: repository ${id}: its git data is missing from the data dir (admin fsck reports it); backed up without it`);
  deleted.gists = deleted.gists.filter((g) => !live.gists.has(g)).sort();
  deleted.repositories = deleted.repositories.filter((r) => !live.repositories.has(r)).sort((a, b) => a - b);
}

/**
 * The tests' hook (HUBLET_TEST_BACKUP_PAUSE=after-snapshot or before-manifest): says so on stderr, then waits until the
 * file HUBLET_TEST_BACKUP_RESUME names exists, or for ever (until the test kills the process) when none is named.
 */
async function testPause(opts: BackupOptions, stage: 'after-snapshot' | 'before-manifest', say: (line: string) => void): Promise<void> {
  if (opts.env.HUBLET_TEST_BACKUP_PAUSE !== stage) return;
  say(`paused ${stage.replace('-', ' ')} (HUBLET_TEST_BACKUP_PAUSE)`);
  const resume = opts.env.HUBLET_TEST_BACKUP_RESUME;
  while (!resume || !fs.existsSync(resume)) await new Promise((r) => setTimeout(r, 50));
}

async function writeSecretKey(dir: string, text: string): Promise<CheckedFile> {
  const file = path.join(dir, 'secret.key');
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  return checkFile(dir, 'secret.key');
}

/** Deletes all but the newest `keep` complete backups (hard links make each independent of the others). */
function prune(to: string, keep: number, say: (line: string) => void): string[] {
  const all = completeBackups(to);
  const gone = all.slice(0, Math.max(0, all.length - keep)).map((b) => b.dir);
  for (const dir of gone) {
    fs.rmSync(dir, { recursive: true, force: true });
    say(`removed ${dir} (--keep ${keep})`);
  }
  return gone;
}
