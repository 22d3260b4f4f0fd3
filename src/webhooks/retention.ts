// Delivery history retention: a periodic job deletes deliveries, finished jobs and unreferenced events older than the configured days.
import type { JobRow } from '../db/schema.js';
import { deleteFinished, hasPendingJob } from '../jobs/queue.js';
import type { JobRun } from '../jobs/worker.js';
import type { AppContext } from '../core/context.js';
import { pruneDeliveries, pruneEvents, pruneFarewells } from './store.js';

export const PRUNE_QUEUE = 'hooks.prune';
/** How often the prune job runs. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Schedules the first prune when none is pending (each run schedules the next). */
export async function schedulePrune(ctx: AppContext): Promise<void> {
  if (!(await hasPendingJob(ctx.db, PRUNE_QUEUE))) await ctx.jobs.enqueue(ctx.db, { queue: PRUNE_QUEUE, payload: {} }, ctx.clock.now());
}

/** The prune job: one transaction deletes the old history and schedules the next run. */
export function pruneHandler(ctx: AppContext) {
  return async (_payload: unknown, _job: JobRow, run: JobRun): Promise<void> => {
    const now = ctx.clock.now();
    const before = new Date(now.getTime() - ctx.config.deliveryRetentionDays * 86_400_000);
    await ctx.db.transaction().execute(async (trx) => {
      const deliveries = await pruneDeliveries(trx, before);
      const jobs = await deleteFinished(trx, before);
      const events = await pruneEvents(trx, before);
      // A deleted hook's sealed config whose `meta` delivery never ran (its job gave up): gone after a day.
      const farewells = await pruneFarewells(trx, new Date(now.getTime() - 86_400_000));
      if (deliveries || jobs || events || farewells)
        ctx.log.info({ deliveries, jobs, events, farewells, before: before.toISOString() }, 'pruned webhook delivery history');
      await ctx.jobs.enqueue(trx, { queue: PRUNE_QUEUE, payload: {}, runAt: new Date(now.getTime() + PRUNE_EVERY_MS) }, now);
      await run.completeIn(trx);
    });
  };
}
