// POST /admin/repos/import: a site admin imports a git repository from a path on the server's machine.
import type { FastifyInstance } from 'fastify';
import { SITE_ADMIN } from '../core/grants.js';
import { typed } from '../http/typed.js';
import { fullRepository } from './present.js';
import { importRepository } from './import.js';
import { importBody } from './schemas.js';
import { created } from '../http/replies.js';

export async function repositoryImportRoutes(fastify: FastifyInstance): Promise<void> {
  typed(fastify).post(
    '/admin/repos/import',
    {
      schema: { body: importBody },
      // Site admins only, decided before the body is validated (as the rest of the admin API).
      config: { grant: SITE_ADMIN, resource: 'Repository' },
    },
    async (request, reply) => {
      const r = await importRepository(request.ctx, request.body);
      const body = fullRepository(r.repo, r.owner, request.ctx.urls, { permissions: r.permissions, apiVersion: request.apiVersion });
      return created(reply, request.ctx.urls.api(`/repos/${r.owner.login}/${r.repo.name}`), body);
    },
  );
}
