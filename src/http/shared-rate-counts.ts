// The rate-limit counts the server processes on one PostgreSQL database share: each adds what it counted to
// `rate_limit_counts` in one statement per flush and reads back every key's shared total and window end.
import { sql } from 'kysely';
import type { Db } from '../db/schema.js';

/** What one process counted for a key since its last flush, in its window ending at `resetAt` (epoch seconds). */
export interface CountIncrement {
  key: string;
  resetAt: number;
  add: number;
}

/** A key's shared window: its end (epoch seconds) and the requests all processes counted in it. */
export interface SharedWindow {
  resetAt: number;
  used: number;
}

/**
 * Adds the increments to the shared counts and returns each key's shared window. A window that ended (at or before
 * `now`) starts again with the increment and its end; a current one adds the increment and keeps its end, so every
 * process ends up with the same window. Keys are written in order, so concurrent flushes never deadlock.
 */
export async function addSharedCounts(db: Db, increments: readonly CountIncrement[], now: number): Promise<Map<string, SharedWindow>> {
  const sorted = [...increments].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const { rows } = await sql<{ key: string; reset_at: string | number; used: number }>`
    insert into rate_limit_counts as c (key, reset_at, used)
    select k, r, u from unnest(${sorted.map((i) => i.key)}::text[], ${sorted.map((i) => i.resetAt)}::bigint[], ${sorted.map((i) => i.add)}::int[]) with ordinality as t(k, r, u, n)
    order by n
    on conflict (key) do update set
      used = case when c.reset_at <= ${now} then excluded.used else c.used + excluded.used end,
      reset_at = case when c.reset_at <= ${now} then excluded.reset_at else c.reset_at end
    returning key, reset_at, used`.execute(db);
  return new Map(rows.map((r) => [r.key, { resetAt: Number(r.reset_at), used: Number(r.used) }]));
}

/** Deletes the windows that ended before `before` (epoch seconds): nobody counts in them any more. */
export async function pruneSharedCounts(db: Db, before: number): Promise<void> {
  await sql`delete from rate_limit_counts where reset_at < ${before}`.execute(db);
}

/** A key's shared window as the database has it now, when it has not ended (GET /rate_limit asks, on any process). */
export async function readSharedCount(db: Db, key: string, now: number): Promise<SharedWindow | undefined> {
  const { rows } = await sql<{ reset_at: string | number; used: number }>`
    select reset_at, used from rate_limit_counts where key = ${key} and reset_at > ${now}`.execute(db);
  return rows[0] && { resetAt: Number(rows[0].reset_at), used: Number(rows[0].used) };
}
