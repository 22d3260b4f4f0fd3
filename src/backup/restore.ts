// `hublet admin restore`: a new installation rebuilt from one complete backup, into an empty data dir and an empty
// database, only after everything in the backup was checked against its manifest.
//
// Order: the manifest (complete, its checksum, a format and schema this hublet knows) and the target (an empty or
// missing data dir; an empty database of the backup's kind) are checked before anything is written. Then the git data,
// archives and key are copied into `<data>/.hublet-restore/`, counted and hashed against the manifest (a damaged backup
// stops here, and what was copied is removed); then the database is loaded (PostgreSQL: pg_restore in one transaction,
// so it is all or nothing); then the staged files are moved into place, a SQLite database file last. The schema is
// brought up to date (an older backup into a newer hublet), and rows whose data was deleted while the backup ran are
// deleted. A restore that is stopped midway leaves a data dir (and database) that the next restore refuses: empty both.
import fs from 'node:fs';
import path from 'node:path';
import { assertSafeKey } from '../blob/store.js';
import type { Config } from '../config.js';
import { connect } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { schemaMigrations } from '../db/schema-migrations/index.js';
import { deleteGistRow } from '../gists/store.js';
import { deleteRepository } from '../repos/store.js';
import { keyFilePath } from '../server/secret-key-file.js';
import { completeBackups, partialBackups, syncFileSystem } from './backup.js';
import { shownDatabase, sqliteFile } from '../db/urls.js';
import { assertEmptyDatabase, databaseKind, dumpName, loadDatabase } from './database.js';
import { BackupRefusal, checkFile, MANIFEST_FILE, type CheckedFile, type Manifest, readManifest, type Totals } from './manifest.js';

const STAGING = '.hublet-restore';

export interface RestoreOptions {
  /** A backup (a folder with manifest.json), or a --to directory (its newest complete backup is taken). */
  from: string;
  /** The target: its data dir, database URL and archive dir. */
  config: Readonly<Config>;
  say(line: string): void;
}

export interface RestoreResult {
  backup: string;
  manifest: Manifest;
  dataDir: string;
  database: string;
}

/** The backup `from` names: itself when it holds a manifest, else the newest complete backup in it. */
function findBackup(from: string): { dir: string; manifest: Manifest } {
  const dir = path.resolve(from);
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (!st) throw new BackupRefusal('usage', `--from ${dir}: no such directory`);
  if (!st.isDirectory()) throw new BackupRefusal('usage', `--from ${dir}: not a directory`);
  // A backup itself (or what is left of one): its own manifest decides; otherwise a folder of backups.
  const looksLikeOne = [MANIFEST_FILE, dumpName('sqlite'), dumpName('postgresql')].some((f) => fs.existsSync(path.join(dir, f)));
  if (looksLikeOne || path.basename(dir).startsWith('.partial-')) return { dir, manifest: readManifest(dir) };
  const newest = completeBackups(dir).at(-1);
  if (newest) return newest;
  const partial = partialBackups(dir);
  throw new BackupRefusal(
    'error',
    `no complete backup in ${dir}${partial.length ? ` (${partial.map((p) => path.basename(p)).join(', ')}: a backup that did not finish, which cannot be restored)` : ''}`,
  );
}

/** The target data dir must be missing or empty: a restore never mixes into an installation. */
function assertEmptyDir(dir: string): void {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (!st) return;
  if (!st.isDirectory()) throw new BackupRefusal('usage', `--data ${dir} is not a directory`);
  const entries = fs.readdirSync(dir);
  if (entries.length)
    throw new BackupRefusal(
      'usage',
      `--data ${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}); restore into a new or empty directory`,
    );
}

/** Copies a folder of the backup, counting files and bytes (synchronously, as git-copy.ts says why). */
function copyCounted(src: string, dest: string, totals: Totals): void {
  fs.mkdirSync(dest, { recursive: true });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, e.name);
    const to = path.join(dest, e.name);
    if (e.isDirectory()) copyCounted(from, to, totals);
    else if (e.isFile()) {
      fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE);
      totals.files++;
      totals.bytes += fs.statSync(to).size;
    }
  }
}

