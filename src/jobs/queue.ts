// A durable job queue in the database: enqueue inside the caller's transaction, claim with a lease, finish or retry.
import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import type { JobRow } from '../db/schema.js';
import { isPostgresDb } from '../db/dialect-helpers.js';

export interface EnqueueInput {
  queue: string;
  payload: unknown;
  runAt?: Date;
  maxAttempts?: number;
}

/** Adds a job. Pass the transaction that makes the change causing it, so both land or neither does. */
export async function enqueue(db: Db, input: EnqueueInput, now: Date): Promise<number> {
  const row = await db
    .insertInto('jobs')
    .values({
      queue: input.queue,
      payload: JSON.stringify(input.payload),
      run_at: (input.runAt ?? now).toISOString(),
      max_attempts: input.maxAttempts ?? 5,
      locked_until: null,
      locked_by: null,
      last_error: null,
      created_at: now.toISOString(),
      finished_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface ClaimInput {
  queues: string[];
  workerId: string;
  leaseMs: number;
  limit: number;
  now: Date;
}

/**
 * Claims up to `limit` due jobs: pending, due, and not leased by a live worker (an expired lease means its worker died).
 * PostgreSQL uses FOR UPDATE SKIP LOCKED; SQLite's single writer makes the select-then-update atomic in one transaction.
 */
export async function claim(db: Db, input: ClaimInput): Promise<JobRow[]> {
  if (input.queues.length === 0) return [];
  const nowIso = input.now.toISOString();
  const lockedUntil = new Date(input.now.getTime() + input.leaseMs).toISOString();
  return db.transaction().execute(async (trx) => {
    let ids = trx
      .selectFrom('jobs')
      .select('id')
      .where('state', '=', 'pending')
      .where('queue', 'in', input.queues)
      .where('run_at', '<=', nowIso)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso)]))
      .orderBy('run_at')
      .orderBy('id')
      .limit(input.limit);
    if (isPostgresDb(trx)) ids = ids.forUpdate().skipLocked();
    const due = (await ids.execute()).map((r) => r.id);
    if (due.length === 0) return [];
    return trx
      .updateTable('jobs')
      .set({ locked_until: lockedUntil, locked_by: input.workerId, attempts: sql<number>`attempts + 1` })
      .where('id', 'in', due)
      .returningAll()
      .execute();
  });
}

export async function complete(db: Db, id: number, now: Date): Promise<void> {
  await db.updateTable('jobs').set({ state: 'done', finished_at: now.toISOString(), locked_until: null, locked_by: null }).where('id', '=', id).execute();
}

/** Records a failure: the job runs again at `retryAt`, or is marked failed once it has used all its attempts. */
export async function fail(db: Db, job: JobRow, error: string, retryAt: Date, now: Date): Promise<'retrying' | 'failed'> {
  const exhausted = job.attempts >= job.max_attempts;
  await db
    .updateTable('jobs')
    .set({
      state: exhausted ? 'failed' : 'pending',
      last_error: error.slice(0, 2000),
      run_at: exhausted ? job.run_at : retryAt.toISOString(),
      locked_until: null,
      locked_by: null,
      finished_at: exhausted ? now.toISOString() : null,
    })
    .where('id', '=', job.id)
    .execute();
  return exhausted ? 'failed' : 'retrying';
}

/** Pending jobs of a queue (tests and the CLI's local mode use it to wait for work to drain). */
export async function pendingCount(db: Db, queues?: string[]): Promise<number> {
  let q = db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 'pending');
  if (queues) q = q.where('queue', 'in', queues);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
