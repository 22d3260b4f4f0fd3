// The `create` and `delete` events (a branch or tag created or deleted by a push, auto_init or an import) in GitHub's
// shape, and GitHub's rule that a push of more than three tags creates no events for those tags.
import { simpleUser } from '../accounts/present.js';
import type { AppContext } from '../core/context.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { RepositoryRow } from '../db/tables/repos.js';
import { ZERO_SHA, type RefState, type RefUpdate } from '../git/bare.js';
import type { Urls } from '../core/urls.js';
import { payloadOrganization } from './present.js';
import { repositoryPayloadObject } from './repository-payload.js';

/**
 * GitHub's webhook documentation, on `push`: "Events will not be created for tags when more than three tags are pushed
 * at once", and on `create`: "This event will not occur when more than three tags are created at once"
 * (https://docs.github.com/en/webhooks/webhook-events-and-payloads#push and #create).
 */
const MAX_TAGS_WITH_EVENTS = 3;

/**
 * The tags of `updates` that get no `create` and no `push` event: every tag pushed (created or moved, not deleted) when
 * more than three are; none otherwise. Deleting tags is not pushing them: their `delete` and `push` events stay.
 */
export function tagsWithoutEvents(updates: readonly Pick<RefUpdate, 'ref' | 'after'>[]): Set<string> {
  const pushed = updates.filter((u) => u.ref.startsWith('refs/tags/') && u.after !== ZERO_SHA).map((u) => u.ref);
  return new Set(pushed.length > MAX_TAGS_WITH_EVENTS ? pushed : []);
}

/** A branch or tag by its short name (`main`, `v1.0`); other refs (notes, …) have no create/delete events. */
function branchOrTag(ref: string): { name: string; type: 'branch' | 'tag' } | undefined {
  if (ref.startsWith('refs/heads/')) return { name: ref.slice('refs/heads/'.length), type: 'branch' };
  if (ref.startsWith('refs/tags/')) return { name: ref.slice('refs/tags/'.length), type: 'tag' };
  return undefined;
}

interface RefEventInput {
  ref: string;
  repo: RepositoryRow;
  owner: UserRow;
  sender: UserRow;
}

/**
 * The payload of `create` or `delete` for a full ref name (`refs/heads/…`, `refs/tags/…`), or undefined for other refs:
 * the short ref, its type, `pusher_type` `user`, and for `create` the default branch and the repository's description.
 */
function refEventPayload(kind: 'create' | 'delete', input: RefEventInput, urls: Urls): Record<string, unknown> | undefined {
  const target = branchOrTag(input.ref);
  if (!target) return undefined;
  const organization = payloadOrganization(input.owner, urls);
  return {
    ref: target.name,
    ref_type: target.type,
    ...(kind === 'create' ? { master_branch: input.repo.default_branch, description: input.repo.description } : {}),
    pusher_type: 'user',
    repository: repositoryPayloadObject(input.repo, input.owner, urls),
    ...(organization ? { organization } : {}),
    sender: simpleUser(input.sender, urls),
  };
}

/** Records a `create` or `delete` event in the caller's transaction (nothing for refs that are not a branch or a tag). */
export async function emitRefEvent(
  trx: Db,
  ctx: Pick<AppContext, 'urls' | 'events'>,
  kind: 'create' | 'delete',
  input: RefEventInput,
  now: Date,
): Promise<void> {
  const payload = refEventPayload(kind, input, ctx.urls.root);
  if (!payload) return;
  const orgId = input.owner.type === 'Organization' ? input.owner.id : null;
  await ctx.events.emit(trx, { name: kind, orgId, repositoryId: input.repo.id, senderId: input.sender.id, payload }, now);
}

/**
 * Records a `create` event for each branch and tag a repository starts with (an import brings them all at once, as one
 * push would: more than three tags get none), branches first, each in name order.
 */
export async function emitInitialRefs(
  trx: Db,
  ctx: Pick<AppContext, 'urls' | 'events'>,
  input: { refs: RefState; repo: RepositoryRow; owner: UserRow; sender: UserRow },
  now: Date,
): Promise<void> {
  const isTag = (ref: string) => Number(ref.startsWith('refs/tags/'));
  const refs = Object.keys(input.refs).sort((a, b) => isTag(a) - isTag(b) || (a < b ? -1 : a > b ? 1 : 0));
  const silent = tagsWithoutEvents(refs.map((ref) => ({ ref, after: input.refs[ref] })));
  for (const ref of refs)
    if (!silent.has(ref)) await emitRefEvent(trx, ctx, 'create', { ref, repo: input.repo, owner: input.owner, sender: input.sender }, now);
}
