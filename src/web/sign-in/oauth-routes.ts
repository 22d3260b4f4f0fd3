// The web application flow's pages (GitHub's "Authorizing OAuth apps"): GET /login/oauth/authorize checks the app and
// its redirect_uri (a mismatch is an error page, never a redirect), sends a visitor to sign in first, and shows the
// consent page, or, when the person already granted every scope asked for, goes straight back with a code, as GitHub
// does. POST /login/oauth/authorize (a CSRF-checked form) goes back to the redirect_uri with `code` and `state`, or
// with `error=access_denied` on Cancel. The code is exchanged at POST /login/oauth/access_token (accounts/oauth-routes.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptedRedirectUri, findAppByClientId, type OauthAppRow } from '../../accounts/oauth-apps.js';
import { createAuthorizationCode, grantedScopes, oauthAuthorizationEntry, parseScopes } from '../../accounts/oauth-grants.js';
import { findAccountById } from '../../accounts/store.js';
import { hasAnyScope } from '../../core/scopes.js';
import { typed } from '../../http/typed.js';
import { csrfToken } from '../csrf.js';
import { field, formSchema } from '../forms.js';
import { consentPage } from './oauth-pages.js';
import { htmlPage, PageRefusal, queryValue, send, webConfig as config } from '../serve.js';
import { asViewer, type Viewer } from '../viewer.js';

const ACCESS_DENIED_URI = 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#access-denied';

interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  /** Undefined when the request has no `scope` (then the scopes already granted, as GitHub does). */
  scope: string | undefined;
  state: string;
}

function last(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.at(-1) : value;
}

/** The app and where to send the person back; a refusal (a page for browsers) when either is wrong. */
async function checkRequest(request: FastifyRequest, p: AuthorizeParams) {
  const app = await findAppByClientId(request.ctx.db, p.clientId, request.ctx.clock.now());
  if (!app) throw new PageRefusal(404, 'Application not found', 'There is no OAuth app with this client_id on this site.');
  const redirectUri = acceptedRedirectUri(app.callback_url, p.redirectUri);
  if (!redirectUri) {
    const why =
      'The redirect_uri is not associated with this application. The application might be misconfigured or could be trying to redirect you to a website you weren’t expecting.';
    throw new PageRefusal(400, 'Redirect URI mismatch', why);
  }
  return { app, redirectUri };
}

/** The redirect URI with these parameters added (its own query kept). */
function withParams(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== '') url.searchParams.set(k, v);
  return url.href;
}

async function redirectWithCode(
  request: FastifyRequest,
  reply: FastifyReply,
  o: { app: OauthAppRow; viewer: Viewer; redirectUri: string; scopes: string[]; state: string },
): Promise<FastifyReply> {
  const ctx = request.ctx;
  const code = await createAuthorizationCode(
    ctx.db,
    { appId: o.app.id, userId: o.viewer.user.id, scopes: o.scopes, redirectUri: o.redirectUri },
    ctx.clock.now(),
    (trx, grant) => ctx.audit.record(trx, ctx, oauthAuthorizationEntry('create', o.app, o.viewer.user, grant.scopes, grant.scopesWere)),
  );
  return reply.header('cache-control', 'no-store').redirect(withParams(o.redirectUri, { code, state: o.state }), 302);
}

/**
 * The consent page's forms post here and are sent on to the app's redirect URI: its origin joins the page's
 * `form-action` (browsers check a form's redirects against it too).
 */
const formTargets = new WeakMap<FastifyReply, string>();

async function allowFormTarget(_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const origin = formTargets.get(reply);
  const csp = reply.getHeader('content-security-policy');
  if (origin && typeof csp === 'string')
    reply.header('content-security-policy', csp.replace("form-action 'self'", `form-action 'self' ${origin}`));
  return payload;
}

const authorizeQuery = {
  type: 'object',
  properties: { client_id: queryValue, redirect_uri: queryValue, scope: queryValue, state: queryValue },
} as const;

export function oauthPageRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);

  app.get(
    '/login/oauth/authorize',
    { schema: { querystring: authorizeQuery }, config, onSend: allowFormTarget },
    async (request, reply) => {
      const q = request.query;
      const p = {
        clientId: last(q.client_id) ?? '',
        redirectUri: last(q.redirect_uri) ?? '',
        scope: last(q.scope),
        state: last(q.state) ?? '',
      };
      const checked = await checkRequest(request, p);
      return asViewer(request, reply, async (_ctx, viewer) => {
        const granted = await grantedScopes(request.ctx.db, viewer.user.id, checked.app.id);
        const scopes = p.scope === undefined ? (granted ?? []) : parseScopes(p.scope);
        if (granted && scopes.every((s) => hasAnyScope(granted, [s])))
          return redirectWithCode(request, reply, { ...checked, viewer, scopes, state: p.state });
        const owner = checked.app.owner_id === null ? undefined : await findAccountById(request.ctx.db, checked.app.owner_id);
        formTargets.set(reply, new URL(checked.redirectUri).origin);
        const markup = consentPage({
          base: request.ctx.urls.base,
          token: csrfToken(request, reply),
          login: viewer.user.login,
          appName: checked.app.name,
          appOwner: owner?.login ?? null,
          homepageUrl: checked.app.homepage_url,
          clientId: checked.app.client_id,
          redirectUri: checked.redirectUri,
          scopes,
          state: p.state,
        });
        return send(reply, htmlPage(markup));
      });
    },
  );

  app.post('/login/oauth/authorize', { schema: formSchema, config }, async (request, reply) => {
    const body = request.body;
    const p = {
      clientId: field(body, 'client_id'),
      redirectUri: field(body, 'redirect_uri'),
      scope: field(body, 'scope'),
      state: field(body, 'state'),
    };
    const checked = await checkRequest(request, p);
    const again = new URLSearchParams({ client_id: p.clientId, redirect_uri: p.redirectUri, scope: p.scope, state: p.state });
    return asViewer(
      request,
      reply,
      async (_ctx, viewer) => {
        if (field(body, 'authorize') !== '1') {
          const denied = {
            error: 'access_denied',
            error_description: 'The user has denied your application access.',
            error_uri: ACCESS_DENIED_URI,
            state: p.state,
          };
          return reply.redirect(withParams(checked.redirectUri, denied), 302);
        }
        return redirectWithCode(request, reply, { ...checked, viewer, scopes: parseScopes(p.scope), state: p.state });
      },
      `/login/oauth/authorize?${again}`,
    );
  });
}
