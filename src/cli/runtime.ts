// Opens a data dir for the CLI or the server: config, database connection, schema migrations. `serve` and `init` create
// the data dir and its database (checking first that the dir can be written); a client command opens only a data dir
// that already holds a hublet database, so a mistyped --data is refused instead of starting an empty installation.
// Local mode's links use the URL the last `serve` recorded in the data dir (server-record.ts) unless --base-url or
// HUBLET_BASE_URL says otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { ensureAdmin } from '../accounts/site-admin.js';
import { loadConfig, type Config, type ConfigInput } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { isPostgresUrl, shownDatabase, sqliteFile } from '../db/urls.js';
import { CliExit, EXIT } from './output.js';
import { readServerRecord } from './server-record.js';

export interface Runtime {
  config: Readonly<Config>;
  db: Db;
  /** The database held no hublet schema before this open made it (only with `create`). */
  created: boolean;
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * `serve` and `init`: create the data dir and the database when missing (the site admin is theirs to make, once a
   * server listens or init has the database). Otherwise: refuse a data dir without a hublet database, and make sure
   * the site admin local mode acts as by default exists.
   */
  create?: boolean;
  /** What named the data dir and the database (`--data`, `HUBLET_DATA`, …, `default`), for the refusal. */
  named?: { dataDir?: string; database?: string };
}

/** A client command pointed at a data dir (or database) that holds no hublet database. */
export class NoDatabaseError extends CliExit {}

/**
 * Local mode's configuration: flag > environment > what `serve` recorded in the data dir (its public URL) > default;
 * `recordedAt` is set when the links' base URL is the recorded one.
 */
export function localConfig(flags: ConfigInput, env: NodeJS.ProcessEnv): { config: Readonly<Config>; recordedAt?: string } {
  const config = loadConfig(flags, env);
  const recorded = flags.baseUrl || env.HUBLET_BASE_URL ? undefined : readServerRecord(config.dataDir);
  return recorded ? { config: loadConfig(flags, env, { baseUrl: recorded.base_url }), recordedAt: recorded.started_at } : { config };
}

export async function openRuntime(flags: ConfigInput, env: NodeJS.ProcessEnv, opts: OpenOptions = {}): Promise<Runtime> {
  const config = opts.create ? loadConfig(flags, env) : localConfig(flags, env).config;
  if (opts.create) prepareDataDir(config);
  else if (!isPostgresUrl(config.databaseUrl) && !nonEmptyFile(sqliteFile(config.databaseUrl))) throw noDatabase(config, opts.named);
  const db = connect(config.databaseUrl);
  let created = false;
  try {
    const held = await holdsHubletSchema(db);
    if (!opts.create && !held) throw noDatabase(config, opts.named);
    created = !held;
    await migrateToLatest(db);
    if (!opts.create) await ensureAdmin(db, new Date());
  } catch (err) {
    await db.destroy();
    throw cannotOpen(err, config);
  }
  return { config, db, created, close: () => db.destroy() };
}

function nonEmptyFile(file: string): boolean {
  try {
    return fs.statSync(file).size > 0;
  } catch {
    return false;
  }
}

/** Whether the database has hublet's schema-migration table with something in it. */
async function holdsHubletSchema(db: Db): Promise<boolean> {
  try {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from kysely_migration`.execute(db);
    return Number(rows[0]?.n ?? 0) > 0;
  } catch (err) {
    // The connection itself failing is not "no database": that is reported as it is.
    if (connectionProblem(err)) throw err;
    return false;
  }
}

function noDatabase(config: Readonly<Config>, named: OpenOptions['named']): NoDatabaseError {
  const from = (name: string | undefined) => (name === undefined ? '' : name === 'default' ? ' (the default)' : ` (from ${name})`);
  const where =
    named?.database && named.database !== 'default'
      ? `database ${shownDatabase(config.databaseUrl)}${from(named.database)}`
      : `data dir ${config.dataDir}${from(named?.dataDir)}`;
  const databaseNamed = config.databaseUrl !== path.join(config.dataDir, 'hublet.sqlite');
  const args = `--data ${config.dataDir}${databaseNamed ? ` --database ${shownDatabase(config.databaseUrl)}` : ''}`;
  const byDefault = named?.dataDir === 'default' && (named.database ?? 'default') === 'default';
  const lines = [
    `hublet: no hublet database in ${where}.`,
    `  ${byDefault ? 'Create' : 'A typo? Otherwise create'} one with \`hublet init ${args}\`, or start a server on it with \`hublet serve ${args}\`.`,
  ];
  if (byDefault) lines.push('  Or use a server: `hublet auth login --server URL` (or pass --server URL, or set HUBLET_SERVER).');
  return new NoDatabaseError(EXIT.usage, lines.join('\n'));
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'a file of that name is in the way',
  ENOSPC: 'no space left on the device',
};

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  return (code && REASONS[code]) ?? (code || (err instanceof Error ? err.message : String(err)));
}

/** Creates the data dir (and a SQLite database's directory) and proves each can be written, or says which cannot, in one line. */
function prepareDataDir(config: Readonly<Config>): void {
  const dirs = [['data dir', config.dataDir]];
  if (!isPostgresUrl(config.databaseUrl)) {
    const dbDir = path.dirname(sqliteFile(config.databaseUrl));
    if (dbDir !== config.dataDir) dirs.push(['database directory', dbDir]);
  }
  for (const [what, dir] of dirs) {
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw new CliExit(EXIT.error, `hublet: cannot create ${what} ${dir}: ${reason(err)}`);
    }
    const probe = path.join(dir, `.hublet-write-check-${process.pid}`);
    try {
      fs.writeFileSync(probe, '');
      fs.unlinkSync(probe);
    } catch (err) {
      throw new CliExit(EXIT.error, `hublet: ${what} ${dir} is not writable: ${reason(err)}`);
    }
  }
}

const CONNECTION_CODES =
  /^(SQLITE_(CANTOPEN|NOTADB|READONLY|PERM|IOERR|CORRUPT|AUTH)|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|3D000|28P01|28000)/;

function connectionProblem(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && CONNECTION_CODES.test(code);
}

/** A database that cannot be opened, in one line naming it (no stack); any other error as it is. */
function cannotOpen(err: unknown, config: Readonly<Config>): unknown {
  if (!connectionProblem(err)) return err;
  const message = err instanceof Error ? err.message.replace(/^SQLITE_\w+: /, '') : String(err);
  return new CliExit(EXIT.error, `hublet: cannot open database ${shownDatabase(config.databaseUrl)}: ${message}`);
}
