// hublet's own site admin API for OAuth apps (GitHub Enterprise registers them only on its web pages):
// POST /admin/oauth-apps registers an app owned by the site and answers its client id and client secret, the secret
// in this response only (`hublet admin app create`).
import type { FastifyInstance } from 'fastify';
import { SITE_ADMIN } from '../core/grants.js';
import { isoUtc } from '../core/timestamps.js';
import { typed } from '../http/typed.js';
import { createSiteApp, type OauthAppRow } from './oauth-apps.js';

/** An app as the admin API shows it; `client_secret` only in the answer that made it. */
function oauthApp(app: OauthAppRow, clientSecret?: string) {
  return {
    id: app.id,
    client_id: app.client_id,
    ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
    name: app.name,
    description: app.description,
    url: app.homepage_url,
    callback_url: app.callback_url,
    created_at: isoUtc(app.created_at),
    updated_at: isoUtc(app.updated_at),
  };
}

const appBody = {
  type: 'object',
  required: ['name', 'callback_url'],
  properties: {
    name: { type: 'string' },
    callback_url: { type: 'string' },
    homepage_url: { type: 'string' },
    description: { type: 'string' },
  },
} as const;

export async function oauthAppRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  app.post(
    '/admin/oauth-apps',
    { schema: { body: appBody }, config: { grant: SITE_ADMIN, resource: 'OauthApplication' } },
    async (request, reply) => {
      const body = request.body;
      const made = await createSiteApp(request.ctx, {
        name: body.name,
        callbackUrl: body.callback_url,
        homepageUrl: body.homepage_url,
        description: body.description,
      });
      return reply.code(201).send(oauthApp(made.app, made.secret));
    },
  );
}
