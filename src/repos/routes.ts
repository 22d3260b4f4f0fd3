// The repository REST API: create (user, organization), get, update, delete, the three lists, all public repositories, topics.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC, type Grant } from '../core/grants.js';
import { absentBodyIsEmpty } from '../http/body.js';
import { lastModified } from '../http/conditional.js';
import { respondForCaller } from '../http/response-cache.js';
import { parseId } from '../core/ids.js';
import { pagedList, requestUrlWith, type Paging } from '../http/pagination.js';
import { typed } from '../http/typed.js';
import { listForAuthenticatedUser, listForOrg, listForUser, listPublic, type ListResult } from './listing.js';
import { networkOf } from './forks.js';
import { fullRepository, repositoryHead, repositoryListItem, topicsOf } from './present.js';
import {
  createBody,
  idParams,
  orgParams,
  orgReposQuery,
  ownerRepo,
  publicReposQuery,
  topicsBody,
  updateBody,
  userParams,
  userReposForQuery,
  userReposQuery,
} from './schemas.js';
import {
  createRepository,
  deleteRepository,
  resolveRepository,
  resolveRepositoryById,
  updateRepository,
  type ResolvedRepository,
} from './service.js';
import { replaceTopics } from './topics.js';
import { created } from '../http/replies.js';

/**
 * Reads: anyone for public repositories; a fine-grained or app token needs metadata read, which any repository
 * permission implies (as GitHub adds it implicitly).
 */
const READ: Grant = { scopes: [], fineGrained: { permission: 'metadata', level: 'read' }, apps: true, anonymous: true };
/** The caller's own repositories: a signed-in person (not an installation, which acts as its app). */
const READ_OWN: Grant = { scopes: [], fineGrained: { permission: 'metadata', level: 'read' }, apps: 'user' };
const WRITE: Grant = { scopes: ['repo', 'public_repo'], fineGrained: { permission: 'administration', level: 'write' }, apps: true };
/** Creating in the caller's own account: an installation has no account of its own to create in. */
const CREATE_OWN: Grant = { ...WRITE, apps: 'user' };
const DELETE: Grant = {
  scopes: ['delete_repo'],
  fineGrained: { permission: 'administration', level: 'write' },
  apps: true,
  missingScope: 403,
};

/** GitHub's full repository object, a fork's parent and source included. */
export async function full(request: FastifyRequest, r: ResolvedRepository) {
  return fullRepository(r.repo, r.owner, request.ctx.urls, {
    permissions: request.ctx.actor ? r.permissions : undefined,
    apiVersion: request.apiVersion,
    network: await networkOf(request.ctx, r.repo),
  });
}

/** One page of a repository list, each repository as GitHub lists them, with its `Link` header. */
export function repositoryPage(request: FastifyRequest, reply: FastifyReply, load: (paging: Paging) => Promise<ListResult>) {
  return pagedList(request, reply, load, (result) =>
    result.items.map((i) =>
      repositoryListItem(i.repo, i.owner, request.ctx.urls, { permissions: i.permissions, apiVersion: request.apiVersion }),
    ),
  );
}

export async function repositoryRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  app.post(
    '/user/repos',
    { schema: { body: createBody }, config: { grant: CREATE_OWN, resource: 'Repository' } },
    async (request, reply) => {
      const r = await createRepository(request.ctx, null, request.body);
      return created(reply, request.ctx.urls.api(`/repos/${r.owner.login}/${r.repo.name}`), await full(request, r));
    },
  );

  app.post(
    '/orgs/:org/repos',
    { schema: { params: orgParams, body: createBody }, config: { grant: WRITE, resource: 'Repository' } },
    async (request, reply) => {
      const r = await createRepository(request.ctx, request.params.org, request.body);
      return created(reply, request.ctx.urls.api(`/repos/${r.owner.login}/${r.repo.name}`), await full(request, r));
    },
  );

  // With the caller's permissions: answered from the response cache per credential while nothing changed.
  app.get('/repos/:owner/:repo', { schema: { params: ownerRepo }, config: { grant: READ } }, async (request, reply) =>
    respondForCaller(request, reply, async () => {
      const r = await resolveRepository(request.ctx, request.params.owner, request.params.repo, 301);
      reply.header('last-modified', lastModified(r.repo.updated_at));
      return await full(request, r);
    }),
  );

  app.get('/repositories/:id', { schema: { params: idParams }, config: { grant: READ } }, async (request) => {
    return await full(request, await resolveRepositoryById(request.ctx, parseId(request.params.id)));
  });

  app.patch(
    '/repos/:owner/:repo',
    { schema: { params: ownerRepo, body: updateBody }, config: { grant: WRITE, resource: 'Repository' }, preValidation: absentBodyIsEmpty },
    async (request) => await full(request, await updateRepository(request.ctx, request.params.owner, request.params.repo, request.body)),
  );

  app.delete('/repos/:owner/:repo', { schema: { params: ownerRepo }, config: { grant: DELETE } }, async (request, reply) => {
    await deleteRepository(request.ctx, request.params.owner, request.params.repo);
    return reply.code(204).send();
  });

  app.get(
    '/user/repos',
    {
      schema: { querystring: userReposQuery },
      config: { grant: READ_OWN, resource: 'Repository' },
    },
    async (request, reply) => repositoryPage(request, reply, (paging) => listForAuthenticatedUser(request.ctx, request.query, paging)),
  );

  app.get(
    '/orgs/:org/repos',
    {
      schema: { params: orgParams, querystring: orgReposQuery },
      config: { grant: READ, resource: 'Repository' },
    },
    async (request, reply) =>
      repositoryPage(request, reply, (paging) => listForOrg(request.ctx, request.params.org, request.query, paging)),
  );

  app.get(
    '/users/:username/repos',
    {
      schema: { params: userParams, querystring: userReposForQuery },
      config: { grant: READ, resource: 'Repository' },
    },
    async (request, reply) =>
      repositoryPage(request, reply, (paging) => listForUser(request.ctx, request.params.username, request.query, paging)),
  );

  app.get(
    '/repositories',
    { schema: { querystring: publicReposQuery }, config: { grant: PUBLIC, resource: 'Repository' } },
    async (request, reply) => {
      const { items, next } = await listPublic(request.ctx, request.query.since);
      if (next !== undefined) reply.header('link', `<${requestUrlWith(request, { since: String(next) })}>; rel="next"`);
      return items.map((i) => repositoryHead(i.repo, i.owner, request.ctx.urls));
    },
  );

  app.get('/repos/:owner/:repo/topics', { schema: { params: ownerRepo }, config: { grant: READ } }, async (request) => {
    const r = await resolveRepository(request.ctx, request.params.owner, request.params.repo, 301);
    return { names: topicsOf(r.repo) };
  });

  app.put(
    '/repos/:owner/:repo/topics',
    { schema: { params: ownerRepo, body: topicsBody }, config: { grant: WRITE, resource: 'Repository' } },
    async (request) => ({ names: await replaceTopics(request.ctx, request.params.owner, request.params.repo, request.body.names) }),
  );
}
