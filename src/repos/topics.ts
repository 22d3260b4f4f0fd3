// Repository topics: replacing all of a repository's topics (PUT /repos/{owner}/{repo}/topics).
import { requireActor } from '../core/grants.js';
import type { ServiceContext } from '../core/context.js';
import { lockRows } from '../db/dialect.js';
import { Forbidden, NotFound } from '../core/errors.js';
import { atLeast } from './access.js';
import { isLocked, LOCKED_MESSAGE } from './locks.js';
import { normalizedTopics } from './names.js';
import { topicsOf } from './present.js';
import { emitRepositoryEvent, resolveRepository } from './service.js';
import { findRepositoryById, updateRepository as updateRow } from './store.js';

/**
 * Replaces all of `owner/name`'s topics (an empty list clears them). Admins only, as for the repository's other settings:
 * 404 for callers who cannot read it, 403 for those who can but are not admins, and for archived or migration-locked
 * repositories. A change (and only a change) moves `updated_at` and records GitHub's `repository` `edited` event with
 * `changes.topics.from`.
 */
export async function replaceTopics(ctx: ServiceContext, ownerLogin: string, name: string, names: readonly string[]): Promise<string[]> {
  const actor = requireActor(ctx.actor);
  const { repo, owner, access } = await resolveRepository(ctx, ownerLogin, name, 307);
  if (!atLeast(access, 'admin')) throw new Forbidden('Must have admin rights to Repository.');
  return ctx.db.transaction().execute(async (trx) => {
    // The row first: a migration locking the repository, or a delete, at the same moment takes turns with this.
    if (!(await lockRows(trx, 'repositories', [repo.id])).has(repo.id)) throw new NotFound();
    if (await isLocked(trx, repo.id)) throw new Forbidden(LOCKED_MESSAGE);
    const current = await findRepositoryById(trx, repo.id);
    if (!current) throw new NotFound();
    if (current.archived) throw new Forbidden('Repository was archived so is read-only.');
    const topics = normalizedTopics(names);
    const stored = JSON.stringify(topics);
    if (current.topics === stored) return topics;
    const now = ctx.clock.now();
    const row = await updateRow(trx, repo.id, { topics: stored, updated_at: now.toISOString() });
    await emitRepositoryEvent(
      trx,
      ctx,
      { action: 'edited', repo: row, owner, sender: actor.user, changes: { topics: { from: topicsOf(current) } } },
      now,
    );
    return topicsOf(row);
  });
}
