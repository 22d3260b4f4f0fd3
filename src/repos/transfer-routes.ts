// POST /repos/{owner}/{repo}/transfer: a repository's admin moves it to another account (202 with the repository).
import type { FastifyInstance } from 'fastify';
import type { Grant } from '../core/grants.js';
import { typed } from '../http/typed.js';
import { fullRepository } from './present.js';
import { ownerRepo, transferBody } from './schemas.js';
import { transferRepository } from './transfer.js';

/** GitHub's: `repo` (classic), administration write (fine-grained and apps). */
const TRANSFER: Grant = { scopes: ['repo', 'public_repo'], fineGrained: { permission: 'administration', level: 'write' }, apps: true };

export async function repositoryTransferRoutes(fastify: FastifyInstance): Promise<void> {
  typed(fastify).post(
    '/repos/:owner/:repo/transfer',
    { schema: { params: ownerRepo, body: transferBody }, config: { grant: TRANSFER, resource: 'Repository' } },
    async (request, reply) => {
      const r = await transferRepository(request.ctx, request.params.owner, request.params.repo, request.body);
      const body = fullRepository(r.repo, r.owner, request.ctx.urls, { permissions: r.permissions, apiVersion: request.apiVersion });
      return reply.code(202).send(body);
    },
  );
}
