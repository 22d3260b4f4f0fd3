// The expiry job: an archive is deleted when its lifetime ends (seven days by default), unless deleted earlier.
import { archiveStore } from '../blob/index.js';
import type { AppContext } from '../core/context.js';
import { EXPIRY_QUEUE } from './queues.js';
import { newArchiveSecret } from './signing.js';
import { findMigration, markArchiveDeleted } from './store.js';

export interface ExpiryPayload {
  migrationId: number;
  key: string;
}

/** Deletes an expired archive and records it; a job that runs early (its row says later) schedules itself again. */
export async function expireArchive(ctx: AppContext, payload: ExpiryPayload): Promise<void> {
  const store = archiveStore(ctx.config);
  const m = await findMigration(ctx.db, payload.migrationId);
  const now = ctx.clock.now();
  if (m && m.archive_deleted_at === null) {
    if (m.archive_expires_at && Date.parse(m.archive_expires_at) > now.getTime()) {
      await ctx.jobs.enqueue(ctx.db, { queue: EXPIRY_QUEUE, payload, runAt: new Date(m.archive_expires_at) }, now);
      return;
    }
    await markArchiveDeleted(ctx.db, m.id, newArchiveSecret(), now);
  }
  await store?.delete(payload.key);
  ctx.log.info({ migration: payload.migrationId }, 'migration archive expired');
}
