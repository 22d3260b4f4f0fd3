// Organization membership and listing routes: /user/orgs, /users/{username}/orgs, /orgs/{org}/members,
// /user/memberships/orgs, PATCH and DELETE /orgs/{org}, /organizations, /users.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { absentBodyIsEmpty } from '../http/body.js';
import { lastModified } from '../http/conditional.js';
import { NotFound } from '../core/errors.js';
import { PUBLIC, type Grant } from '../core/grants.js';
import { pagedList, pagingQuery, parsePaging, requestUrlWith } from '../http/pagination.js';
import { memberParams, orgParams, userParams } from '../http/route-params.js';
import { typed } from '../http/typed.js';
import { accountCounts } from './counts.js';
import { accountsAfter, checkMember, deleteOrganization, listMembers, myMembership, myMemberships, updateOrganization } from './orgs.js';
import { fullOrganization, membership, simpleOrganization, simpleUser } from './present.js';
import { deleteMembership, requireAnyAccount } from './service.js';

const pagedQuery = { type: 'object', properties: pagingQuery } as const;
const sinceQuery = { type: 'object', properties: { since: { type: 'string' }, per_page: { type: 'string' } } } as const;

/**
 * The caller's organizations: classic and OAuth tokens need `user` or `read:org` (GitHub's 403 otherwise), app user
 * tokens may ask; a fine-grained token is let in and sees an empty list (GitHub's documented answer).
 */
const OWN_ORGS: Grant = { scopes: ['user', 'read:org'], apps: 'user', missingScope: 403 };
/** Who belongs to an organization: anyone may ask (outsiders see public memberships only). */
const MEMBERS_READ: Grant = { scopes: [], anonymous: true, apps: true, fineGrained: { permission: 'members', level: 'read' } };
/** The caller's own organization memberships. */
const OWN_MEMBERSHIPS: Grant = {
  scopes: ['read:org', 'admin:org'],
  fineGrained: { permission: 'members', level: 'read' },
  apps: 'user',
  missingScope: 403,
};
const MEMBERS_WRITE: Grant = { scopes: ['admin:org'], fineGrained: { permission: 'members', level: 'write' }, missingScope: 403 };
const ORG_ADMIN: Grant = {
  scopes: ['admin:org'],
  fineGrained: { permission: 'organization_administration', level: 'write' },
  missingScope: 403,
};

const text = { type: ['string', 'null'] } as const;
const orgBody = {
  type: 'object',
  properties: {
    name: text,
    email: text,
    company: text,
    blog: text,
    location: text,
    description: text,
    billing_email: text,
    twitter_username: text,
    members_can_create_repositories: { type: 'boolean' },
  },
} as const;

/** GitHub's `since` paging: the next page starts after the last id shown; `Link` names it while more follow. */
function setSinceLink(request: FastifyRequest, reply: FastifyReply, lastId: number | undefined, more: boolean, perPage: number): void {
  if (!more || lastId === undefined) return;
  const next = requestUrlWith(request, { since: String(lastId), per_page: String(perPage) });
  reply.header('link', `<${next}>; rel="next"`);
}

function parseSince(value: string | undefined): number {
  return value && /^\d{1,15}$/.test(value) ? Number(value) : 0;
}

