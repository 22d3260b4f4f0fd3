// The export job: pending → exporting → exported (archive stored, expiry scheduled), or failed with the reason kept.
import type { JobRow } from '../db/schema.js';
import type { JobRun } from '../jobs/worker.js';
import { archiveStore } from '../blob/index.js';
import type { AppContext } from '../core/context.js';
import { archiveKey, writeArchive } from './archive.js';
import { EXPIRY_QUEUE } from './queues.js';
import { findMigration, markExported, transition } from './store.js';
import { inSpan } from '../tracing/spans.js';

export interface ExportPayload {
  migrationId: number;
}

async function markFailed(ctx: AppContext, migrationId: number, reason: string): Promise<void> {
  await transition(ctx.db, migrationId, ['pending', 'exporting'], 'failed', ctx.clock.now(), { failure_reason: reason.slice(0, 1000) });
  ctx.log.warn({ migration: migrationId, reason }, 'migration export failed');
}

/**
 * Runs one export. Idempotent: a migration already exported or failed is left alone, and the archive is written to a
 * temporary object and renamed, so a re-run after a crash (the lease expired) simply writes it again. A failure is
 * retried; the last attempt marks the migration `failed` with the reason. An export whose workers keep dying is failed
 * once it has been claimed more times than it has attempts, so none stays `exporting` forever.
 */
export function runExport(ctx: AppContext, payload: ExportPayload, job: JobRow, run: JobRun): Promise<void> {
  // While traces are on, a trace of its own: a span `migration.export` with the job's statements and git commands in it.
  const attributes = { 'migration.id': payload.migrationId, 'job.attempt': job.attempts };
  return inSpan('migration.export', attributes, () => exportMigration(ctx, payload, job, run), { root: true });
}

async function exportMigration(ctx: AppContext, payload: ExportPayload, job: JobRow, run: JobRun): Promise<void> {
  const m = await findMigration(ctx.db, payload.migrationId);
  if (!m || m.state === 'exported' || m.state === 'failed') return;
  if (job.attempts > job.max_attempts) {
    await markFailed(ctx, m.id, `the export was interrupted ${job.attempts - 1} times (the server stopped while exporting)`);
    return;
  }
  const store = archiveStore(ctx.config);
  if (!store) {
    await markFailed(ctx, m.id, 'no archive storage is configured');
    return;
  }
  await transition(ctx.db, m.id, ['pending'], 'exporting', ctx.clock.now());
  // A running export keeps its lease, so only a dead worker's export is claimed again.
  const stopRenewing = run.keepLeased();
  const key = archiveKey(m);
  try {
    const size = await writeArchive(ctx, m, store, key);
    const now = ctx.clock.now();
    const expiresAt = new Date(now.getTime() + ctx.config.archiveLifetimeDays * 86_400_000);
    const recorded = await ctx.db.transaction().execute(async (trx) => {
      const ok = await markExported(trx, m.id, { key, size, expiresAt }, now);
      if (ok) await ctx.jobs.enqueue(trx, { queue: EXPIRY_QUEUE, payload: { migrationId: m.id, key }, runAt: expiresAt }, now);
      // The job is done exactly when the migration is recorded exported.
      await run.completeIn(trx);
      return ok;
    });
    // The migration disappeared meanwhile (its owner was deleted): its archive goes too.
    if (!recorded && !(await findMigration(ctx.db, m.id))) await store.delete(key);
    ctx.log.info({ migration: m.id, size }, 'migration exported');
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (job.attempts >= job.max_attempts) {
      await markFailed(ctx, m.id, reason);
      return;
    }
    throw err;
  } finally {
    stopRenewing();
  }
}
