// The `user` event of GitHub Enterprise's global webhooks (a user account created or deleted), recorded in the
// transaction of the change; it belongs to no organization or repository, so only site-wide hooks receive it.
import type { AppContext } from '../core/context.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { Urls } from '../core/urls.js';
import { simpleUser } from './present.js';

/** The payload: action, the user, and who did it. */
function userEventPayload(action: 'created' | 'deleted', user: UserRow, sender: UserRow, urls: Urls): Record<string, unknown> {
  return { action, user: simpleUser(user, urls), sender: simpleUser(sender, urls) };
}

/** Records a `user` event in the caller's transaction. */
export async function emitUserEvent(
  trx: Db,
  ctx: Pick<AppContext, 'urls' | 'events'>,
  action: 'created' | 'deleted',
  user: UserRow,
  sender: UserRow,
  now: Date,
): Promise<void> {
  await ctx.events.emit(
    trx,
    {
      name: 'user',
      action,
      orgId: null,
      repositoryId: null,
      senderId: sender.id,
      payload: userEventPayload(action, user, sender, ctx.urls.root),
    },
    now,
  );
}
