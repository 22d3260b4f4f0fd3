// The GitHub Enterprise admin API (site admins only): users, organizations and users' tokens.
import type { FastifyInstance } from 'fastify';
import { pagingQuery, parsePaging, setPageLinks } from '../server/http/pagination.js';
import { SITE_ADMIN } from '../server/http/grants.js';
import { absentBodyIsEmpty } from '../server/http/body.js';
import { authorization, simpleOrganization, simpleUser } from './present.js';
import { createOrganization, createUser, createUserToken, deleteUser, listUserTokens, revokeTokens } from './service.js';

const username = { type: 'object', properties: { username: { type: 'string' } }, required: ['username'] } as const;

export async function adminRoutes(app: FastifyInstance): Promise<void> {
  // Site admins only (SITE_ADMIN), checked before the body is validated: anyone else learns nothing (404, or 403 for a
  // token without the site_admin scope). The services check again, for callers that do not come through these routes.
  const config = { grant: SITE_ADMIN };

  app.post<{ Body: { login: string; email?: string; site_admin?: boolean } }>(
    '/admin/users',
    {
      schema: {
        body: {
          type: 'object',
          required: ['login'],
          properties: { login: { type: 'string' }, email: { type: 'string' }, site_admin: { type: 'boolean' } },
        },
      },
      config: { ...config, resource: 'User' },
    },
    async (request, reply) => {
      const user = await createUser(request.ctx, { login: request.body.login, email: request.body.email, siteAdmin: request.body.site_admin });
      return reply.code(201).header('location', request.ctx.urls.api(`/users/${user.login}`)).send(simpleUser(user, request.ctx.urls));
    },
  );

  app.delete<{ Params: { username: string } }>('/admin/users/:username', { schema: { params: username }, config }, async (request, reply) => {
    await deleteUser(request.ctx, request.params.username);
    return reply.code(204).send();
  });

  app.post<{ Body: { login: string; admin: string; profile_name?: string } }>(
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
      const org = await createOrganization(request.ctx, { login: request.body.login, admin: request.body.admin, profileName: request.body.profile_name });
      return reply.code(201).header('location', request.ctx.urls.api(`/orgs/${org.login}`)).send(simpleOrganization(org, request.ctx.urls));
    },
  );

  app.post<{
    Params: { username: string };
    Body: { scopes?: string[]; kind?: string; permissions?: Record<string, string>; app_id?: number; note?: string; expires_at?: string };
  }>(
    '/admin/users/:username/authorizations',
    {
      schema: {
        params: username,
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
      const body = request.body ?? {};
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

  app.get<{ Params: { username: string }; Querystring: { page?: string; per_page?: string } }>(
    '/admin/users/:username/authorizations',
    { schema: { params: username, querystring: { type: 'object', properties: pagingQuery } }, config },
    async (request, reply) => {
      const paging = parsePaging(request.query);
      const { user, tokens, total } = await listUserTokens(request.ctx, request.params.username, paging);
      setPageLinks(request, reply, paging, total);
      return tokens.map((row) => authorization(row, user, request.ctx.urls));
    },
  );

  app.delete<{ Params: { username: string } }>('/admin/users/:username/authorizations', { schema: { params: username }, config }, async (request, reply) => {
    await revokeTokens(request.ctx, request.params.username);
    return reply.code(204).send();
  });
}
