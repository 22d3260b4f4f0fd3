// Who is calling: the owner of a presented token (looked up through the app's token cache; refused while the owner is
// suspended), or the CLI's local user.
import type { TokenRow, UserRow } from '../db/schema.js';
import { LOCAL_ACTOR_HEADER, presentedToken, type Authenticate } from '../http/auth.js';
import { Forbidden, Unauthorized } from '../core/errors.js';
import type { Actor, TokenKind } from '../core/grants.js';
import { findAccount } from './store.js';
import { TokenCache } from './tokens.js';

/** The actor of a token row (frozen: the token cache shares one actor between the requests that present the token). */
function actorFromToken(user: UserRow, token: TokenRow): Actor {
  return Object.freeze({
    user,
    kind: token.kind as TokenKind,
    token,
    scopes: Object.freeze(JSON.parse(token.scopes) as string[]) as string[],
    permissions: Object.freeze(JSON.parse(token.permissions) as Record<string, string>),
    appId: token.app_id,
  });
}

/** GitHub Enterprise's answer to a suspended user's token. */
const SUSPENDED = 'Sorry. Your account was suspended.';

function localActor(user: UserRow): Actor {
  return { user, kind: 'local', token: null, scopes: [], permissions: {}, appId: null };
}

/**
 * The authenticator of one app, with its own token cache.
 * @param local the CLI's in-process app: the login named in LOCAL_ACTOR_HEADER acts without a token.
 */
export function authenticator(local: boolean): Authenticate {
  const tokens = new TokenCache(actorFromToken);
  return async (request) => {
    if (local) {
      const as = request.headers[LOCAL_ACTOR_HEADER];
      if (typeof as === 'string' && as) {
        const user = await findAccount(request.ctx.db, as);
        if (user?.type !== 'User') throw new Unauthorized(`No such user: ${as}`);
        return localActor(user);
      }
    }
    const presented = presentedToken(request.headers.authorization);
    if (presented === undefined) return null;
    if (presented === null) throw new Unauthorized('Bad credentials');
    const found = await tokens.lookup(request.ctx.db, presented, request.ctx.clock.now(), request.stamp);
    if (!found) throw new Unauthorized('Bad credentials');
    // A suspended user's tokens are refused, for the API and git alike, until a site admin unsuspends them (the cached
    // row is as current as the token cache keeps it: a write to users drops it).
    if (found.user.suspended_at) throw new Forbidden(SUSPENDED);
    return found.derived;
  };
}
