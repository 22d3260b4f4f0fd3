// Repository topics: GitHub's rule for topic names and replacing all of a repository's topics (PUT /repos/{owner}/{repo}/topics).
import { requireActor } from '../core/grants.js';
import type { ServiceContext } from '../core/context.js';
import { lockRows } from '../db/dialect.js';
import { Forbidden, HttpError, NotFound } from '../core/errors.js';
import { atLeast } from './access.js';
import { isLocked, LOCKED_MESSAGE } from './locks.js';
import { topicsOf } from './present.js';
import { emitRepositoryEvent, resolveRepository } from './service.js';
import { findRepositoryById, updateRepository as updateRow } from './store.js';

/** GitHub's limits: up to 20 topics a repository, each up to 50 characters. */
const MAX_TOPICS = 20;
const TOPIC = /^[a-z0-9][a-z0-9-]{0,49}$/;
const INVALID_NAME = 'Topics must start with a lowercase letter or number, consist of 50 characters or less, and can include hyphens.';
const TOO_MANY = `A repository cannot have more than ${MAX_TOPICS} topics.`;

/**
 * The names as GitHub saves them: lowercased, each once, in the order given. Anything else is GitHub's 422 with its
 * messages as plain strings (the `validation-error-simple` shape).
 */
export function normalizedTopics(names: readonly string[]): string[] {
  const topics = [...new Set(names.map((n) => n.toLowerCase()))];
  const problems: string[] = [];
  if (topics.some((t) => !TOPIC.test(t))) problems.push(INVALID_NAME);
  if (topics.length > MAX_TOPICS) problems.push(TOO_MANY);
  if (problems.length) throw new HttpError(422, 'Validation Failed', { errors: problems });
  return topics;
}

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
    await emitRepositoryEvent(trx, ctx, { action: 'edited', repo: row, owner, sender: actor.user, changes: { topics: { from: topicsOf(current) } } }, now);
    return topicsOf(row);
  });
}
