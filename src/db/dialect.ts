// Every place SQLite and PostgreSQL differ at query time: row locks, claiming rows others hold, constraint-violation
// errors, the commit stamp, and SQLite's file upkeep. Call sites say what they want; this file says how each does it.
import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from './schema.js';
import { COUNTED_STAMP_SQL } from './change-counters.js';
import { DATA_VERSION_SQL } from './sqlite-dialect.js';

/**
 * Whether `db` (a database or a transaction) talks to PostgreSQL. For code whose whole statement differs (schema
 * migrations' column types, the bench's seeding); queries in src/ use the intent-named functions below instead.
 */
export function isPostgresDb(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

// Row locks. On SQLite each is a plain read: a transaction there (BEGIN IMMEDIATE, one writer, sqlite-dialect.ts)
// already runs alone, and SQLite has no FOR UPDATE syntax at all.

/** Tables whose rows guard an invariant that spans other rows (an organization's owners and hooks, a repository's locks). */
type LockableTable = 'users' | 'repositories';

/**
 * Locks rows by id until the transaction `trx` ends, and returns the ids that still exist. The first thing a
 * transaction does before it counts or checks rows that hang off these (count-then-write), so two of them cannot both
 * see the state before the other's write. On PostgreSQL: `SELECT … FOR NO KEY UPDATE`, in id order (no deadlock
 * between callers that lock several), which a plain row update or delete also waits for but inserts that merely
 * reference the row do not. Lock order, wherever several kinds are taken: a member's user row before an organization's row.
 */
export async function lockRows(trx: Db, table: LockableTable, ids: readonly number[]): Promise<Set<number>> {
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  if (wanted.length === 0) return new Set();
  // Both tables have an integer `id`; the union is narrowed to one for Kysely's types.
  let q = trx
    .selectFrom(table as 'users')
    .select('id')
    .where('id', 'in', wanted)
    .orderBy('id');
  if (isPostgresDb(trx)) q = q.forNoKeyUpdate();
  return new Set((await q.execute()).map((r) => r.id));
}

/**
 * The rows `q` selects, locked for writing until the transaction `trx` ends: another transaction's write to them, or
 * its own lockForWriting of them, waits (PostgreSQL `FOR UPDATE`).
 */
export function lockForWriting<DB, TB extends keyof DB, O>(
  trx: Kysely<any>,
  q: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgresDb(trx) ? q.forUpdate() : q;
}

/**
 * The rows `q` selects kept from being updated or deleted until the transaction `trx` ends, while other readers, and
 * other transactions keeping them, go on (PostgreSQL `FOR SHARE`).
 */
export function lockAgainstChanges<DB, TB extends keyof DB, O>(
  trx: Kysely<any>,
  q: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgresDb(trx) ? q.forShare() : q;
}

/**
 * The rows `q` selects, locked for writing, passing over rows another transaction holds instead of waiting for them:
 * concurrent claimers (job workers) each take different rows (PostgreSQL `FOR UPDATE SKIP LOCKED`). On SQLite a
 * statement runs atomically under the one write lock, so no two claimers ever see the same row free.
 */
export function claimSkippingLocked<DB, TB extends keyof DB, O>(
  db: Kysely<any>,
  q: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgresDb(db) ? q.forUpdate().skipLocked() : q;
}

// Constraint violations, told apart by PostgreSQL's SQLSTATE or by the message of sqlite3's SQLITE_CONSTRAINT error.

interface DriverError {
  code?: unknown;
  message?: unknown;
}

function violates(err: unknown, sqlstate: string, sqlite: RegExp): boolean {
  const e = err as DriverError | null | undefined;
  return e?.code === sqlstate || (typeof e?.message === 'string' && sqlite.test(e.message));
}

/** Whether a write failed on a unique index or primary key (PostgreSQL 23505, SQLite's UNIQUE/PRIMARY KEY constraint). */
export function isUniqueViolation(err: unknown): boolean {
  return violates(err, '23505', /UNIQUE constraint failed|SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)/);
}

/**
 * Whether a write failed because a row it references is gone (PostgreSQL 23503, SQLite's FOREIGN KEY constraint): the
 * parent was deleted between the request's read and its write, which the caller sees as that parent not existing.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  return violates(err, '23503', /FOREIGN KEY constraint failed|SQLITE_CONSTRAINT_FOREIGNKEY/);
}

/**
 * A one-value query that changes whenever any connection, of any process, commits a change (change-stamp.ts).
 * SQLite: `PRAGMA data_version`, which the dialect always asks of one fixed reader (sqlite-dialect.ts).
 * PostgreSQL: the sum of the per-table change counters (change-counters.ts), bumped inside each writing transaction,
 * so it moves when the change becomes visible, never before: a stamp never runs ahead of what a read taken after it
 * sees. SQLite's is conservative (any commit changes it); PostgreSQL's ignores the tables no kept read depends on.
 */
export function commitStampQuery(db: Kysely<any>): RawBuilder<Record<string, unknown>> {
  return isPostgresDb(db)
    ? sql<Record<string, unknown>>`${sql.raw(COUNTED_STAMP_SQL)}`
    : sql<Record<string, unknown>>`${sql.raw(DATA_VERSION_SQL)}`;
}

// Upkeep after secrets were deleted, SQLite's files only: PostgreSQL keeps no such copies a dump could show.

/**
 * After secrets were deleted or sealed anew: on SQLite, copies the WAL into the database file (where secure_delete has
 * zeroed the deleted cells) and truncates it, so the old page images holding them are gone from both files. Outside
 * any transaction; waits for readers at most the busy timeout and gives up quietly if they hold on.
 */
export async function scrubDeletedCopies(db: Kysely<any>): Promise<void> {
  if (isPostgresDb(db)) return;
  await sql`pragma wal_checkpoint(truncate)`.execute(db);
}

/** On SQLite, rebuilds the database file (VACUUM) so no free page keeps what was deleted before secure_delete was on. */
export async function scrubFreePages(db: Kysely<any>): Promise<void> {
  if (isPostgresDb(db)) return;
  await sql`vacuum`.execute(db);
}
