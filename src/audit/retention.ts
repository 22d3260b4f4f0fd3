// Audit log retention (HUBLET_AUDIT_RETENTION_DAYS): an hourly job deletes the entries older than the configured days,
// oldest first, and records in the chain's row the last one it deleted and its hash, where the chain now starts; the
// chain's head is locked meanwhile, so no entry is appended while its start moves.
import type { AppContext } from '../core/context.js';
import type { JobRow } from '../db/schema.js';
import { hasPendingJob } from '../jobs/queue.js';
import type { JobRun } from '../jobs/worker.js';
import { lockChain } from './chain.js';
import { deleteEntriesThrough, lastEntryBefore } from './store.js';

export const AUDIT_PRUNE_QUEUE = 'audit.prune';
/** How often the prune job runs. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Schedules the first prune when none is pending (each run schedules the next). */
export async function scheduleAuditPrune(ctx: AppContext): Promise<void> {
  if (!(await hasPendingJob(ctx.db, AUDIT_PRUNE_QUEUE)))
    await ctx.jobs.enqueue(ctx.db, { queue: AUDIT_PRUNE_QUEUE, payload: {} }, ctx.clock.now());
}

/** The prune job: one transaction deletes the old entries, moves the chain's start and schedules the next run. */
export function auditPruneHandler(ctx: AppContext) {
  return async (_payload: unknown, _job: JobRow, run: JobRun): Promise<void> => {
    const now = ctx.clock.now();
    const before = new Date(now.getTime() - ctx.config.auditRetentionDays * 86_400_000).toISOString();
    await ctx.db.transaction().execute(async (trx) => {
      await lockChain(trx);
      const last = await lastEntryBefore(trx, before);
      if (last) {
        const deleted = await deleteEntriesThrough(trx, last.id);
        await trx.updateTable('audit_chain').set({ pruned_id: last.id, pruned_hash: last.hash }).where('id', '=', 1).execute();
        ctx.log.info({ entries: deleted, before }, 'pruned the audit log');
      }
      await ctx.jobs.enqueue(trx, { queue: AUDIT_PRUNE_QUEUE, payload: {}, runAt: new Date(now.getTime() + PRUNE_EVERY_MS) }, now);
      await run.completeIn(trx);
    });
  };
}
