// A backup's manifest.json: what the backup holds, written last (a backup without one did not finish), checked whole
// by its own SHA-256 before anything is restored from it; and the refusals backup and restore answer with.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const MANIFEST_FILE = 'manifest.json';
const FORMAT = 'hublet-backup';
/** The layout this hublet writes and reads; a backup of a higher version is refused, never half-read. */
export const FORMAT_VERSION = 1;

export type DatabaseKind = 'sqlite' | 'postgresql';

/** A file whose bytes the manifest vouches for (the database dump, archives, the secret key). */
export interface CheckedFile {
  /** Relative to the backup's directory, `/`-separated. */
  path: string;
  size: number;
  sha256: string;
}

/** Files and bytes under one folder of the backup (git data), checked by count and size at restore. */
export interface Totals {
  files: number;
  bytes: number;
}

export interface Manifest {
  format: typeof FORMAT;
  format_version: number;
  hublet_version: string;
  /** When the database snapshot was taken: the backup holds every write acknowledged before it. */
  created_at: string;
  finished_at: string;
  database: { kind: DatabaseKind; file: CheckedFile };
  /** The schema migrations the snapshot's database had applied (a restore by an older hublet is refused). */
  schema_migrations: string[];
  gists: number;
  repositories: number;
  /** `filesystem`: archives are in archives/; `s3`: they stayed in the bucket; `none`: archives are off. */
  archive_storage: 'filesystem' | 's3' | 'none';
  archives: CheckedFile[];
  secret_key: CheckedFile | null;
  /** Files under git/ (gist and repository repositories) and their bytes. */
  git: Totals;
  /** What the backup took from the one before it (hard links) rather than copying. */
  linked: Totals & { from: string | null };
  /**
   * Rows of the snapshot whose data was deleted before it could be copied (a delete acknowledged after the backup
   * began): restore deletes these rows too, so the installation stays whole. Archives that went are only listed.
   */
  deleted_during_backup: { gists: string[]; repositories: number[]; archives: string[] };
  /** SHA-256 of this object's JSON without this field: an edited or cut manifest is refused. */
  checksum: string;
}

/** A refusal with what to print; `usage` (exit 2) for arguments, `error` (exit 1) for what was found. */
export class BackupRefusal extends Error {
  constructor(
    readonly kind: 'usage' | 'error',
    message: string,
  ) {
    super(message);
  }
}

function digest(m: Omit<Manifest, 'checksum'>): string {
  return crypto.createHash('sha256').update(JSON.stringify(m)).digest('hex');
}

/** Writes the manifest with its checksum, synced (the caller renames the finished backup into place afterwards). */
export function writeManifest(dir: string, m: Omit<Manifest, 'checksum'>): Manifest {
  const full: Manifest = { ...m, checksum: digest(m) };
  const file = path.join(dir, MANIFEST_FILE);
  const fd = fs.openSync(file, 'wx', 0o644);
  try {
    fs.writeSync(fd, `${JSON.stringify(full, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return full;
}

/** The manifest of a backup directory, checked; a BackupRefusal saying what is wrong otherwise. */
export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new BackupRefusal(
        'error',
        `${dir} is not a complete backup: it has no ${MANIFEST_FILE} (a backup stopped before it finished has none)`,
      );
    throw new BackupRefusal('error', `${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new BackupRefusal('error', `${file} is damaged (not JSON); refusing to restore from it`);
  }
  if (!parsed || typeof parsed !== 'object' || parsed.format !== FORMAT)
    throw new BackupRefusal('error', `${file} is not a hublet backup's manifest`);
  if (typeof parsed.format_version !== 'number' || parsed.format_version > FORMAT_VERSION) {
    throw new BackupRefusal(
      'error',
      `${dir} was made by a newer hublet (${String(parsed.hublet_version)}, backup format ${String(parsed.format_version)}); this hublet reads format ${FORMAT_VERSION}: restore it with that version or a newer one`,
    );
  }
  const { checksum, ...rest } = parsed;
  if (typeof checksum !== 'string' || digest(rest as Omit<Manifest, 'checksum'>) !== checksum)
    throw new BackupRefusal('error', `${file} does not match its checksum: it was changed or damaged; refusing to restore from it`);
  return parsed as unknown as Manifest;
}

/** A manifest that reads and checks, or undefined (for picking the latest complete backup). */
export function completeManifest(dir: string): Manifest | undefined {
  try {
    return readManifest(dir);
  } catch {
    return undefined;
  }
}

/** SHA-256 and size of a file, read as a stream. */
export async function checkFile(root: string, rel: string): Promise<CheckedFile> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(path.join(root, ...rel.split('/')), { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { path: rel, size, sha256: hash.digest('hex') };
}