export async function organizationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);

  app.get('/user/orgs', { schema: { querystring: pagedQuery }, config: { grant: OWN_ORGS } }, async (request, reply) => {
    if (request.ctx.actor?.kind === 'fine_grained') return [];
    return pagedList(
      request,
      reply,
      (paging) => myMemberships(request.ctx, paging),
      (page) => page.rows.map((m) => simpleOrganization(m.org, request.ctx.urls)),
    );
  });

  // Only public memberships, whoever asks (GitHub's rule): memberships are concealed, so none.
  app.get(
    '/users/:username/orgs',
    { schema: { params: userParams, querystring: pagedQuery }, config: { grant: PUBLIC } },
    async (request, reply) => {
      const publicMemberships = async () => {
        await requireAnyAccount(request.ctx, request.params.username);
        return { total: 0 };
      };
      return pagedList(request, reply, publicMemberships, () => []);
    },
  );

  app.get(
    '/user/memberships/orgs',
    {
      schema: { querystring: { type: 'object', properties: { ...pagingQuery, state: { type: 'string', enum: ['active', 'pending'] } } } },
      config: { grant: OWN_MEMBERSHIPS },
    },
    async (request, reply) => {
      // Every membership is active (hublet has no invitations): `state=pending` lists none.
      if (request.query.state === 'pending') return [];
      return pagedList(
        request,
        reply,
        (paging) => myMemberships(request.ctx, paging),
        (page) => page.rows.map((m) => membership(m.org, page.user, m.role, request.ctx.urls)),
      );
    },
  );

  app.get('/user/memberships/orgs/:org', { schema: { params: orgParams }, config: { grant: OWN_MEMBERSHIPS } }, async (request) => {
    const m = await myMembership(request.ctx, request.params.org);
    return membership(m.org, m.user, m.role, request.ctx.urls);
  });

  app.get(
    '/orgs/:org/members',
    {
      schema: {
        params: orgParams,
        querystring: {
          type: 'object',
          properties: {
            ...pagingQuery,
            filter: { type: 'string', enum: ['2fa_disabled', 'all'] },
            role: { type: 'string', enum: ['all', 'admin', 'member'] },
          },
        },
      },
      config: { grant: MEMBERS_READ, resource: 'Member' },
    },
    async (request, reply) => {
      const role = request.query.role === 'admin' || request.query.role === 'member' ? request.query.role : undefined;
      return pagedList(
        request,
        reply,
        (paging) => listMembers(request.ctx, request.params.org, role, paging),
        (page) => page.rows.map((u) => simpleUser(u, request.ctx.urls)),
      );
    },
  );

  // GitHub's answers: 204 a member, 404 not one; 302 to the public membership check for who may not see members (no
  // membership is public: that path answers 404, as GitHub does for a concealed member).
  app.get('/orgs/:org/members/:username', { schema: { params: memberParams }, config: { grant: MEMBERS_READ } }, async (request, reply) => {
    const { org, username } = request.params;
    const found = await checkMember(request.ctx, org, username);
    if (found === 'public') {
      return reply
        .code(302)
        .header('location', request.ctx.urls.api(`/orgs/${encodeURIComponent(org)}/public_members/${encodeURIComponent(username)}`))
        .send();
    }
    if (found === 'none') throw new NotFound('User does not exist or is not a member of the organization');
    return reply.code(204).send();
  });

  app.delete(
    '/orgs/:org/members/:username',
    { schema: { params: memberParams }, config: { grant: MEMBERS_WRITE } },
    async (request, reply) => {
      await deleteMembership(request.ctx, request.params.org, request.params.username);
      return reply.code(204).send();
    },
  );

  app.patch(
    '/orgs/:org',
    {
      schema: { params: orgParams, body: orgBody },
      config: { grant: ORG_ADMIN, resource: 'Organization' },
      preValidation: absentBodyIsEmpty,
    },
    async (request, reply) => {
      const org = await updateOrganization(request.ctx, request.params.org, request.body);
      const counts = await accountCounts(request.ctx, org, false);
      reply.header('last-modified', lastModified(org.updated_at));
      return fullOrganization(org, request.ctx.urls, counts);
    },
  );

  app.delete('/orgs/:org', { schema: { params: orgParams }, config: { grant: ORG_ADMIN } }, async (request, reply) => {
    await deleteOrganization(request.ctx, request.params.org);
    return reply.code(202).send({});
  });

  app.get('/organizations', { schema: { querystring: sinceQuery }, config: { grant: PUBLIC } }, async (request, reply) => {
    const { perPage } = parsePaging(request.query);
    const { rows, more } = await accountsAfter(request.ctx, 'Organization', parseSince(request.query.since), perPage);
    setSinceLink(request, reply, rows.at(-1)?.id, more, perPage);
    return rows.map((o) => simpleOrganization(o, request.ctx.urls));
  });

  app.get('/users', { schema: { querystring: sinceQuery }, config: { grant: PUBLIC } }, async (request, reply) => {
    const { perPage } = parsePaging(request.query);
    const { rows, more } = await accountsAfter(request.ctx, undefined, parseSince(request.query.since), perPage);
    setSinceLink(request, reply, rows.at(-1)?.id, more, perPage);
    return rows.map((u) => simpleUser(u, request.ctx.urls));
  });
}
