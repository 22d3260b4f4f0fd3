// A durable job queue in the database: enqueue inside the caller's transaction, claim with a lease, renew, finish or retry.
// Areas enqueue through the app's worker (ctx.jobs.enqueue), which also wakes itself for the new job.
import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import type { JobRow } from '../db/schema.js';
import { claimSkippingLocked } from '../db/dialect.js';

export interface EnqueueInput {
  queue: string;
  payload: unknown;
  runAt?: Date;
  maxAttempts?: number;
}

function jobValues(input: EnqueueInput, now: Date) {
  return {
    queue: input.queue,
    payload: JSON.stringify(input.payload),
    run_at: (input.runAt ?? now).toISOString(),
    max_attempts: input.maxAttempts ?? 5,
    locked_until: null,
    locked_by: null,
    last_error: null,
    created_at: now.toISOString(),
    finished_at: null,
  };
}

/** Adds a job. Pass the transaction that makes the change causing it, so both land or neither does. */
export async function enqueue(db: Db, input: EnqueueInput, now: Date): Promise<number> {
  const row = await db.insertInto('jobs').values(jobValues(input, now)).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Adds several jobs in one statement (an event fanning out to many webhooks). */
export async function enqueueMany(db: Db, inputs: EnqueueInput[], now: Date): Promise<number[]> {
  if (inputs.length === 0) return [];
  const ids: number[] = [];
  // Bounded rows per statement: SQLite caps bound parameters per statement.
  for (let i = 0; i < inputs.length; i += 50) {
    const rows = await db
      .insertInto('jobs')
      .values(inputs.slice(i, i + 50).map((x) => jobValues(x, now)))
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
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
 * One statement, so one round trip: an UPDATE of the rows a sub-select claims, skipping rows another worker's claim
 * holds (dialect.ts claimSkippingLocked), so concurrent workers take different jobs.
 */
export async function claim(db: Db, input: ClaimInput): Promise<JobRow[]> {
  if (input.queues.length === 0) return [];
  const nowIso = input.now.toISOString();
  const lockedUntil = new Date(input.now.getTime() + input.leaseMs).toISOString();
  const due = db
    .selectFrom('jobs')
    .select('id')
    .where('state', '=', 'pending')
    .where('queue', 'in', input.queues)
    .where('run_at', '<=', nowIso)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso)]))
    .orderBy('run_at')
    .orderBy('id')
    .limit(input.limit);
  const rows = await db
    .updateTable('jobs')
    .set({ locked_until: lockedUntil, locked_by: input.workerId, attempts: sql<number>`attempts + 1` })
    .where('id', 'in', claimSkippingLocked(db, due))
    .returningAll()
    .execute();
  return rows.sort((a, b) => (a.run_at < b.run_at ? -1 : a.run_at > b.run_at ? 1 : a.id - b.id));
}

/**
 * Extends the lease of a job this worker still holds (a long job keeps it, so no other worker takes it over while this
 * one is alive). A lease another worker took over meanwhile is left alone.
 */
export async function renewLease(db: Db, id: number, workerId: string, until: Date): Promise<void> {
  await db.updateTable('jobs').set({ locked_until: until.toISOString() }).where('id', '=', id).where('locked_by', '=', workerId).execute();
}

/** Marks a job done. Pass the handler's transaction to make finishing the job atomic with what the job wrote. */
export async function complete(db: Db, id: number, now: Date): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ state: 'done', finished_at: now.toISOString(), locked_until: null, locked_by: null })
    .where('id', '=', id)
    .execute();
}

/** Marks several jobs done with one statement (handlers that batch their writes). */
export async function completeMany(db: Db, ids: number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('jobs')
    .set({ state: 'done', finished_at: now.toISOString(), locked_until: null, locked_by: null })
    .where('id', 'in', ids)
    .execute();
}

/** Deletes finished (done or failed) jobs that finished before `before`; returns how many. */
export async function deleteFinished(db: Db, before: Date): Promise<number> {
  const r = await db
    .deleteFrom('jobs')
    .where('state', 'in', ['done', 'failed'])
    .where('finished_at', '<', before.toISOString())
    .executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}

/** Whether a pending (or running) job of the queue exists: periodic jobs enqueue their first run only when none does. */
export async function hasPendingJob(db: Db, queue: string): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('queue', '=', queue)
    .where('state', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
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

/** Pending jobs of a queue, or only those due by `dueBy` (tests and the CLI's local mode use it to wait for work to drain). */
export async function pendingCount(db: Db, queues?: string[], dueBy?: Date): Promise<number> {
  let q = db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'pending');
  if (queues) q = q.where('queue', 'in', queues);
  if (dueBy) q = q.where('run_at', '<=', dueBy.toISOString());
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * Puts claimed jobs back, unstarted, as pending jobs of another queue (a queue nobody claims from until `moveWaiting`
 * brings them back): their claim is undone and not counted as an attempt. Pass the handler's transaction.
 */
export async function holdIn(db: Db, ids: number[], queue: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('jobs')
    .set({ queue, locked_until: null, locked_by: null, attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end` })
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Moves up to `limit` pending jobs of queue `from` to queue `to`, oldest first (they keep their `run_at`, so they are
 * claimed before jobs enqueued after them); returns how many moved. Rows another claimer holds are passed over.
 */
export async function moveWaiting(db: Db, from: string, to: string, limit: number): Promise<number> {
  if (limit <= 0) return 0;
  const oldest = db
    .selectFrom('jobs')
    .select('id')
    .where('state', '=', 'pending')
    .where('queue', '=', from)
    .orderBy('run_at')
    .orderBy('id')
    .limit(limit);
  const rows = await db.updateTable('jobs').set({ queue: to }).where('id', 'in', claimSkippingLocked(db, oldest)).returning('id').execute();
  return rows.length;
}

/** The queues named `<prefix>…` (a prefix without `%` or `_`) that hold pending jobs: held jobs, whoever held them. */
export async function waitingQueues(db: Db, prefix: string): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('queue')
    .distinct()
    .where('state', '=', 'pending')
    .where('queue', 'like', `${prefix}%`)
    .execute();
  return rows.map((r) => r.queue);
}
