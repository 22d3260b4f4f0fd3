// Authentication: reads the token (Bearer, `token`, or the Basic-auth password), sets request.actor, enforces route grants.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorFromToken, localActor, requireActor, requireGrant } from '../../accounts/actor.js';
import { findAccount } from '../../accounts/store.js';
import { lookupToken } from '../../accounts/tokens.js';
import { Unauthorized } from './errors.js';

/** The credential in an Authorization header, or undefined when there is none. */
export function presentedToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^\s*(\S+)\s+(.+?)\s*$/.exec(header);
  if (!m) return header.trim() || undefined;
  const scheme = m[1].toLowerCase();
  if (scheme === 'bearer' || scheme === 'token') return m[2];
  if (scheme === 'basic') {
    const decoded = Buffer.from(m[2], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // git sends user:token; some clients send the token as the user name with an empty password.
    const password = colon >= 0 ? decoded.slice(colon + 1) : '';
    return password || (colon >= 0 ? decoded.slice(0, colon) : decoded) || undefined;
  }
  return undefined;
}

export const LOCAL_ACTOR_HEADER = 'x-hublet-local-as';

/** Scope lists as header values, joined once per list: cached actors and route grants keep the same arrays. */
const joinedLists = new WeakMap<readonly string[], string>();
function joined(list: readonly string[]): string {
  let value = joinedLists.get(list);
  if (value === undefined) joinedLists.set(list, (value = list.join(', ')));
  return value;
}

/**
 * @param local when set, the app is the CLI's in-process app: the login named in LOCAL_ACTOR_HEADER acts without a token.
 * A listening server never sets it, so the header means nothing over the network.
 */
export function registerAuth(app: FastifyInstance, local: boolean): void {
  app.addHook('onRequest', async (request) => {
    request.ctx.actor = null;
    if (local) {
      const as = request.headers[LOCAL_ACTOR_HEADER];
      if (typeof as === 'string' && as) {
        const user = await findAccount(request.ctx.db, as);
        if (!user || user.type !== 'User') throw new Unauthorized(`No such user: ${as}`);
        request.ctx.actor = localActor(user);
        return;
      }
    }
    const presented = presentedToken(request.headers.authorization);
    if (presented === undefined) return;
    const found = await lookupToken(request.ctx.db, presented, request.ctx.clock.now());
    if (!found.ok) throw new Unauthorized('Bad credentials');
    request.ctx.actor = actorFromToken(found.user, found.token);
  });

  // A route that declares `config.grant` needs a signed-in caller whose token carries it. Checked before the body is
  // validated, as GitHub does: a caller who may not call the route learns nothing from a 422 about its body.
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const config = request.routeOptions.config;
    if (config.grant) requireGrant(request.ctx.actor, config.grant);
    else if (config.auth === 'required') requireActor(request.ctx.actor);
  });

  // GitHub's scope headers: what a classic or OAuth token carries and what the route accepts (`repo, user`); for
  // fine-grained and app tokens, the permission the route accepts (X-Accepted-GitHub-Permissions, renamed).
  app.addHook('onSend', async (request, reply, payload) => {
    const actor = request.ctx.actor;
    const grant = request.routeOptions.config?.grant;
    if (actor && (actor.kind === 'classic' || actor.kind === 'oauth')) {
      reply.header('x-oauth-scopes', joined(actor.scopes));
      reply.header('x-accepted-oauth-scopes', grant ? joined(grant.scopes) : '');
    } else if (actor && actor.kind !== 'local' && grant?.fineGrained) {
      reply.header('x-accepted-service-permissions', `${grant.fineGrained.permission}=${grant.fineGrained.level}`);
    }
    return payload;
  });
}
