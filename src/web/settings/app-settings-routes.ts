// A person's OAuth apps at GitHub's addresses: GET /settings/applications (what they authorized, "Revoke" on each,
// and the apps they registered), POST /settings/connections/applications/{client_id}/revoke (the grant goes and every
// token of that app for them is revoked at once), GET /settings/connections/applications/{client_id} (the link apps
// give people to review their access), GET /settings/applications/new and POST /settings/applications (register),
// GET /settings/applications/{id} and POST /settings/applications/{id}/client_secret (a new secret, shown once).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appsOwnedBy, findAppByClientId, generateOwnAppSecret, registerOwnApp, requireOwnApp } from '../../accounts/oauth-apps.js';
import { authorizedApps, oauthAuthorizationEntry, revokeGrant } from '../../accounts/oauth-grants.js';
import type { ServiceContext } from '../../core/context.js';
import { NotFound, ValidationFailed, type FieldError } from '../../core/errors.js';
import { pathParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import { APP_FIELDS, applicationPage, applicationsPage, newApplicationPage } from './app-settings-pages.js';
import { csrfToken } from '../csrf.js';
import { field, formSchema, formErrors } from '../forms.js';
import { htmlPage, send, webConfig as config } from '../serve.js';
import { asViewer, type Viewer } from '../viewer.js';

const idParams = pathParams('id');
const clientParams = pathParams('client_id');

/** An app's id from the path: digits only (anything else names no app). */
function appId(raw: string): number {
  if (!/^[0-9]{1,9}$/.test(raw)) throw new NotFound();
  return Number(raw);
}

async function sendApplications(request: FastifyRequest, reply: FastifyReply, ctx: ServiceContext, viewer: Viewer, notice?: string) {
  const markup = applicationsPage({
    base: ctx.urls.base,
    csrf: csrfToken(request, reply),
    authorized: await authorizedApps(ctx.db, viewer.user.id),
    owned: await appsOwnedBy(ctx.db, viewer.user.id),
    notice,
  });
  return send(reply, htmlPage(markup));
}

export function appSettingsRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);

  app.get('/settings/applications', { schema: { querystring: { type: 'object' } }, config }, async (request, reply) =>
    asViewer(request, reply, (ctx, viewer) => sendApplications(request, reply, ctx, viewer)),
  );

  app.get('/settings/connections/applications/:client_id', { schema: { params: clientParams }, config }, async (request, reply) =>
    reply.redirect(`${request.ctx.urls.base}/settings/applications#app-${encodeURIComponent(request.params.client_id)}`, 303),
  );

  app.post(
    '/settings/connections/applications/:client_id/revoke',
    { schema: { params: clientParams, ...formSchema }, config },
    async (request, reply) =>
      asViewer(
        request,
        reply,
        async (ctx, viewer) => {
          const client = await findAppByClientId(ctx.db, request.params.client_id, ctx.clock.now());
          const revoked =
            client &&
            (await revokeGrant(ctx.db, viewer.user.id, client.id, ctx.clock.now(), (trx, scopes) =>
              ctx.audit.record(trx, ctx, oauthAuthorizationEntry('destroy', client, viewer.user, scopes)),
            ));
          if (!client || !revoked) throw new NotFound();
          return sendApplications(request, reply, ctx, viewer, `You revoked the access of ${client.name}.`);
        },
        '/settings/applications',
      ),
  );

  app.get('/settings/applications/new', { schema: { querystring: { type: 'object' } }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) =>
      send(reply, htmlPage(newApplicationPage({ base: ctx.urls.base, csrf: csrfToken(request, reply) }))),
    ),
  );

  app.post('/settings/applications', { schema: formSchema, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const body = request.body;
        try {
          const made = await registerOwnApp(ctx, {
            name: field(body, 'name'),
            homepageUrl: field(body, 'homepage_url').trim(),
            description: field(body, 'description'),
            callbackUrl: field(body, 'callback_url').trim(),
          });
          return reply.redirect(`${ctx.urls.base}/settings/applications/${made.id}`, 303);
        } catch (err) {
          if (!(err instanceof ValidationFailed)) throw err;
          const errors = formErrors(err.extra.errors as FieldError[], APP_FIELDS);
          const markup = newApplicationPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), submitted: body, errors });
          return send(reply, htmlPage(markup, 422));
        }
      },
      '/settings/applications/new',
    ),
  );

  app.get('/settings/applications/:id', { schema: { params: idParams }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const own = await requireOwnApp(ctx, appId(request.params.id));
      return send(reply, htmlPage(applicationPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), app: own })));
    }),
  );

  app.post('/settings/applications/:id/client_secret', { schema: { params: idParams, ...formSchema }, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const made = await generateOwnAppSecret(ctx, appId(request.params.id));
        const markup = applicationPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), app: made.app, secret: made.secret });
        return send(reply, htmlPage(markup, 201));
      },
      '/settings/applications',
    ),
  );
}
