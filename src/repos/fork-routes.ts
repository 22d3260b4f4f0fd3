// POST /repos/{owner}/{repo}/forks (202 with the fork, new or already there) and GET /repos/{owner}/{repo}/forks.
import type { FastifyInstance } from 'fastify';
import type { Grant } from '../core/grants.js';
import { absentBodyIsEmpty } from '../http/body.js';
import { typed } from '../http/typed.js';
import { createFork, listForks } from './forks.js';
import { full, repositoryPage } from './routes.js';
import { forkBody, forksQuery, ownerRepo } from './schemas.js';

/** GitHub's: `repo` or `public_repo` (classic), administration write and contents read (fine-grained and apps). */
const FORK: Grant = { scopes: ['repo', 'public_repo'], fineGrained: { permission: 'administration', level: 'write' }, apps: true };
/** Listing forks: anyone for public repositories, metadata read for fine-grained tokens and apps. */
const LIST: Grant = { scopes: [], fineGrained: { permission: 'metadata', level: 'read' }, apps: true, anonymous: true };

export async function repositoryForkRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  app.post(
    '/repos/:owner/:repo/forks',
    {
      schema: { params: ownerRepo, body: forkBody },
      config: { grant: FORK, resource: 'Repository' },
      preValidation: absentBodyIsEmpty,
    },
    async (request, reply) => {
      const r = await createFork(request.ctx, request.params.owner, request.params.repo, request.body);
      return reply.code(202).send(await full(request, r));
    },
  );

  app.get(
    '/repos/:owner/:repo/forks',
    { schema: { params: ownerRepo, querystring: forksQuery }, config: { grant: LIST, resource: 'Repository' } },
    async (request, reply) =>
      repositoryPage(request, reply, (paging) =>
        listForks(request.ctx, request.params.owner, request.params.repo, request.query.sort ?? 'newest', paging),
      ),
  );
}
