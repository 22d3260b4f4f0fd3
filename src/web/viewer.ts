// Who is looking at a page: the person whose session cookie names a live session (accounts/sessions.ts), or nobody.
// The cookie is HttpOnly and SameSite=Lax, and over HTTPS `Secure` with the `__Host-` prefix; pages read what the
// viewer may see through the services with the viewer's own authority (a `local` actor), never a token's. `asViewer` runs a
// page only for a signed-in person, sending anyone else to sign in.
import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endSession, findSession, SESSION_LIFETIME_MS, startSession } from '../accounts/sessions.js';
import type { ServiceContext } from '../core/context.js';
import type { Actor } from '../core/grants.js';
import type { UserRow } from '../db/schema.js';
import type { WebSessionRow } from '../db/tables/sign-in.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person of a web request, or null (set by the web scope's onRequest hook). */
    viewer: Viewer | null;
  }
}

export interface Viewer {
  user: UserRow;
  /** The session id the cookie carries (the CSRF token of a signed-in person's forms is bound to it). */
  sessionId: string;
  method: WebSessionRow['method'];
}

/** Whether the site is served over HTTPS (its base URL says so, behind a proxy too): cookies are then Secure. */
function servedOverHttps(request: FastifyRequest): boolean {
  return request.ctx.urls.base.startsWith('https:');
}

/** A cookie name of this site: `__Host-` prefixed over HTTPS (Secure, Path=/, no Domain: bound to this host). */
export function cookieName(request: FastifyRequest, name: string): string {
  return servedOverHttps(request) ? `__Host-${name}` : name;
}

/** Sets one of the site's cookies (HttpOnly, SameSite=Lax, Path=/; Secure over HTTPS), for a session or until cleared. */
export function setSiteCookie(reply: FastifyReply, name: string, value: string, maxAgeSeconds?: number): void {
  reply.setCookie(cookieName(reply.request, name), value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: servedOverHttps(reply.request),
    maxAge: maxAgeSeconds,
  });
}

export function clearSiteCookie(reply: FastifyReply, name: string): void {
  reply.clearCookie(cookieName(reply.request, name), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: servedOverHttps(reply.request),
  });
}

const SESSION_COOKIE = 'hublet_session';

/** Reads the session cookie of every web request into `request.viewer`. */
export function registerViewer(app: FastifyInstance): void {
  app.decorateRequest('viewer', null);
  // A callback hook: a visitor without a session cookie (most requests) passes on without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const id = request.cookies[cookieName(request, SESSION_COOKIE)];
    if (!id) return done();
    findSession(request.ctx.db, id, request.ctx.clock.now()).then((live) => {
      if (live) request.viewer = { user: live.user, sessionId: id, method: live.session.method };
      done();
    }, done);
  });
}

/**
 * Signs a person in: a new session (a new id, whatever cookie came with the request) and its cookie, with the audit log's
 * `user.login` (how: `password` or `oidc`) in the same transaction.
 */
export async function signIn(request: FastifyRequest, reply: FastifyReply, user: UserRow, method: WebSessionRow['method']): Promise<void> {
  const ctx = request.ctx;
  const previous = request.viewer;
  const id = await ctx.db.transaction().execute(async (trx) => {
    if (previous) await endSession(trx, previous.sessionId);
    const started = await startSession(trx, user.id, method, ctx.clock.now());
    await ctx.audit.record(trx, ctx, { action: 'user.login', actor: user, user, fields: { method } });
    return started;
  });
  setSiteCookie(reply, SESSION_COOKIE, id, SESSION_LIFETIME_MS / 1000);
  request.viewer = { user, sessionId: id, method };
}

/** Signs the viewer out: the session ends, with the audit log's `user.logout` (a visitor with no session: the cookie goes). */
export async function signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const ctx = request.ctx;
  const viewer = request.viewer;
  if (viewer) {
    await ctx.db.transaction().execute(async (trx) => {
      await endSession(trx, viewer.sessionId);
      await ctx.audit.record(trx, ctx, { action: 'user.logout', actor: viewer.user, user: viewer.user });
    });
  }
  clearSiteCookie(reply, SESSION_COOKIE);
  request.viewer = null;
}

/** The person's own full authority, as the CLI's local mode has it: pages act and read through the same services. */
function viewerActor(user: UserRow): Actor {
  return { user, kind: 'local', token: null, scopes: [], permissions: {}, appId: null };
}

/** The request's context as the page's viewer: anonymous, or the signed-in person. */
export function pageContext(request: FastifyRequest): ServiceContext {
  const ctx = Object.create(request.ctx) as ServiceContext;
  ctx.actor = request.viewer ? viewerActor(request.viewer.user) : null;
  return ctx;
}

/**
 * Runs a page for the signed-in person with their own authority; anyone else is sent to sign in, coming back to this
 * page (a GET) or to `back` (a refused POST).
 */
export async function asViewer(
  request: FastifyRequest,
  reply: FastifyReply,
  run: (ctx: ServiceContext, viewer: Viewer) => Promise<FastifyReply>,
  back?: string,
): Promise<FastifyReply> {
  const viewer = request.viewer;
  if (!viewer) {
    const returnTo = request.method === 'GET' ? request.url : back;
    const query = returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : '';
    return reply.redirect(`${request.ctx.urls.base}/login${query}`, 303);
  }
  return run(pageContext(request), viewer);
}
