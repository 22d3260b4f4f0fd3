// Signing in and out on the web at GitHub's addresses: GET /login (the form), POST /session (checks the password,
// starts a session with a new id, goes back to `return_to`, a local path only), GET and POST /logout.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkPassword } from '../../accounts/sign-in.js';
import { NotFound } from '../../core/errors.js';
import { typed } from '../../http/typed.js';
import { csrfToken } from '../csrf.js';
import { providerName } from './oidc-client.js';
import { field, formSchema, type FormBody } from '../forms.js';
import { signInPage, signOutPage } from './sign-in-page.js';
import { htmlPage, send, webConfig as config } from '../serve.js';
import { signIn, signOut } from '../viewer.js';

const returnQuery = { type: 'object', properties: { return_to: { type: ['string', 'array'], items: { type: 'string' } } } } as const;

/** `return_to` when it is a path on this site (never another host: no open redirect), else undefined. */
export function localPath(raw: unknown): string | undefined {
  const value = Array.isArray(raw) ? raw.at(-1) : raw;
  if (typeof value !== 'string' || value.length > 4096 || !value.startsWith('/')) return undefined;
  // No second slash or backslash (a host to browsers), no control character or space (header splitting, tricks).
  if (value.startsWith('//') || value.includes('\\') || [...value].some((c) => c <= ' ' || c === '\u007f')) return undefined;
  const u = new URL(value, 'http://hublet.invalid');
  if (u.origin !== 'http://hublet.invalid') return undefined;
  return u.pathname + u.search + u.hash;
}

/** Where a person lands after signing in without a `return_to`: their gists. */
export function home(request: FastifyRequest, login: string): string {
  return `${request.ctx.urls.base}/gist/${login}`;
}

/** The "Sign in with …" button when single sign-on is set up (its routes: oidc-routes.ts). */
function ssoButton(request: FastifyRequest, returnTo: string): { name: string; href: string } | undefined {
  const c = request.ctx.config;
  if (!c.oidcIssuer) return undefined;
  return { name: providerName(c), href: `${request.ctx.urls.base}/login/oidc?return_to=${encodeURIComponent(returnTo)}` };
}

/** The sign-in page, fresh or after a refused attempt (status, message, the name typed kept). */
function sendSignInPage(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: { returnTo?: string; error?: string; status?: number; submitted?: FormBody } = {},
): FastifyReply {
  const c = request.ctx.config;
  const base = request.ctx.urls.base;
  const returnTo = opts.returnTo ?? '';
  const markup = signInPage({
    base,
    token: csrfToken(request, reply),
    returnTo,
    submitted: opts.submitted,
    error: opts.error,
    passwordSignIn: c.passwordSignIn,
    sso: ssoButton(request, returnTo),
    signupHref: c.signup === 'open' ? `${base}/signup` : undefined,
  });
  return send(reply, htmlPage(markup, opts.status ?? 200));
}

const REFUSALS = {
  invalid: { status: 401, message: 'Incorrect username or password.' },
  throttled: { status: 429, message: 'Too many sign-in attempts. Wait a few minutes, then try again.' },
  suspended: { status: 403, message: 'Your account is suspended. Ask a site administrator.' },
} as const;

export function signInRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);

  app.get('/login', { schema: { querystring: returnQuery }, config }, async (request, reply) => {
    const returnTo = localPath(request.query.return_to);
    if (request.viewer) return reply.redirect(returnTo ?? home(request, request.viewer.user.login), 303);
    return sendSignInPage(request, reply, { returnTo });
  });

  app.post('/session', { schema: formSchema, config }, async (request, reply) => {
    const body = request.body;
    const returnTo = localPath(field(body, 'return_to'));
    if (!request.ctx.config.passwordSignIn) throw new NotFound();
    const checked = await checkPassword(
      request.ctx.db,
      { name: field(body, 'login'), password: field(body, 'password'), address: request.ip, cost: request.ctx.config.passwordCost },
      request.ctx.clock.now(),
    );
    request.ctx.metrics.signIn(checked.ok ? 'success' : checked.reason === 'throttled' ? 'throttled' : 'failure');
    if (!checked.ok && checked.reason === 'invalid' && checked.account) {
      // A wrong password for an account that exists (a name that is no account is not logged: nothing to name).
      const { ctx } = request;
      const account = checked.account;
      await ctx.db
        .transaction()
        .execute((trx) =>
          ctx.audit.record(trx, ctx, { action: 'user.failed_login', actor: account, user: account, fields: { method: 'password' } }),
        );
    }
    if (!checked.ok) {
      const refusal = REFUSALS[checked.reason];
      return sendSignInPage(request, reply, { returnTo, error: refusal.message, status: refusal.status, submitted: body });
    }
    await signIn(request, reply, checked.user, 'password');
    return reply.redirect(returnTo ?? home(request, checked.user.login), 303);
  });

  app.get('/logout', { schema: { querystring: returnQuery }, config }, async (request, reply) => {
    if (!request.viewer) return reply.redirect(`${request.ctx.urls.base}/login`, 303);
    return send(reply, htmlPage(signOutPage(request.ctx.urls.base, csrfToken(request, reply))));
  });

  app.post('/logout', { schema: formSchema, config }, async (request, reply) => {
    await signOut(request, reply);
    return reply.redirect(`${request.ctx.urls.base}/gist/discover`, 303);
  });
}
