// The repository REST API: create (user, organization), get, update, delete, and the three lists.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Grant } from '../server/http/grants.js';
import { lastModified } from '../server/http/conditional.js';
import { parseId } from '../server/http/ids.js';
import { pagingQuery, parsePaging, setPageLinks } from '../server/http/pagination.js';
import { listForAuthenticatedUser, listForOrg, listForUser, type ListResult, type OrgReposQuery, type UserReposForQuery, type UserReposQuery } from './listing.js';
import { fullRepository, repositoryListItem } from './present.js';
import { createRepository, deleteRepository, resolveRepository, resolveRepositoryById, updateRepository, type RepositoryInput, type ResolvedRepository } from './service.js';

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
const DELETE: Grant = { scopes: ['delete_repo'], fineGrained: { permission: 'administration', level: 'write' }, apps: true, missingScope: 403 };

const text = { type: ['string', 'null'] } as const;
const bool = { type: 'boolean' } as const;
const settingsProperties = {
  description: text,
  homepage: text,
  private: bool,
  visibility: { type: 'string', enum: ['public', 'private', 'internal'] },
  has_issues: bool,
  has_projects: bool,
  has_wiki: bool,
  has_downloads: bool,
  has_discussions: bool,
  is_template: bool,
  allow_forking: bool,
  web_commit_signoff_required: bool,
  allow_squash_merge: bool,
  allow_merge_commit: bool,
  allow_rebase_merge: bool,
  allow_auto_merge: bool,
  delete_branch_on_merge: bool,
  allow_update_branch: bool,
  use_squash_pr_title_as_default: bool,
  squash_merge_commit_title: { type: 'string', enum: ['PR_TITLE', 'COMMIT_OR_PR_TITLE'] },
  squash_merge_commit_message: { type: 'string', enum: ['PR_BODY', 'COMMIT_MESSAGES', 'BLANK'] },
  merge_commit_title: { type: 'string', enum: ['PR_TITLE', 'MERGE_MESSAGE'] },
  merge_commit_message: { type: 'string', enum: ['PR_BODY', 'PR_TITLE', 'BLANK'] },
} as const;

const createBody = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    ...settingsProperties,
    auto_init: bool,
    gitignore_template: { type: 'string' },
    license_template: { type: 'string' },
    team_id: { type: 'integer' },
  },
} as const;

const updateBody = {
  type: 'object',
  properties: { name: { type: 'string' }, ...settingsProperties, default_branch: { type: 'string' }, archived: bool, security_and_analysis: { type: ['object', 'null'] } },
} as const;

const ownerRepo = { type: 'object', properties: { owner: { type: 'string' }, repo: { type: 'string' } }, required: ['owner', 'repo'] } as const;
const sortQuery = {
  sort: { type: 'string', enum: ['created', 'updated', 'pushed', 'full_name'] },
  direction: { type: 'string', enum: ['asc', 'desc'] },
} as const;

type OwnerRepo = { owner: string; repo: string };

function full(request: FastifyRequest, r: ResolvedRepository) {
  return fullRepository(r.repo, r.owner, request.ctx.urls, { permissions: request.ctx.actor ? r.permissions : undefined, apiVersion: request.apiVersion });
}

function list(request: FastifyRequest, result: ListResult) {
  return result.items.map((i) => repositoryListItem(i.repo, i.owner, request.ctx.urls, { permissions: i.permissions, apiVersion: request.apiVersion }));
}

export async function repositoryRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Body: RepositoryInput }>(
    '/user/repos',
    { schema: { body: createBody }, config: { grant: CREATE_OWN, resource: 'Repository' } },
    async (request, reply) => {
      const r = await createRepository(request.ctx, null, request.body);
      return reply.code(201).header('location', request.ctx.urls.api(`/repos/${r.owner.login}/${r.repo.name}`)).send(full(request, r));
    },
  );

  app.post<{ Params: { org: string }; Body: RepositoryInput }>(
    '/orgs/:org/repos',
    { schema: { body: createBody }, config: { grant: WRITE, resource: 'Repository' } },
    async (request, reply) => {
      const r = await createRepository(request.ctx, request.params.org, request.body);
      return reply.code(201).header('location', request.ctx.urls.api(`/repos/${r.owner.login}/${r.repo.name}`)).send(full(request, r));
    },
  );

  app.get<{ Params: OwnerRepo }>('/repos/:owner/:repo', { schema: { params: ownerRepo }, config: { grant: READ } }, async (request, reply) => {
    const r = await resolveRepository(request.ctx, request.params.owner, request.params.repo, 301);
    reply.header('last-modified', lastModified(r.repo.updated_at));
    return full(request, r);
  });

  app.get<{ Params: { id: string } }>('/repositories/:id', { config: { grant: READ } }, async (request) => {
    return full(request, await resolveRepositoryById(request.ctx, parseId(request.params.id)));
  });

  app.patch<{ Params: OwnerRepo; Body: RepositoryInput }>(
    '/repos/:owner/:repo',
    { schema: { params: ownerRepo, body: updateBody }, config: { grant: WRITE, resource: 'Repository' }, preValidation: async (r) => void (r.body ??= {}) },
    async (request) => full(request, await updateRepository(request.ctx, request.params.owner, request.params.repo, request.body)),
  );

  app.delete<{ Params: OwnerRepo }>('/repos/:owner/:repo', { schema: { params: ownerRepo }, config: { grant: DELETE } }, async (request, reply) => {
    await deleteRepository(request.ctx, request.params.owner, request.params.repo);
    return reply.code(204).send();
  });

  app.get<{ Querystring: UserReposQuery & { page?: string; per_page?: string } }>(
    '/user/repos',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            ...pagingQuery,
            ...sortQuery,
            visibility: { type: 'string', enum: ['all', 'public', 'private'] },
            affiliation: { type: 'string' },
            type: { type: 'string', enum: ['all', 'owner', 'public', 'private', 'member'] },
            since: { type: 'string' },
            before: { type: 'string' },
          },
        },
      },
      config: { grant: READ_OWN, resource: 'Repository' },
    },
    async (request, reply) => {
      const paging = parsePaging(request.query);
      const result = await listForAuthenticatedUser(request.ctx, request.query, paging);
      setPageLinks(request, reply, paging, result.total);
      return list(request, result);
    },
  );

  app.get<{ Params: { org: string }; Querystring: OrgReposQuery & { page?: string; per_page?: string } }>(
    '/orgs/:org/repos',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { ...pagingQuery, ...sortQuery, type: { type: 'string', enum: ['all', 'public', 'private', 'forks', 'sources', 'member'] } },
        },
      },
      config: { grant: READ, resource: 'Repository' },
    },
    async (request, reply) => {
      const paging = parsePaging(request.query);
      const result = await listForOrg(request.ctx, request.params.org, request.query, paging);
      setPageLinks(request, reply, paging, result.total);
      return list(request, result);
    },
  );

  app.get<{ Params: { username: string }; Querystring: UserReposForQuery & { page?: string; per_page?: string } }>(
    '/users/:username/repos',
    {
      schema: {
        querystring: { type: 'object', properties: { ...pagingQuery, ...sortQuery, type: { type: 'string', enum: ['all', 'owner', 'member'] } } },
      },
      config: { grant: READ, resource: 'Repository' },
    },
    async (request, reply) => {
      const paging = parsePaging(request.query);
      const result = await listForUser(request.ctx, request.params.username, request.query, paging);
      setPageLinks(request, reply, paging, result.total);
      return list(request, result);
    },
  );
}
