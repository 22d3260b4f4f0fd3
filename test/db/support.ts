// Scratch databases for the db tests: a SQLite file in a temp dir, or (HUBLET_TEST_DB=postgres) a fresh PostgreSQL
// database; and, on PostgreSQL, whether a statement is waiting for a row lock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { connect, type Db } from '../../src/db/connect.js';
import { Sqlite3Dialect, type SqliteDialectOptions } from '../../src/db/sqlite-dialect.js';
import { createTestDatabase, onPostgres } from '../helpers/database.js';

export { onPostgres };

export interface Scratch {
  /** The database's URL (a file name on SQLite). */
  url: string;
  dir: string;
  /** Another connect() on the same database; close() closes it. */
  open(): Db;
  /** A Kysely over our SQLite dialect with options set by hand (SQLite scratch only); close() closes it. */
  openSqlite(options?: Omit<SqliteDialectOptions, 'filename'>): Kysely<any>;
  close(): Promise<void>;
}

/** A fresh database of the kind this run tests (`sqlite: true`: a SQLite file whatever the run). */
export async function scratchDatabase(opts: { sqlite?: boolean } = {}): Promise<Scratch> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-db-'));
  const database = opts.sqlite ? { url: path.join(dir, 'scratch.sqlite'), drop: async () => {} } : await createTestDatabase(dir);
  const opened: Kysely<any>[] = [];
  const keep = <T extends Kysely<any>>(db: T): T => {
    opened.push(db);
    return db;
  };
  return {
    url: database.url,
    dir,
    open: () => keep(connect(database.url)),
    openSqlite: (options = {}) => keep(new Kysely<any>({ dialect: new Sqlite3Dialect({ ...options, filename: database.url }) })),
    async close() {
      for (const db of opened.reverse()) await db.destroy().catch(() => {});
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs DDL statements (dialect-neutral ones: integer keys given by hand) one by one. */
export async function createTables(db: Kysely<any>, ...statements: string[]): Promise<void> {
  for (const s of statements) await sql.raw(s).execute(db);
}

/**
 * PostgreSQL: resolves 'waiting' as soon as some statement in this database waits for a lock, or 'settled' when
 * `work` settles first (its rejection is re-thrown). Polls pg_stat_activity through `watcher` (another connection).
 */
export async function waitingOrSettled(watcher: Kysely<any>, work: Promise<unknown>): Promise<'waiting' | 'settled'> {
  let settled = false;
  let failure: unknown;
  work.then(
    () => (settled = true),
    (err: unknown) => {
      settled = true;
      failure = err ?? new Error('rejected');
    },
  );
  for (;;) {
    if (settled) {
      if (failure) throw failure;
      return 'settled';
    }
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(watcher);
    if (rows[0].n > 0) return 'waiting';
    await new Promise((r) => setTimeout(r, 10));
  }
}
