// The database side of a backup, its two engines side by side: a consistent snapshot of a live database (SQLite:
// `VACUUM INTO` on a connection of its own, one read transaction while the server keeps writing; PostgreSQL: `pg_dump`
// of a snapshot exported by a REPEATABLE READ transaction), the rows the rest of the backup follows read from that
// same snapshot, and loading a snapshot into an empty database (a file copy; `pg_restore` in one transaction).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { loadPg } from '../db/pg-lazy.js';
import * as sqlite3 from '../db/sqlite3-module.js';
import { isPostgresUrl, shownDatabase, sqliteFile } from '../db/urls.js';
import { BackupRefusal, type DatabaseKind } from './manifest.js';

/** What the snapshot names, for the copy of git data and archives that follows it. */
export interface SnapshotRows {
  gists: { id: string; head_sha: string }[];
  repositories: { id: number; default_branch: string }[];
  /** Archive keys of exported migrations whose archive is not deleted. */
  archiveKeys: string[];
  schemaMigrations: string[];
}

export function databaseKind(url: string): DatabaseKind {
  return isPostgresUrl(url) ? 'postgresql' : 'sqlite';
}

/** The dump's file name in a backup. */
export function dumpName(kind: DatabaseKind): string {
  return kind === 'sqlite' ? 'database.sqlite' : 'database.pgdump';
}

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/** The same four plain statements on both databases. */
async function listRows(query: Query): Promise<SnapshotRows> {
  const migrations = await query('select name from kysely_migration order by name');
  const gists = await query('select id, head_sha from gists order by id');
  const repositories = await query('select id, default_branch from repositories order by id');
  const archives = await query(
    "select archive_key from migrations where archive_key is not null and archive_deleted_at is null and state = 'exported' order by id",
  );
  return {
    schemaMigrations: migrations.map((r) => String(r.name)),
    gists: gists.map((r) => ({ id: String(r.id), head_sha: String(r.head_sha) })),
    repositories: repositories.map((r) => ({ id: Number(r.id), default_branch: String(r.default_branch) })),
    archiveKeys: archives.map((r) => String(r.archive_key)),
  };
}

/**
 * Takes the snapshot into `dest` and reads what it names. Refuses (usage) a database that holds no hublet schema; a
 * database that cannot be reached is a refusal naming it.
 */
export async function snapshotDatabase(url: string, dest: string): Promise<SnapshotRows> {
  return databaseKind(url) === 'sqlite' ? snapshotSqlite(sqliteFile(url), dest) : snapshotPostgres(url, dest);
}

function openSqlite(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, mode, (err) => (err ? reject(err) : resolve(db)));
  });
}

function sqliteCall<T>(db: sqlite3.Database, method: 'run' | 'all' | 'exec', sql: string, params: unknown[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, rows?: unknown) => (err ? reject(err) : resolve(rows as T));
    if (method === 'exec') db.exec(sql, done);
    else if (method === 'all') db.all(sql, params, done);
    else db.run(sql, params, done);
  });
}

function closeSqlite(db: sqlite3.Database): Promise<void> {
  return new Promise((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
}

/**
 * `VACUUM INTO` reads the whole database in one read transaction (WAL lets the server's writer go on meanwhile) and
 * writes a compact copy that is a consistent point in time; the copy is then switched out of WAL, so it is one file.
 */
async function snapshotSqlite(file: string, dest: string): Promise<SnapshotRows> {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size === 0) throw new BackupRefusal('usage', `no hublet database at ${file}`);
  let live: sqlite3.Database;
  try {
    live = await openSqlite(file, sqlite3.sqlite3().OPEN_READWRITE);
  } catch (err) {
    throw new BackupRefusal('error', `cannot open database ${file}: ${(err as Error).message.replace(/^SQLITE_\w+: /, '')}`);
  }
  try {
    live.configure('busyTimeout', 60_000);
    await sqliteCall(live, 'run', 'VACUUM INTO ?', [dest]);
  } catch (err) {
    throw new BackupRefusal('error', `cannot copy database ${file}: ${(err as Error).message.replace(/^SQLITE_\w+: /, '')}`);
  } finally {
    await closeSqlite(live);
  }
  const snap = await openSqlite(dest, sqlite3.sqlite3().OPEN_READWRITE);
  try {
    await sqliteCall(snap, 'exec', 'PRAGMA journal_mode = DELETE');
    return await listRows((sql) => sqliteCall(snap, 'all', sql)).catch((err: Error) => {
      throw /no such table/.test(err.message) ? new BackupRefusal('usage', `no hublet database at ${file} (it has no hublet tables)`) : err;
    });
  } finally {
    await closeSqlite(snap);
  }
}

/** A PostgreSQL URL without its password, and the environment that passes the password instead (never on a command line). */
function toolConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env };
}

