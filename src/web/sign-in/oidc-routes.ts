// Single sign-on with OpenID Connect: GET /login/oidc sends the browser to the provider (authorization code flow with
// PKCE, state and nonce, oidc-client.ts), and GET /login/oidc/callback (the redirect URI to register at the provider)
// signs in the account linked to the provider's `sub`, or makes it on a first sign-in when auto-create is on
// (accounts/oidc-identities.ts); POST /login/oidc/connect links the provider account of a signed-in person instead
// (from /settings/security), which is how an existing account gets single sign-on. What must come back (state, nonce, PKCE verifier, return_to) waits in an HttpOnly
// cookie sealed with the site's secret key, for 10 minutes and one callback: nothing is stored server-side, so any
// server process on the database can finish a sign-in another started. Every refusal is a page that says what to do.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createLinkedUser, type FirstSignIn, findLinkedUser, linkIdentity } from '../../accounts/oidc-identities.js';
import { NotFound } from '../../core/errors.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { UserRow } from '../../db/schema.js';
import { typed } from '../../http/typed.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import { type FlowChecks, OidcClient, OidcFailure, providerName } from './oidc-client.js';
import { formSchema } from '../forms.js';
import { webConfig as config, htmlPage, queryValue, send } from '../serve.js';
import { home, localPath } from './sign-in-routes.js';
import { clearSiteCookie, cookieName, setSiteCookie, signIn } from '../viewer.js';

const PENDING_COOKIE = 'hublet_oidc';
const PENDING_CONTEXT = 'oidc sign-in';
const PENDING_LIFETIME_MS = 10 * 60 * 1000;

interface PendingSignIn extends FlowChecks {
  issuer: string;
  returnTo: string | null;
  expiresAt: number;
  /** Connecting the provider account to this signed-in user (from /settings/security) rather than signing in. */
  connectUserId?: number;
}

const startQuery = { type: 'object', properties: { return_to: queryValue } } as const;
/** The provider's answer (read by the library from the raw query; declared here so the schema says what comes). */
const callbackQuery = {
  type: 'object',
  properties: { code: queryValue, state: queryValue, iss: queryValue, error: queryValue, error_description: queryValue },
} as const;

/** The pending sign-in the callback's cookie carries, or undefined (none, forged, for another issuer, expired). */
function openPending(request: FastifyRequest, sealed: string | undefined, issuer: string): PendingSignIn | undefined {
  if (!sealed || sealed.length > 4096) return undefined;
  let p: Partial<PendingSignIn>;
  try {
    p = JSON.parse(request.ctx.secrets.open(sealed, PENDING_CONTEXT));
  } catch {
    return undefined;
  }
  const strings = [p.state, p.nonce, p.codeVerifier, p.issuer].every((v) => typeof v === 'string');
  if (!strings || p.issuer !== issuer || typeof p.expiresAt !== 'number' || p.expiresAt <= request.ctx.clock.now().getTime())
    return undefined;
  if (p.connectUserId !== undefined && !Number.isSafeInteger(p.connectUserId)) return undefined;
  return { ...(p as PendingSignIn), returnTo: localPath(p.returnTo) ?? null };
}

/** A refusal the person can read, with the way back to the sign-in page. */
function problemPage(request: FastifyRequest, reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  const base = request.ctx.urls.base;
  const body = html`<div class="form-page"><h1>${title}</h1><p>${message}</p><p><a href="${base}/login">Back to sign in</a></p></div>`;
  return send(reply, htmlPage(page({ title: `${title} · hublet`, base, noindex: true, body }), status));
}

/** The page for a failure of the flow itself (the provider's or the response's). */
function failurePage(request: FastifyRequest, reply: FastifyReply, failure: OidcFailure, name: string): FastifyReply {
  request.log.warn({ kind: failure.kind, detail: failure.detail }, 'OpenID Connect sign-in failed');
  switch (failure.kind) {
    case 'unreachable':
      return problemPage(
        request,
        reply,
        502,
        `Cannot reach ${name}`,
        `hublet could not reach ${name} to sign you in: ${failure.detail}. Try again later, or tell a site administrator.`,
      );
    case 'refused':
      return problemPage(request, reply, 403, 'Not signed in', `${name} did not sign you in (${failure.detail}).`);
    case 'rejected':
      return problemPage(request, reply, 400, 'Not signed in', `${name} did not accept this sign-in (${failure.detail}). Start again.`);
    case 'unverified':
      return problemPage(
        request,
        reply,
        400,
        'Not signed in',
        `The answer from ${name} could not be verified (${failure.detail}), so you were not signed in. Start again.`,
      );
  }
}

/** The page for someone the provider vouched for whose account could not be made. */
function notCreatedPage(request: FastifyRequest, reply: FastifyReply, refusal: Exclude<FirstSignIn, { ok: true }>, name: string) {
  switch (refusal.reason) {
    case 'no_username':
      return problemPage(
        request,
        reply,
        422,
        'No account made',
        `${name} did not send a username (preferred_username), so no hublet account could be made for you. Ask a site administrator.`,
      );
    case 'invalid_username':
      return problemPage(
        request,
        reply,
        422,
        'No account made',
        `Your username at ${name}, “${refusal.username}”, cannot be a hublet login: ${refusal.message}. Ask a site administrator to create your account.`,
      );
    case 'login_taken':
      return problemPage(
        request,
        reply,
        409,
        'Login already taken',
        `The login “${refusal.username}” belongs to another hublet account, so you were not signed in. Ask a site administrator.`,
      );
  }
}

/**
 * The callback of a connection: the provider's account is linked to the signed-in person who started it (the same
 * session: a callback in another browser, or after signing out, is refused), unless it is linked to someone else.
 */
