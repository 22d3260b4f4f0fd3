// Authentication and grants: reads the credential (Bearer, `token`, or the Basic-auth password), sets the request's actor
// through the app's authenticator, enforces every route's declared grant, and sends GitHub's scope headers. The rules
// are plain functions the hooks and the cached-read fast path (fast-path.ts) both call.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import type { Db } from '../db/schema.js';
import { checkGrant, grantsEveryone, type Actor, type Grant } from '../core/grants.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app with the grant it declares, in registration order (HEAD routes included). */
    routeGrants: DeclaredRoute[];
  }
}

export interface DeclaredRoute {
  method: string;
  url: string;
  grant: Grant;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The credential in an Authorization header: `undefined` when there is no header (an anonymous call), `null` when there
 * is one but it carries nothing usable (an unknown scheme, Basic that is not base64 or has no password nor user name),
 * which GitHub answers with 401 Bad credentials rather than serving the call anonymously.
 */
export function presentedToken(header: string | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*(\S+)\s+(.+?)\s*$/.exec(header);
  if (!m) return header.trim() || null;
  const scheme = m[1].toLowerCase();
  if (scheme === 'bearer' || scheme === 'token') return m[2];
  if (scheme === 'basic') {
    if (!BASE64.test(m[2])) return null;
    const decoded = Buffer.from(m[2], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // git sends user:token; some clients send the token as the user name with an empty password.
    const password = colon >= 0 ? decoded.slice(colon + 1) : '';
    return password || (colon >= 0 ? decoded.slice(0, colon) : decoded) || null;
  }
  return null;
}

export const LOCAL_ACTOR_HEADER = 'x-hublet-local-as';

/** What an authenticator reads of a request: its headers, and the app's database and clock. */
interface AuthRequest {
  headers: IncomingHttpHeaders;
  ctx: { db: Db; clock: { now(): Date } };
  /**
   * A change stamp (db/change-stamp.ts) the caller took after the request arrived, to judge the token cache by: the
   * cached-read fast path takes one and judges the token and the response by it, one stamp a request where there were
   * two in a row. Without it the token cache takes its own.
   */
  stamp?: string;
}

/** Who is calling: null when anonymous; throws (401) for a credential that does not authenticate. */
export type Authenticate = (request: AuthRequest) => Promise<Actor | null>;

function asArray<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * The grant check of one route, before its body is validated (as GitHub: a caller who may not call the route learns
 * nothing from a 422 about its body). A callback hook bound to the route's grant: no promise, no lookup per request.
 */
function grantCheck(grant: Grant) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    try {
      checkGrant(request.ctx.actor, grant);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  };
}

const NO_HEADERS: readonly string[] = Object.freeze([]);

/**
 * GitHub's scope headers: what a classic or OAuth token carries and what the route accepts (`repo, user`); for
 * fine-grained and app tokens, the permission the route accepts (X-Accepted-GitHub-Permissions, renamed). One per app:
 * the header values of scope lists and grants are built once (cached actors and route grants keep the same objects).
 */
export class ScopeHeaders {
  private readonly joinedLists = new WeakMap<readonly string[], string>();
  private readonly permissions = new WeakMap<Grant, string | null>();

  private joined(list: readonly string[]): string {
    let value = this.joinedLists.get(list);
    if (value === undefined) {
      value = list.join(', ');
      this.joinedLists.set(list, value);
    }
    return value;
  }

  private permission(grant: Grant): string | null {
    let value = this.permissions.get(grant);
    if (value === undefined) {
      value = grant.fineGrained ? `${grant.fineGrained.permission}=${grant.fineGrained.level}` : null;
      this.permissions.set(grant, value);
    }
    return value;
  }

  /** The headers for this caller on a route declaring this grant: names and values in turn, in the order sent. */
  of(actor: Actor | null, grant: Grant): readonly string[] {
    if (actor && (actor.kind === 'classic' || actor.kind === 'oauth')) {
      return ['x-oauth-scopes', this.joined(actor.scopes), 'x-accepted-oauth-scopes', this.joined(grant.scopes)];
    }
    const permission = actor && actor.kind !== 'local' ? this.permission(grant) : null;
    return permission ? ['x-accepted-service-permissions', permission] : NO_HEADERS;
  }
}

/** The route's onSend hook sending its scope headers. */
function scopeHeaders(grant: Grant, scopes: ScopeHeaders) {
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, value?: unknown) => void): void => {
    const headers = scopes.of(request.ctx.actor, grant);
    for (let i = 0; i < headers.length; i += 2) reply.header(headers[i], headers[i + 1]);
    done(null, payload);
  };
}

/**
 * @param authenticate the app's authenticator (accounts/authenticate.ts): the CLI's in-process app also trusts the
 * login named in LOCAL_ACTOR_HEADER; a listening server never does, so the header means nothing over the network.
 */
export function registerAuth(app: FastifyInstance, authenticate: Authenticate, scopes: ScopeHeaders): void {
  // The request's context starts with no actor (app.ts); a credential that does not authenticate throws before one is set.
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.clientCredentials) return;
    request.ctx.actor = await authenticate(request);
  });

  // Every route declares its grant (PUBLIC when anyone may call it): a route without one cannot be registered. Its check
  // runs first among the route's preValidation hooks; a grant that lets everyone through costs nothing per request.
  const routes: DeclaredRoute[] = [];
  app.decorate('routeGrants', routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    const grant = route.config?.grant;
    const methods = asArray(route.method);
    if (!grant) {
      throw new Error(`${methods.join(',')} ${route.url} declares no grant: set config.grant (PUBLIC when anyone may call it)`);
    }
    for (const method of methods) routes.push({ method, url: route.url, grant });
    if (!grantsEveryone(grant)) route.preValidation = [grantCheck(grant), ...asArray(route.preValidation)];
    route.onSend = [scopeHeaders(grant, scopes), ...asArray(route.onSend)] as RouteOptions['onSend'];
  });
}
