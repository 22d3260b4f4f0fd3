// Registers the migration queues' handlers on the app's durable job worker.
import type { JobRow } from '../db/schema.js';
import type { JobRun } from '../jobs/worker.js';
import type { AppContext } from '../app/context.js';
import { expireArchive, type ExpiryPayload } from './expiry.js';
import { runExport, type ExportPayload } from './export.js';
import { EXPIRY_QUEUE, EXPORT_LEASE_MS, EXPORT_QUEUE } from './queues.js';

/** Called while the app is built, before the worker starts. */
export function registerMigrationJobs(ctx: AppContext): void {
  ctx.jobs.register(EXPORT_QUEUE, (payload: ExportPayload, job: JobRow, run: JobRun) => runExport(ctx, payload, job, run), {
    concurrency: 2,
    leaseMs: EXPORT_LEASE_MS,
    backoff: (attempts) => Math.min(60_000, 2000 * 2 ** (attempts - 1)),
  });
  ctx.jobs.register(EXPIRY_QUEUE, (payload: ExpiryPayload) => expireArchive(ctx, payload), { concurrency: 2 });
}
