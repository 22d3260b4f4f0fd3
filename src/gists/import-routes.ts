// hublet's own gist import endpoints (`hublet gist import`): create a gist as the copy of a gist of another server,
// recorded with its source, and list the caller's recorded imports. Not GitHub's API, which has no gist import.
import type { FastifyInstance } from 'fastify';
import type { Grant } from '../core/grants.js';
import { pagedList } from '../http/pagination.js';
import { typed } from '../http/typed.js';
import { gistImport } from './import-present.js';
import { callerImports, importBody, recordImport } from './imports.js';
import { gistMedia, gistSingle } from './present.js';
import { singleView } from './reads.js';
import { received } from './parse.js';
import { GIST_WRITE, judgedLater } from './routes.js';
import { pagedQuery } from './schemas.js';
import { requireGist } from './service.js';

/** Reading your own import records: any signed-in person (as listing your own gists needs no scope). */
const IMPORTS_READ: Grant = { scopes: [], apps: 'user' };

export async function gistImportRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);

  app.get('/user/gist-imports', { schema: { querystring: pagedQuery }, config: { grant: IMPORTS_READ } }, async (request, reply) =>
    pagedList(
      request,
      reply,
      (paging) => callerImports(request.ctx, paging),
      (page) => page.items.map((e) => gistImport(e, request.ctx.urls)),
      100,
    ),
  );

  // 201 with the new gist; 200 with the existing one when the caller imported this source before.
  app.post(
    '/user/gist-imports',
    {
      schema: { body: importBody },
      config: { grant: GIST_WRITE, resource: 'GistImport' },
      bodyLimit: app.hublet.config.gistBodyLimitBytes,
      ...judgedLater,
    },
    async (request, reply) => {
      const { entry, created } = await recordImport(request.ctx, received(request));
      const gist = await requireGist(request.ctx, entry.gist_id);
      const view = await singleView(request.ctx, gist);
      if (created) reply.header('location', request.ctx.urls.api(`/gists/${gist.id}`));
      return reply
        .code(created ? 201 : 200)
        .send({ ...gistImport(entry, request.ctx.urls), gist: gistSingle(view, request.ctx.urls, gistMedia(request.mediaParam)) });
    },
  );
}
