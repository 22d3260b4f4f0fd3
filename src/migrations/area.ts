// The migrations area (migration archives): the routes under /orgs/{org}/migrations and /user/migrations, archive
// downloads, the export queue and the archive expiry queue.
import type { Area } from '../core/area.js';
import type { JobRow } from '../db/schema.js';
import type { JobRun } from '../jobs/worker.js';
import { expireArchive, type ExpiryPayload } from './expiry.js';
import { runExport, type ExportPayload } from './export.js';
import { EXPIRY_QUEUE, EXPORT_LEASE_MS, EXPORT_QUEUE } from './queues.js';
import { migrationRoutes } from './routes.js';

export const migrationsArea: Area = {
  name: 'migrations',
  routes: migrationRoutes,
  setup: (ctx) => ({
    queues: [
      {
        queue: EXPORT_QUEUE,
        handler: (payload: ExportPayload, job: JobRow, run: JobRun) => runExport(ctx, payload, job, run),
        concurrency: 2,
        leaseMs: EXPORT_LEASE_MS,
        backoff: (attempts) => Math.min(60_000, 2000 * 2 ** (attempts - 1)),
      },
      { queue: EXPIRY_QUEUE, handler: (payload: ExpiryPayload) => expireArchive(ctx, payload), concurrency: 2 },
    ],
  }),
};
