// The few places SQLite and PostgreSQL differ at query time (SKIP LOCKED, row locks, unique and foreign-key violations) are decided here.
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Db } from './connect.js';

export function isPostgresDb(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Tables whose rows guard an invariant that spans other rows (an organization's owners and hooks, a repository's locks). */
export type LockableTable = 'users' | 'repositories';

/**
 * Locks rows by id until the transaction `trx` ends, and returns the ids that still exist. The first thing a
 * transaction does before it counts or checks rows that hang off these (count-then-write), so two of them cannot both
 * see the state before the other's write. On PostgreSQL: `SELECT … FOR NO KEY UPDATE`, in id order (no deadlock
 * between callers that lock several), which a plain row update or delete also waits for but inserts that merely
 * reference the row do not. On SQLite a plain read: a transaction there (BEGIN IMMEDIATE, one writer) already runs
 * alone. Lock order, wherever several kinds are taken: a member's user row before an organization's row.
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

/** Whether a write failed on a unique index or primary key (PostgreSQL 23505, SQLite's UNIQUE/PRIMARY KEY constraint). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '23505' || (typeof e?.message === 'string' && /UNIQUE constraint failed|SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)/.test(e.message));
}

/**
 * Whether a write failed because a row it references is gone (PostgreSQL 23503, SQLite's FOREIGN KEY constraint): the
 * parent was deleted between the request's read and its write, which the caller sees as that parent not existing.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '23503' || (typeof e?.message === 'string' && /FOREIGN KEY constraint failed|SQLITE_CONSTRAINT_FOREIGNKEY/.test(e.message));
}