async function connect(
  request: FastifyRequest,
  reply: FastifyReply,
  client: OidcClient,
  pending: PendingSignIn,
  query: string,
): Promise<FastifyReply> {
  const name = providerName(request.ctx.config);
  const viewer = request.viewer;
  if (!viewer || viewer.user.id !== pending.connectUserId)
    return problemPage(request, reply, 403, 'Not connected', `Sign in to hublet first, then connect your ${name} account again.`);
  let identity: Awaited<ReturnType<OidcClient['finish']>>;
  try {
    identity = await client.finish(new URL(`${request.ctx.urls.base}/login/oidc/callback${query}`), pending);
  } catch (err) {
    if (err instanceof OidcFailure) return failurePage(request, reply, err, name);
    throw err;
  }
  const linked = await findLinkedUser(request.ctx.db, identity);
  if (linked && linked.id !== viewer.user.id)
    return problemPage(request, reply, 409, 'Not connected', `This ${name} account is already connected to another hublet account.`);
  if (!linked) {
    try {
      await linkIdentity(request.ctx.db, identity, viewer.user.id, request.ctx.clock.now());
    } catch (err) {
      // The same identity linked a moment ago by a parallel callback: whoever it went to is checked again next time.
      if (!isUniqueViolation(err)) throw err;
      return problemPage(request, reply, 409, 'Not connected', `This ${name} account is already connected to a hublet account.`);
    }
  }
  return reply.redirect(`${request.ctx.urls.base}/settings/security`, 303);
}

export function oidcRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);
  const c = fastify.hublet.config;
  const client =
    c.oidcIssuer && c.oidcClientId && c.oidcClientSecret
      ? new OidcClient({ issuer: c.oidcIssuer, clientId: c.oidcClientId, clientSecret: c.oidcClientSecret })
      : undefined;
  const name = providerName(c);
  const redirectUri = (request: FastifyRequest) => `${request.ctx.urls.base}/login/oidc/callback`;

  /** Sends the browser to the provider, the pending sign-in sealed in its cookie. */
  const startFlow = async (
    request: FastifyRequest,
    reply: FastifyReply,
    client: OidcClient,
    pending: Pick<PendingSignIn, 'returnTo' | 'connectUserId'>,
  ) => {
    let started: Awaited<ReturnType<OidcClient['start']>>;
    try {
      started = await client.start(redirectUri(request));
    } catch (err) {
      if (err instanceof OidcFailure) return failurePage(request, reply, err, name);
      throw err;
    }
    const sealed: PendingSignIn = {
      ...started.checks,
      issuer: client.issuer,
      ...pending,
      expiresAt: request.ctx.clock.now().getTime() + PENDING_LIFETIME_MS,
    };
    setSiteCookie(reply, PENDING_COOKIE, request.ctx.secrets.seal(JSON.stringify(sealed), PENDING_CONTEXT), PENDING_LIFETIME_MS / 1000);
    return reply.redirect(started.url.href, 303);
  };

  app.get('/login/oidc', { schema: { querystring: startQuery }, config }, async (request, reply) => {
    if (!client) throw new NotFound();
    reply.header('cache-control', 'no-store');
    const returnTo = localPath(request.query.return_to);
    if (request.viewer) return reply.redirect(returnTo ?? home(request, request.viewer.user.login), 303);
    return startFlow(request, reply, client, { returnTo: returnTo ?? null });
  });

  // A signed-in person connects their provider account (a CSRF-checked form on /settings/security).
  app.post('/login/oidc/connect', { schema: formSchema, config }, async (request, reply) => {
    if (!client) throw new NotFound();
    if (!request.viewer) return reply.redirect(`${request.ctx.urls.base}/login?return_to=${encodeURIComponent('/settings/security')}`, 303);
    return startFlow(request, reply, client, { returnTo: '/settings/security', connectUserId: request.viewer.user.id });
  });

  app.get('/login/oidc/callback', { schema: { querystring: callbackQuery }, config }, async (request, reply) => {
    if (!client) throw new NotFound();
    reply.header('cache-control', 'no-store');
    // One callback per start: the cookie goes whatever happens next.
    const pending = openPending(request, request.cookies[cookieName(request, PENDING_COOKIE)], client.issuer);
    clearSiteCookie(reply, PENDING_COOKIE);
    if (!pending)
      return problemPage(
        request,
        reply,
        400,
        'Sign-in expired',
        'This sign-in was not started in this browser, or took longer than 10 minutes. Start again.',
      );
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    if (pending.connectUserId !== undefined) return connect(request, reply, client, pending, query);
    let user: UserRow;
    try {
      const identity = await client.finish(new URL(redirectUri(request) + query), pending);
      const linked = await findLinkedUser(request.ctx.db, identity);
      if (!linked && !request.ctx.config.oidcAutoCreate)
        return problemPage(
          request,
          reply,
          403,
          'No account',
          `There is no hublet account for your ${name} account. Ask a site administrator.`,
        );
      const made = linked ? { ok: true as const, user: linked } : await createLinkedUser(request.ctx, identity, await identity.profile());
      if (!made.ok) return notCreatedPage(request, reply, made, name);
      user = made.user;
    } catch (err) {
      if (err instanceof OidcFailure) return failurePage(request, reply, err, name);
      throw err;
    }
    if (user.suspended_at) return problemPage(request, reply, 403, 'Not signed in', 'Your account is suspended. Ask a site administrator.');
    await signIn(request, reply, user, 'oidc');
    return reply.redirect(pending.returnTo ?? home(request, user.login), 303);
  });
}