/** Runs pg_dump or pg_restore; rejects with its own words (or, when it is missing, how to install it). */
function runTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  const { dbname, env } = toolConnection(url);
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${dbname}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new BackupRefusal(
              'error',
              `${tool} is not on PATH: install PostgreSQL's client programs of the server's major version or newer (Debian: postgresql-client-15)`,
            )
          : err,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const said = stderr.trim().split('\n').slice(-5).join('\n  ');
      reject(new BackupRefusal('error', `${tool} failed (exit ${code}): ${said || 'no message'}`));
    });
  });
}

async function pgClient(url: string): Promise<pg.Client> {
  const client = new (await loadPg()).Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw new BackupRefusal('error', `cannot connect to database ${shownDatabase(url)}: ${(err as Error).message}`);
  }
  return client;
}

/**
 * A REPEATABLE READ transaction exports its snapshot; the rows are read in that transaction and pg_dump dumps that
 * same snapshot (`--snapshot`), so both see exactly the commits before it, while the servers keep writing.
 */
async function snapshotPostgres(url: string, dest: string): Promise<SnapshotRows> {
  const client = await pgClient(url);
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const listed = await listRows(async (sql) => (await client.query(sql)).rows as Record<string, unknown>[]).catch((err: Error) => {
      throw /does not exist/.test(err.message)
        ? new BackupRefusal('usage', `no hublet database in ${shownDatabase(url)} (it has no hublet tables)`)
        : err;
    });
    await runTool('pg_dump', ['--format=custom', `--file=${dest}`, `--snapshot=${rows[0].snapshot}`], url);
    await client.query('commit');
    return listed;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Which of these gists and repositories the live database still has (now, after the snapshot): a repository missing
 * from the data dir whose row is gone was deleted during the backup; one whose row is still there was missing before.
 */
export async function stillPresent(
  url: string,
  gists: string[],
  repositories: number[],
): Promise<{ gists: Set<string>; repositories: Set<number> }> {
  const found = { gists: new Set<string>(), repositories: new Set<number>() };
  if (!gists.length && !repositories.length) return found;
  const chunks = <T>(items: T[]) => Array.from({ length: Math.ceil(items.length / 500) }, (_, i) => items.slice(i * 500, i * 500 + 500));
  const ask = async (query: (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>, mark: (i: number) => string) => {
    for (const part of chunks(gists))
      for (const r of await query(`select id from gists where id in (${part.map((_, i) => mark(i)).join(', ')})`, part))
        found.gists.add(String(r.id));
    for (const part of chunks(repositories))
      for (const r of await query(`select id from repositories where id in (${part.map((_, i) => mark(i)).join(', ')})`, part))
        found.repositories.add(Number(r.id));
  };
  if (databaseKind(url) === 'sqlite') {
    const db = await openSqlite(sqliteFile(url), sqlite3.sqlite3().OPEN_READWRITE);
    try {
      db.configure('busyTimeout', 60_000);
      await ask(
        (sql, params) => sqliteCall(db, 'all', sql, params),
        () => '?',
      );
    } finally {
      await closeSqlite(db);
    }
  } else {
    const client = await pgClient(url);
    try {
      await ask(
        async (sql, params) => (await client.query(sql, params)).rows as Record<string, unknown>[],
        (i) => `$${i + 1}`,
      );
    } finally {
      await client.end().catch(() => {});
    }
  }
  return found;
}

/**
 * Refuses a target database that is not empty (or, for SQLite, a file that holds anything): a restore never mixes
 * into an installation. PostgreSQL's must exist already (`createdb`), as the issue asks.
 */
export async function assertEmptyDatabase(url: string): Promise<void> {
  if (databaseKind(url) === 'sqlite') {
    const file = sqliteFile(url);
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (st && (!st.isFile() || st.size > 0))
      throw new BackupRefusal('usage', `the database file ${file} exists and is not empty; restore into a new one`);
    return;
  }
  const client = await pgClient(url);
  try {
    const { rows } = await client.query<{ n: string | number }>(
      `select count(*) as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
       where s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg\\_toast%' and s.nspname not like 'pg\\_temp%'`,
    );
    if (Number(rows[0].n) > 0)
      throw new BackupRefusal(
        'usage',
        `the database ${shownDatabase(url)} is not empty (it has ${rows[0].n} tables, sequences or indexes); restore into a new, empty database (createdb NAME)`,
      );
  } finally {
    await client.end().catch(() => {});
  }
}

/** Loads a snapshot into the empty target: the SQLite file copied into place (synced), or pg_restore in one transaction. */
export async function loadDatabase(kind: DatabaseKind, dump: string, url: string): Promise<void> {
  if (kind === 'sqlite') {
    const file = sqliteFile(url);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.rm(file, { force: true }); // an empty file only: assertEmptyDatabase refused any other
    await fs.promises.copyFile(dump, file, fs.constants.COPYFILE_EXCL);
    const fd = await fs.promises.open(file, 'r+');
    try {
      await fd.sync();
    } finally {
      await fd.close();
    }
    return;
  }
  await runTool('pg_restore', ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', dump], url);
}
