// The GitHub Enterprise admin API (site admins only): users, organizations (create, rename, delete), site admins,
// suspensions, users' tokens and passwords (hublet's own), and the instance's statistics.
import type { FastifyInstance } from 'fastify';
import { pagedList, pagingQuery } from '../http/pagination.js';
import { orgParams, userParams } from '../http/route-params.js';
import { SITE_ADMIN } from '../core/grants.js';
import { absentBodyIsEmpty } from '../http/body.js';
import { typed } from '../http/typed.js';
import { changeSiteAdmin, changeSuspension, renameAccount } from './admin.js';
import { authorization, simpleOrganization, simpleUser } from './present.js';
import { enterpriseStats, STAT_TYPES } from './stats.js';
import { createOrganization, createUser, deleteUser, setUserPassword } from './service.js';
import { createUserToken, listUserTokens, revokeTokens } from './token-service.js';
import { created } from '../http/replies.js';

const passwordBody = { type: 'object', required: ['password'], properties: { password: { type: 'string' } } } as const;
const renameBody = { type: 'object', required: ['login'], properties: { login: { type: 'string' } } } as const;

export async function adminRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  // Site admins only (SITE_ADMIN), checked before the body is validated: anyone else learns nothing (404, or 403 for a
  // token without the site_admin scope). The services check again, for callers that do not come through these routes.
  const config = { grant: SITE_ADMIN };

  app.post(
    '/admin/users',
    {
      schema: {
        body: {
          type: 'object',
          required: ['login'],
          // `password` is hublet's own (GitHub Enterprise sets passwords through its sign-in pages).
          properties: {
            login: { type: 'string' },
            email: { type: 'string' },
            site_admin: { type: 'boolean' },
            password: { type: 'string' },
          },
        },
      },
      config: { ...config, resource: 'User' },
    },
    async (request, reply) => {
      const user = await createUser(request.ctx, {
        login: request.body.login,
        email: request.body.email,
        siteAdmin: request.body.site_admin,
        password: request.body.password,
      });
      return created(reply, request.ctx.urls.api(`/users/${user.login}`), simpleUser(user, request.ctx.urls));
    },
  );

  // hublet's own: a site admin sets a user's password (204); the password never comes back.
  app.put(
    '/admin/users/:username/password',
    { schema: { params: userParams, body: passwordBody }, config: { ...config, resource: 'User' } },
    async (request, reply) => {
      await setUserPassword(request.ctx, request.params.username, request.body.password);
      return reply.code(204).send();
    },
  );

  app.delete('/admin/users/:username', { schema: { params: userParams }, config }, async (request, reply) => {
    await deleteUser(request.ctx, request.params.username);
    return reply.code(204).send();
  });

  app.post(
    '/admin/organizations',
    {
      schema: {
        body: {
          type: 'object',
          required: ['login', 'admin'],
          properties: { login: { type: 'string' }, admin: { type: 'string' }, profile_name: { type: 'string' } },
        },
      },
      config: { ...config, resource: 'Organization' },
    },
    async (request, reply) => {
      const org = await createOrganization(request.ctx, {
        login: request.body.login,
        admin: request.body.admin,
        profileName: request.body.profile_name,
      });
      return created(reply, request.ctx.urls.api(`/orgs/${org.login}`), simpleOrganization(org, request.ctx.urls));
    },
  );

  // GitHub Enterprise queues a rename and answers 202; hublet's is done when it answers (everything is kept by id).
  app.patch(
    '/admin/users/:username',
    { schema: { params: userParams, body: renameBody }, config: { ...config, resource: 'User' } },
    async (request, reply) => {
      const user = await renameAccount(request.ctx, 'User', request.params.username, request.body.login);
      return reply.code(202).send({
        message: 'Job queued to rename user. It may take a few minutes to complete.',
        url: request.ctx.urls.api(`/users/${user.login}`),
      });
    },
  );

  app.patch(
    '/admin/organizations/:org',
    { schema: { params: orgParams, body: renameBody }, config: { ...config, resource: 'Organization' } },
    async (request, reply) => {
      const org = await renameAccount(request.ctx, 'Organization', request.params.org, request.body.login);
      return reply.code(202).send({
        message: 'Job queued to rename organization. It may take a few minutes to complete.',
        url: request.ctx.urls.api(`/orgs/${org.login}`),
      });
    },
  );

  app.put('/users/:username/site_admin', { schema: { params: userParams }, config }, async (request, reply) => {
    await changeSiteAdmin(request.ctx, request.params.username, true);
    return reply.code(204).send();
  });

  app.delete('/users/:username/site_admin', { schema: { params: userParams }, config }, async (request, reply) => {
    await changeSiteAdmin(request.ctx, request.params.username, false);
    return reply.code(204).send();
  });

  // The optional `reason` goes to the audit log's `business.suspend_user` entry, as on GitHub Enterprise.
  app.put(
    '/users/:username/suspended',
    {
      schema: { params: userParams, body: { type: 'object', properties: { reason: { type: 'string' } } } },
      config: { ...config, resource: 'User' },
      preValidation: absentBodyIsEmpty,
    },
    async (request, reply) => {
      await changeSuspension(request.ctx, request.params.username, true, request.body.reason);
      return reply.code(204).send();
    },
  );

  app.delete('/users/:username/suspended', { schema: { params: userParams }, config }, async (request, reply) => {
    await changeSuspension(request.ctx, request.params.username, false);
    return reply.code(204).send();
  });

  app.get('/enterprise/stats/all', { config }, async (request) => enterpriseStats(request.ctx));

  for (const type of STAT_TYPES) {
    app.get(`/enterprise/stats/${type}`, { config }, async (request) => (await enterpriseStats(request.ctx))[type]);
  }

  app.post(
    '/admin/users/:username/authorizations',
    {
      schema: {
        params: userParams,
        body: {
          type: 'object',
          properties: {
            scopes: { type: 'array', items: { type: 'string' } },
            kind: { type: 'string' },
            permissions: { type: 'object', additionalProperties: { type: 'string' } },
            app_id: { type: 'integer' },
            note: { type: 'string' },
            expires_at: { type: 'string' },
          },
        },
      },
      config: { ...config, resource: 'OauthAccess' },
      preValidation: absentBodyIsEmpty,
    },
    async (request, reply) => {
      const body = request.body;
      const { row, token, user } = await createUserToken(request.ctx, request.params.username, {
        scopes: body.scopes,
        kind: body.kind,
        permissions: body.permissions,
        appId: body.app_id,
        note: body.note,
        expiresAt: body.expires_at,
      });
      return reply.code(201).send(authorization(row, user, request.ctx.urls, token));
    },
  );

  app.get(
    '/admin/users/:username/authorizations',
    { schema: { params: userParams, querystring: { type: 'object', properties: pagingQuery } }, config },
    async (request, reply) =>
      pagedList(
        request,
        reply,
        (paging) => listUserTokens(request.ctx, request.params.username, paging),
        (page) => page.tokens.map((row) => authorization(row, page.user, request.ctx.urls)),
      ),
  );

  app.delete('/admin/users/:username/authorizations', { schema: { params: userParams }, config }, async (request, reply) => {
    await revokeTokens(request.ctx, request.params.username);
    return reply.code(204).send();
  });
}
