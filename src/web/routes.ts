// The web's routes, registered by page family on one scope: the gist pages (gist-routes.ts), a user's or
// organization's page (account-routes.ts), a repository's pages (repo-routes.ts), and what the pages load (the
// stylesheets and the image proxy, asset-routes.ts); with what they share, one per app: the page cache and the image
// proxy. Pages are anonymous (a token changes nothing they show), outside the API's rate limit, cached by the change
// stamp, and carry a CSP without inline scripts. A browser (Accept: text/html) that asks for what does not exist, or
// that it may not see, gets the not-found page; every other client gets the API's 404 JSON.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../core/errors.js';
import { exemptFromRateLimit } from '../http/rate-limit.js';
import { accountPageRoutes } from './account-routes.js';
import { assetRoutes } from './asset-routes.js';
import { gistPageRoutes } from './gist-routes.js';
import { ImageProxy } from './image-proxy.js';
import { notFoundPage, securityHeaders } from './layout.js';
import { PageCache } from './page-cache.js';
import { loadRenderers, renderersLoaded } from './renderers.js';
import { repoPageRoutes } from './repo-routes.js';
import { htmlPage, send, type WebState } from './serve.js';

/** Whether the client asked for HTML (browsers do): it gets the HTML not-found page rather than the API's JSON. */
function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(request.headers.accept ?? '');
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
  app.addHook('onSend', async (_request, reply, payload) => {
    securityHeaders(reply);
    return payload;
  });
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof HttpError && error.status === 404 && wantsHtml(request)) {
      return send(reply, htmlPage(notFoundPage(request.ctx.urls.base), 404));
    }
    // Everything else is answered by the app's handler, in the API's shape.
    throw error;
  });

  assetRoutes(app, state.images);
  gistPageRoutes(app, state);
  accountPageRoutes(app, state);
  repoPageRoutes(app, state);
}
