// Who is calling (the actor) and what a route asks of them (its grant); the one rule for whether a grant lets a call in.
import type { TokenRow, UserRow } from '../db/schema.js';
import { Forbidden, NotFound, Unauthorized } from './errors.js';
import { hasAnyScope, hasPermission, type FineGrainedPermission, type PermissionLevel } from './scopes.js';

/** The kinds of access token, each with its own prefix (accounts/tokens.ts) and rules (checkGrant). */
export type TokenKind = 'classic' | 'fine_grained' | 'oauth' | 'app_user' | 'installation';

export interface Actor {
  user: UserRow;
  /** `local` is the CLI acting in-process on the data dir: the user's own full authority. */
  kind: TokenKind | 'local';
  token: TokenRow | null;
  scopes: string[];
  permissions: Record<string, string>;
  appId: number | null;
}

/**
 * What a route needs from its caller, declared once per route (`config.grant`) and enforced for every kind of token by
 * `checkGrant`. A route that anyone may call declares `PUBLIC`.
 */
export interface Grant {
  /** Classic and OAuth tokens: any one of these scopes (a parent scope includes its children); empty: none needed. */
  scopes: readonly string[];
  /**
   * Fine-grained personal access tokens and GitHub-App tokens (installation, app user): this permission at this level or
   * above. Omitted: no permission needed. `null`: fine-grained tokens may not call it at all.
   */
  fineGrained?: { permission: FineGrainedPermission; level: PermissionLevel } | null;
  /**
   * GitHub-App tokens: `true` installation and app user tokens, `'user'` app user tokens only (an installation acts as its
   * app, with no person behind it), `false` or omitted neither. Allowed ones still need `fineGrained`.
   */
  apps?: boolean | 'user';
  /** How a classic or OAuth token lacking the scope is answered: GitHub hides most resources behind 404. */
  missingScope?: 404 | 403;
  /** Anonymous callers may call it (the route shows them what is public); otherwise they get 401. */
  anonymous?: boolean;
  /** Site administrators only: anyone else gets 404, whatever their token carries. */
  siteAdmin?: boolean;
}

/** A route anyone may call, with any token: public data, or a route with its own rule (git, signed archive URLs). */
export const PUBLIC: Grant = Object.freeze({ scopes: Object.freeze([]) as readonly string[], anonymous: true, apps: true });

/** The site admin API: site admins whose classic or OAuth token carries `site_admin`. */
export const SITE_ADMIN: Grant = Object.freeze({
  scopes: Object.freeze(['site_admin']) as readonly string[],
  fineGrained: null,
  missingScope: 403,
  siteAdmin: true,
});

const PAT_DENIED = 'Resource not accessible by personal access token';
const INTEGRATION_DENIED = 'Resource not accessible by integration';

/** True when no caller can ever be refused by this grant (no check needs to run). */
export function grantsEveryone(grant: Grant): boolean {
  return (
    grant.anonymous === true && grant.scopes.length === 0 && grant.fineGrained === undefined && grant.apps === true && !grant.siteAdmin
  );
}

export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw new Unauthorized();
  return actor;
}

/** The refusal of a classic or OAuth token without any of the grant's scopes: 403 naming them, or 404 (GitHub's choice per route). */
function missingScope(grant: Grant): Error {
  if (grant.missingScope === 403) return new Forbidden(`This operation needs one of these OAuth scopes: ${grant.scopes.join(', ')}`);
  return new NotFound();
}

/** Whether a fine-grained or app token carries the grant's permission (none declared: yes; `null`: never). */
function carriesPermission(actor: Actor, grant: Grant): boolean {
  const needed = grant.fineGrained;
  if (needed === undefined) return true;
  return needed !== null && hasPermission(actor.permissions, needed.permission, needed.level);
}

/**
 * The one rule for every route: throws the answer GitHub gives when this caller may not call an operation declaring
 * `grant` (401 anonymous, 404 not a site admin, 404/403 a classic or OAuth token without the scope, 403 a fine-grained or
 * app token without the permission). Allocates nothing when the caller is let through (the hot path).
 */
export function checkGrant(actor: Actor | null, grant: Grant): void {
  if (actor === null) {
    if (grant.anonymous) return;
    throw new Unauthorized();
  }
  if (grant.siteAdmin && !actor.user.site_admin) throw new NotFound();
  switch (actor.kind) {
    case 'local':
      return;
    case 'classic':
    case 'oauth':
      if (grant.scopes.length === 0 || hasAnyScope(actor.scopes, grant.scopes)) return;
      throw missingScope(grant);
    case 'fine_grained':
      if (carriesPermission(actor, grant)) return;
      throw new Forbidden(PAT_DENIED);
    case 'installation':
    case 'app_user': {
      const appAllowed = grant.apps === true || (grant.apps === 'user' && actor.kind === 'app_user');
      if (appAllowed && carriesPermission(actor, grant)) return;
      throw new Forbidden(INTEGRATION_DENIED);
    }
  }
}

/** Throws unless a signed-in caller's token carries the grant; returns the caller. */
export function requireGrant(actor: Actor | null, grant: Grant): Actor {
  const a = requireActor(actor);
  checkGrant(a, grant);
  return a;
}

export function requireSiteAdmin(actor: Actor | null): Actor {
  return requireGrant(actor, SITE_ADMIN);
}
