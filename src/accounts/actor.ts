// Who is calling and with what grant; and the one rule for whether a grant allows an operation.
import type { TokenRow, UserRow } from '../db/schema.js';
import { Forbidden, NotFound, Unauthorized } from '../server/http/errors.js';
import { hasAnyScope, hasPermission, type FineGrainedPermission, type PermissionLevel } from './scopes.js';
import type { TokenKind } from './tokens.js';

export interface Actor {
  user: UserRow;
  /** `local` is the CLI acting in-process on the data dir: the user's own full authority. */
  kind: TokenKind | 'local';
  token: TokenRow | null;
  scopes: string[];
  permissions: Record<string, string>;
  appId: number | null;
}

/** Actors of the token rows the token cache shares (frozen, so one actor serves every request with that row). */
const actors = new WeakMap<TokenRow, Actor>();

export function actorFromToken(user: UserRow, token: TokenRow): Actor {
  const known = actors.get(token);
  if (known && known.user === user) return known;
  const actor: Actor = Object.freeze({
    user,
    kind: token.kind as TokenKind,
    token,
    scopes: Object.freeze(JSON.parse(token.scopes) as string[]) as string[],
    permissions: Object.freeze(JSON.parse(token.permissions) as Record<string, string>),
    appId: token.app_id,
  });
  if (Object.isFrozen(token)) actors.set(token, actor);
  return actor;
}

export function localActor(user: UserRow): Actor {
  return { user, kind: 'local', token: null, scopes: [], permissions: {}, appId: null };
}

/** What an operation needs from a token. Scopes: any of them (classic and OAuth). */
export interface Grant {
  scopes: readonly string[];
  /** Fine-grained permission needed; `null` means fine-grained tokens may not call it at all. Omitted: no permission needed. */
  fineGrained?: { permission: FineGrainedPermission; level: PermissionLevel } | null;
  /** May GitHub-App tokens (installation, app user) call it? Default: no. */
  apps?: boolean;
  /** How a classic token lacking the scope is answered: GitHub hides most resources behind 404. */
  missingScope?: 404 | 403;
}

export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw new Unauthorized();
  return actor;
}

/** Throws unless the actor's token carries the grant. */
export function requireGrant(actor: Actor | null, grant: Grant): Actor {
  const a = requireActor(actor);
  switch (a.kind) {
    case 'local':
      return a;
    case 'classic':
    case 'oauth':
      if (grant.scopes.length === 0 || hasAnyScope(a.scopes, grant.scopes)) return a;
      if (grant.missingScope === 403) throw new Forbidden(`This operation needs one of these OAuth scopes: ${grant.scopes.join(', ')}`);
      throw new NotFound();
    case 'fine_grained': {
      if (grant.fineGrained === undefined) return a;
      if (grant.fineGrained === null) throw new Forbidden('Resource not accessible by personal access token');
      if (hasPermission(a.permissions, grant.fineGrained.permission, grant.fineGrained.level)) return a;
      throw new Forbidden('Resource not accessible by personal access token');
    }
    case 'installation':
    case 'app_user':
      if (grant.apps) return a;
      throw new Forbidden('Resource not accessible by integration');
  }
}

export function requireSiteAdmin(actor: Actor | null): Actor {
  const a = requireActor(actor);
  if (!a.user.site_admin) throw new NotFound();
  return requireGrant(a, { scopes: ['site_admin'], fineGrained: null, missingScope: 403 });
}
