// The `organization` event in GitHub's shape (created, renamed, deleted, member_added, member_removed), recorded in the
// transaction of each change. Organization hooks and site-wide hooks receive it.
import type { AppContext } from '../core/context.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { Urls } from '../core/urls.js';
import { membership, simpleOrganization, simpleUser } from './present.js';

type OrganizationAction = 'created' | 'renamed' | 'deleted' | 'member_added' | 'member_removed';

interface OrganizationEventInput {
  action: OrganizationAction;
  org: UserRow;
  sender: UserRow;
  /** The member added or removed, and their role (member events). */
  member?: { user: UserRow; role: 'admin' | 'member' };
  /** The login before a rename. */
  previousLogin?: string;
}

/** The payload: action, `changes.login.from` (renamed), `membership` (member events), organization and sender. */
function organizationEventPayload(input: OrganizationEventInput, urls: Urls): Record<string, unknown> {
  let member: Record<string, unknown> | undefined;
  if (input.member) {
    // GitHub's webhook membership is the REST one without the organization object (its URL is there).
    const { organization: _organization, ...rest } = membership(input.org, input.member.user, input.member.role, urls);
    member = rest;
  }
  return {
    action: input.action,
    ...(input.previousLogin !== undefined ? { changes: { login: { from: input.previousLogin } } } : {}),
    ...(member ? { membership: member } : {}),
    organization: simpleOrganization(input.org, urls),
    sender: simpleUser(input.sender, urls),
  };
}

/** Records an `organization` event in the caller's transaction. */
export async function emitOrganizationEvent(
  trx: Db,
  ctx: Pick<AppContext, 'urls' | 'events'>,
  input: OrganizationEventInput,
  now: Date,
): Promise<void> {
  await ctx.events.emit(
    trx,
    {
      name: 'organization',
      action: input.action,
      orgId: input.org.id,
      senderId: input.sender.id,
      payload: organizationEventPayload(input, ctx.urls.root),
    },
    now,
  );
}
