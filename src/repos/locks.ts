// Migration locks: a locked repository refuses pushes and setting changes and keeps serving reads. Used by migrations.
import type { Db } from '../db/connect.js';
import { lockRows } from '../db/dialect.js';
import { Unprocessable } from '../core/errors.js';

/** The message a push to a locked repository gets (over git and the API alike). */
export const LOCKED_MESSAGE = 'Repository is locked for migration';

/**
 * Locks repositories for a migration, inside the migration's own transaction. Locking again for the same migration
 * changes nothing; a repository another migration holds is refused with 422 (nothing is locked then), also when the
 * other migration is starting at the same moment.
 */
export async function lockRepositories(trx: Db, repoIds: readonly number[], migrationId: number, now: Date = new Date()): Promise<void> {
  const ids = [...new Set(repoIds)];
  if (ids.length === 0) return;
  // The repositories' rows first: two migrations locking one repository at once take turns, and the second sees the first's lock.
  const alive = await lockRows(trx, 'repositories', ids);
  const held = await trx.selectFrom('repository_locks').selectAll().where('repository_id', 'in', ids).execute();
  const other = held.find((l) => l.migration_id !== migrationId);
  if (other) throw new Unprocessable(`Repository ${other.repository_id} is already locked by migration ${other.migration_id}`);
  const already = new Set(held.map((l) => l.repository_id));
  // A repository deleted while the migration started has nothing left to lock (its export leaves it out).
  const fresh = ids.filter((id) => alive.has(id) && !already.has(id));
  if (fresh.length) {
    await trx
      .insertInto('repository_locks')
      .values(fresh.map((id) => ({ repository_id: id, migration_id: migrationId, locked_at: now.toISOString() })))
      .execute();
  }
}

/** Releases one repository's lock held by this migration; false when that migration held no lock on it. */
export async function unlockRepository(trx: Db, repoId: number, migrationId: number): Promise<boolean> {
  const r = await trx
    .deleteFrom('repository_locks')
    .where('repository_id', '=', repoId)
    .where('migration_id', '=', migrationId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function isLocked(db: Db, repoId: number): Promise<boolean> {
  const row = await db.selectFrom('repository_locks').select('repository_id').where('repository_id', '=', repoId).executeTakeFirst();
  return row !== undefined;
}
