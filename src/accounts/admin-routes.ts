// The GitHub Enterprise admin API (site admins only): users, organizations and users' tokens.
import type { FastifyInstance } from 'fastify';
import { isoUtc } from '../server/http/urls.js';
import { simpleOrganization, simpleUser } from './present.js';
import { createOrganization, createUser, createUserToken, deleteUser, revokeTokens } from './service.js';

const username = { type: 'object', properties: { username: { type: 'string' } }, required: ['username'] } as const;

export async function adminRoutes(app: FastifyInstance): Promise<void> {
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
      config: { resource: 'User' },
    },
    async (request, reply) => {
      const user = await createUser(request.ctx, { login: request.body.login, email: request.body.email, siteAdmin: request.body.site_admin });
      return reply.code(201).header('location', request.ctx.urls.api(`/users/${user.login}`)).send(simpleUser(user, request.ctx.urls));
    },
  );

  app.delete<{ Params: { username: string } }>('/admin/users/:username', { schema: { params: username } }, async (request, reply) => {
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
      config: { resource: 'Organization' },
    },
    async (request, reply) => {
      const org = await createOrganization(request.ctx, { login: request.body.login, admin: request.body.admin, profileName: request.body.profile_name });
      return reply.code(201).header('location', request.ctx.urls.api(`/orgs/${org.login}`)).send(simpleOrganization(org, request.ctx.urls));
    },
  );

  app.post<{
    Params: { username: string };
    Body: { scopes?: string[]; kind?: string; permissions?: Record<string, string>; app_id?: number; note?: string; expires_at?: string } | undefined;
  }>(
    '/admin/users/:username/authorizations',
    {
      schema: {
        params: username,
        body: {
          type: ['object', 'null'],
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
      config: { resource: 'OauthAccess' },
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
      return reply.code(201).send({
        id: row.id,
        url: request.ctx.urls.api(`/authorizations/${row.id}`),
        token,
        token_last_eight: row.token_last_eight,
        hashed_token: row.token_hash,
        kind: row.kind,
        scopes: JSON.parse(row.scopes),
        permissions: JSON.parse(row.permissions),
        app: { name: row.app_id ? `app ${row.app_id}` : 'hublet admin', url: request.ctx.urls.base, client_id: row.app_id ? String(row.app_id) : '00000000000000000000' },
        note: row.note,
        note_url: null,
        fingerprint: null,
        user: simpleUser(user, request.ctx.urls),
        created_at: isoUtc(row.created_at),
        updated_at: isoUtc(row.created_at),
        expires_at: row.expires_at ? isoUtc(row.expires_at) : null,
      });
    },
  );

  app.delete<{ Params: { username: string } }>('/admin/users/:username/authorizations', { schema: { params: username } }, async (request, reply) => {
    await revokeTokens(request.ctx, request.params.username);
    return reply.code(204).send();
  });
}
