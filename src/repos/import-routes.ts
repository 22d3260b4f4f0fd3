// POST /admin/repos/import: a site admin imports a git repository from a path on the server's machine.
import type { FastifyInstance } from 'fastify';
import { SITE_ADMIN } from '../server/http/grants.js';
import { fullRepository } from './present.js';
import { importRepository, type ImportInput } from './import.js';

export async function repositoryImportRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Body: ImportInput }>(
    '/admin/repos/import',
    {
      schema: {
        body: {
          type: 'object',
          required: ['owner', 'name', 'path'],
          properties: { owner: { type: 'string' }, name: { type: 'string' }, path: { type: 'string' }, private: { type: 'boolean' }, description: { type: ['string', 'null'] } },
        },
      },
      // Site admins only, decided before the body is validated (as the rest of the admin API).
      config: { grant: SITE_ADMIN, resource: 'Repository' },
    },
    async (request, reply) => {
      const r = await importRepository(request.ctx, request.body);
      return reply
        .code(201)
        .header('location', request.ctx.urls.api(`/repos/${r.owner.login}/${r.repo.name}`))
        .send(fullRepository(r.repo, r.owner, request.ctx.urls, { permissions: r.permissions, apiVersion: request.apiVersion }));
    },
  );
}
