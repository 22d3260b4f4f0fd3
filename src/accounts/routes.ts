// Account reads and organization memberships: GET /user, /users/{username}, /orgs/{org}, /orgs/{org}/memberships/{username};
// and PATCH /user, the caller's own profile (profile.ts, the rules the web's profile settings share).
import type { FastifyInstance } from 'fastify';
import { absentBodyIsEmpty } from '../http/body.js';
import { lastModified } from '../http/conditional.js';
import { cacheKey } from '../http/response-cache.js';
import { PUBLIC, requireActor, type Grant } from '../core/grants.js';
import { memberParams, orgParams, userParams } from '../http/route-params.js';
import { typed } from '../http/typed.js';
import { accountCounts } from './counts.js';
import { fullOrganization, membership, privateUser, publicUser } from './present.js';
import { updateOwnProfile } from './profile.js';
import { deleteMembership, getMembership, putMembership, requireAnyAccount, requireOrganization } from './service.js';

/**
 * The signed-in person: any token of theirs, no scope or permission needed; app user tokens too, but not installation
 * tokens (an installation acts as its app: GitHub has no "authenticated user" for it).
 */
const SIGNED_IN: Grant = { scopes: [], apps: 'user' };

/** Changing one's own profile, as GitHub: classic and OAuth tokens with `user` (404 without), Profile write otherwise. */
const PROFILE_WRITE: Grant = { scopes: ['user'], fineGrained: { permission: 'profile', level: 'write' }, apps: 'user' };
const profileText = { type: ['string', 'null'] } as const;
/** GitHub's body of PATCH /user; `hireable` and `twitter_username` are taken and not kept (hublet has neither). */
const profileBody = {
  type: 'object',
  properties: {
    name: profileText,
    email: profileText,
    blog: profileText,
    twitter_username: profileText,
    company: profileText,
    location: profileText,
    hireable: { type: ['boolean', 'null'] },
    bio: profileText,
  },
} as const;

export async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  app.get('/user', { config: { grant: SIGNED_IN } }, async (request, reply) => {
    const actor = requireActor(request.ctx.actor);
    const counts = await accountCounts(request.ctx, actor.user, true);
    reply.header('last-modified', lastModified(actor.user.updated_at));
    return privateUser(actor.user, request.ctx.urls, counts);
  });

  app.patch(
    '/user',
    { schema: { body: profileBody }, config: { grant: PROFILE_WRITE, resource: 'User' }, preValidation: absentBodyIsEmpty },
    async (request, reply) => {
      const user = await updateOwnProfile(request.ctx, request.body);
      const counts = await accountCounts(request.ctx, user, true);
      reply.header('last-modified', lastModified(user.updated_at));
      return privateUser(user, request.ctx.urls, counts);
    },
  );

  // A public profile is the same for every caller: answered from the response cache while nothing changed.
  app.get('/users/:username', { schema: { params: userParams }, config: { grant: PUBLIC } }, async (request, reply) =>
    request.ctx.responses.respond(request, reply, cacheKey(request), async () => {
      const row = await requireAnyAccount(request.ctx, request.params.username);
      const counts = await accountCounts(request.ctx, row, false);
      reply.header('last-modified', lastModified(row.updated_at));
      return publicUser(row, request.ctx.urls, counts);
    }),
  );

  app.get('/orgs/:org', { schema: { params: orgParams }, config: { grant: PUBLIC } }, async (request, reply) =>
    request.ctx.responses.respond(request, reply, cacheKey(request), async () => {
      const org = await requireOrganization(request.ctx, request.params.org);
      const counts = await accountCounts(request.ctx, org, false);
      reply.header('last-modified', lastModified(org.updated_at));
      return fullOrganization(org, request.ctx.urls, counts);
    }),
  );

  const orgRead = { scopes: ['read:org', 'admin:org'], fineGrained: { permission: 'members', level: 'read' }, missingScope: 403 } as const;
  const orgWrite = { scopes: ['admin:org'], fineGrained: { permission: 'members', level: 'write' }, missingScope: 403 } as const;

  app.get('/orgs/:org/memberships/:username', { schema: { params: memberParams }, config: { grant: orgRead } }, async (request) => {
    const m = await getMembership(request.ctx, request.params.org, request.params.username);
    return membership(m.org, m.user, m.role, request.ctx.urls);
  });

  app.put(
    '/orgs/:org/memberships/:username',
    {
      schema: {
        params: memberParams,
        body: { type: 'object', properties: { role: { type: 'string', enum: ['admin', 'member'] } } },
      },
      config: { grant: orgWrite, resource: 'Membership' },
      preValidation: absentBodyIsEmpty,
    },
    async (request) => {
      const m = await putMembership(request.ctx, request.params.org, request.params.username, request.body.role ?? 'member');
      return membership(m.org, m.user, m.role, request.ctx.urls);
    },
  );

  app.delete(
    '/orgs/:org/memberships/:username',
    { schema: { params: memberParams }, config: { grant: orgWrite } },
    async (request, reply) => {
      await deleteMembership(request.ctx, request.params.org, request.params.username);
      return reply.code(204).send();
    },
  );
}
