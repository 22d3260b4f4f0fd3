// The web's routes, registered by page family on one scope, each family a folder: gists/ (the gist pages, writing
// gists, stars, forks and comments), search/, accounts/ (a user's or organization's page), repos/ (a repository's
// pages), settings/ (a person's own: profile, password, tokens, applications), sign-in/ (signing in and out, sign-up,
// OIDC, OAuth consent and the device code), hooks/, migrations/ and audit/ (the webhook and migration settings and the
// audit log of owners); what the pages load (stylesheets, the script, avatars, the image proxy) is asset-routes.ts. The
// shared pieces stay here
// (serve, layout, forms, csrf, viewer, html). They share, one per app, the page cache and the image proxy.
// Pages show what their viewer (the session cookie, viewer.ts) may see (a token changes nothing), are outside the
// API's rate limit, cached by the change stamp per viewer, carry a CSP without inline scripts, and every POST carries a
// checked authenticity token (csrf.ts). A browser (Accept: text/html) that asks for what does not exist, or that it
// may not see, gets the not-found page; every other client gets the API's 404 JSON.
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { HttpError } from '../core/errors.js';
import { exemptFromRateLimit } from '../http/rate-limit.js';
import { accountPageRoutes } from './accounts/account-routes.js';
import { appSettingsRoutes } from './settings/app-settings-routes.js';
import { auditLogPageRoutes } from './audit/audit-log-routes.js';
import { assetRoutes } from './asset-routes.js';
import { gistPageRoutes } from './gists/gist-routes.js';
import { deliveryPageRoutes } from './hooks/delivery-routes.js';
import { hookPageRoutes } from './hooks/hook-routes.js';
import { migrationPageRoutes } from './migrations/migration-routes.js';
import { gistActionRoutes } from './gists/gist-action-routes.js';
import { gistWriteRoutes } from './gists/gist-write-routes.js';
import { ImageProxy } from './image-proxy.js';
import { checkForm, CSRF_FIELD } from './csrf.js';
import { deviceRoutes } from './sign-in/device-routes.js';
import { field, type FormBody } from './forms.js';
import { errorPage, notFoundPage, securityHeaders } from './layout.js';
import { oauthPageRoutes } from './sign-in/oauth-routes.js';
import { PageCache } from './page-cache.js';
import { oidcRoutes } from './sign-in/oidc-routes.js';
import { loadRenderers, renderersLoaded } from './renderers.js';
import { repoPageRoutes } from './repos/repo-routes.js';
import { securityRoutes } from './settings/security-routes.js';
import { searchPageRoutes } from './search/search-routes.js';
import { profileRoutes } from './settings/profile-routes.js';
import { htmlPage, PageRefusal, send, wantsHtml, type WebState } from './serve.js';
import { signInRoutes } from './sign-in/sign-in-routes.js';
import { signupRoutes } from './sign-in/signup-routes.js';
import { tokenRoutes } from './settings/token-routes.js';
import { registerViewer } from './viewer.js';

/** Every POST of the web is a form: its authenticity token is checked before the handler runs (csrf.ts). */
function formAuthenticity(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  try {
    checkForm(request, field(request.body as FormBody, CSRF_FIELD));
  } catch (err) {
    done(err as Error);
    return;
  }
  done();
}

export async function webRoutes(app: FastifyInstance): Promise<void> {
  exemptFromRateLimit(app);
  const state: WebState = { cache: new PageCache(app.hublet.config.responseCacheMiB * 1024 * 1024), images: new ImageProxy(app.hublet) };
  app.addHook('onClose', () => state.images.close());

  // Pages render with libraries loaded by the first page request (renderers.ts); later requests pass straight on.
  app.addHook('onRequest', (_request, _reply, done) => {
    if (renderersLoaded()) return done();
    loadRenderers().then(() => done(), done);
  });
  // Who is looking (the session cookie), forms as posted by browsers, and every POST's authenticity checked (csrf.ts).
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 1024 * 1024 });
  registerViewer(app);
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST')) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), formAuthenticity];
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    securityHeaders(reply);
    return payload;
  });
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof PageRefusal && wantsHtml(request)) {
      return send(reply, htmlPage(errorPage(request.ctx.urls.base, error.title, error.message), error.status));
    }
    if (error instanceof HttpError && error.status === 404 && wantsHtml(request)) {
      return send(reply, htmlPage(notFoundPage(request.ctx.urls.base), 404));
    }
    // A refused form (forged, expired, cross-site) is a page a person can read; programs get the API's JSON.
    if (error instanceof HttpError && error.status < 500 && wantsHtml(request)) {
      const title = error.status === 403 ? 'Request refused' : 'Something is wrong with this request';
      return send(reply, htmlPage(errorPage(request.ctx.urls.base, title, error.message), error.status));
    }
    // Everything else is answered by the app's handler, in the API's shape.
    throw error;
  });

  assetRoutes(app, state.images);
  signInRoutes(app);
  signupRoutes(app);
  tokenRoutes(app);
  securityRoutes(app);
  profileRoutes(app);
  deviceRoutes(app);
  oauthPageRoutes(app);
  appSettingsRoutes(app);
  oidcRoutes(app);
  hookPageRoutes(app);
  deliveryPageRoutes(app);
  migrationPageRoutes(app);
  auditLogPageRoutes(app);
  searchPageRoutes(app, state);
  gistPageRoutes(app, state);
  gistWriteRoutes(app);
  gistActionRoutes(app, state.images);
  accountPageRoutes(app, state);
  repoPageRoutes(app, state);
}