/** Checks a file of the backup against the manifest's size and SHA-256. */
async function checked(backup: string, f: CheckedFile): Promise<void> {
  let actual: CheckedFile;
  try {
    actual = await checkFile(backup, f.path);
  } catch (err) {
    throw new BackupRefusal(
      'error',
      `the backup is damaged: ${f.path} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  if (actual.size !== f.size || actual.sha256 !== f.sha256)
    throw new BackupRefusal('error', `the backup is damaged: ${f.path} is not the file its manifest names (size or SHA-256 differ)`);
}

/**
 * The manifest's checksum shows damage, not intent (anyone can compute one): the paths it names are held to the ones a
 * backup writes, so no manifest can make restore read or write outside the backup, the data dir and the archive dir.
 */
function checkPaths(backup: string, m: Manifest): void {
  const bad = (what: string) =>
    new BackupRefusal('error', `${backup}/${MANIFEST_FILE} names an unexpected ${what}; refusing to restore from it`);
  if (m.database?.file?.path !== dumpName(m.database?.kind)) throw bad('database file');
  if (m.secret_key && m.secret_key.path !== 'secret.key') throw bad('key file');
  for (const a of m.archives) {
    if (!a.path.startsWith('archives/')) throw bad(`archive ${JSON.stringify(a.path)}`);
    try {
      assertSafeKey(a.path.slice('archives/'.length));
    } catch {
      throw bad(`archive ${JSON.stringify(a.path)}`);
    }
  }
}

/** Moves a file or folder into place, copying when it must cross file systems. */
async function move(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.promises.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.promises.cp(from, to, { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
    await fs.promises.rm(from, { recursive: true, force: true });
  }
}

/** Restores the backup `opts.from` names into the empty target (see the header). */
export async function restoreBackup(opts: RestoreOptions): Promise<RestoreResult> {
  const { config, say } = opts;
  const { dir: backup, manifest } = findBackup(opts.from);
  const unknown = manifest.schema_migrations.filter((name) => !(name in schemaMigrations));
  if (unknown.length)
    throw new BackupRefusal(
      'error',
      `${backup} holds a database written by a newer hublet (${manifest.hublet_version}; schema migration ${unknown.at(-1)} is unknown here): restore it with that version or a newer one`,
    );
  checkPaths(backup, manifest);
  const kind = databaseKind(config.databaseUrl);
  if (kind !== manifest.database.kind) {
    throw new BackupRefusal(
      'usage',
      manifest.database.kind === 'postgresql'
        ? `${backup} is a backup of a PostgreSQL database: give --database postgres://… naming an existing, empty database to restore it into`
        : `${backup} is a backup of a SQLite database: restore it into SQLite (leave out --database, or give a SQLite file); moving between SQLite and PostgreSQL is not supported`,
    );
  }
  const dataDir = config.dataDir;
  assertEmptyDir(dataDir);
  await assertEmptyDatabase(config.databaseUrl);
  const archiveTargets = manifest.archives.map((a) => path.join(config.archiveDir, ...a.path.split('/').slice(1)));
  const taken = archiveTargets.find((t) => fs.existsSync(t));
  if (taken)
    throw new BackupRefusal('usage', `the archive ${taken} exists already; restore with an empty archive directory (HUBLET_ARCHIVE_DIR)`);

  const staging = path.join(dataDir, STAGING);
  const createdDataDir = !fs.existsSync(dataDir);
  fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
  try {
    // The files, checked as they are staged.
    const git: Totals = { files: 0, bytes: 0 };
    if (fs.existsSync(path.join(backup, 'git'))) copyCounted(path.join(backup, 'git'), path.join(staging, 'git'), git);
    if (git.files !== manifest.git.files || git.bytes !== manifest.git.bytes)
      throw new BackupRefusal(
        'error',
        `the backup is damaged: its git data has ${git.files} files (${git.bytes} bytes), its manifest says ${manifest.git.files} (${manifest.git.bytes} bytes)`,
      );
    for (const a of manifest.archives) {
      await checked(backup, a);
      const to = path.join(staging, ...a.path.split('/'));
      await fs.promises.mkdir(path.dirname(to), { recursive: true });
      await fs.promises.copyFile(path.join(backup, ...a.path.split('/')), to, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE);
    }
    if (manifest.secret_key) {
      await checked(backup, manifest.secret_key);
      await fs.promises.copyFile(path.join(backup, 'secret.key'), path.join(staging, 'secret.key'), fs.constants.COPYFILE_EXCL);
      await fs.promises.chmod(path.join(staging, 'secret.key'), 0o600);
    }
    await checked(backup, manifest.database.file);

    // The database, then the files into place (a SQLite file last: a data dir with a database is a whole one).
    const dump = path.join(backup, manifest.database.file.path);
    const sqliteTemp = kind === 'sqlite' ? path.join(staging, 'hublet.sqlite') : undefined;
    await loadDatabase(kind, dump, sqliteTemp ?? config.databaseUrl);
    if (fs.existsSync(path.join(staging, 'git'))) await move(path.join(staging, 'git'), path.join(dataDir, 'git'));
    for (const [i, a] of manifest.archives.entries()) await move(path.join(staging, ...a.path.split('/')), archiveTargets[i]);
    if (manifest.secret_key) await move(path.join(staging, 'secret.key'), keyFilePath(dataDir));
    await syncFileSystem(dataDir);
    if (sqliteTemp) await move(sqliteTemp, sqliteFile(config.databaseUrl));
    await fs.promises.rm(staging, { recursive: true, force: true });
  } catch (err) {
    // The data dir was empty: nothing of this restore stays in it. A loaded PostgreSQL database stays (whole).
    for (const t of archiveTargets) fs.rmSync(t, { force: true });
    if (createdDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    else for (const name of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
    throw err;
  }

  const db = connect(config.databaseUrl);
  try {
    await migrateToLatest(db);
    const gone = manifest.deleted_during_backup;
    for (const id of gone.gists) await deleteGistRow(db, id);
    for (const id of gone.repositories) await deleteRepository(db, id);
    if (gone.gists.length + gone.repositories.length)
      say(`deleted ${gone.gists.length} gists and ${gone.repositories.length} repositories that were deleted while the backup ran`);
  } finally {
    await db.destroy();
  }
  if (!manifest.secret_key)
    say(
      `note: the backup holds no secret key: start the restored server with the key the old one used (HUBLET_SECRET_KEY, or its secret.key copied to ${keyFilePath(dataDir)} with mode 0600), or hook secrets cannot be opened`,
    );
  if (manifest.archive_storage === 's3')
    say('note: migration archives were in S3 and are not in the backup; point the restored server at the same bucket');
  return { backup, manifest, dataDir, database: shownDatabase(config.databaseUrl) };
}
