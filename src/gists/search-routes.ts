// `GET /search/gists`: gist search for programs, hublet's own addition (GitHub has no such endpoint), in the shape of
// GitHub's search API: `total_count`, `incomplete_results` and `items` (gists as GET /gists lists them), paged with
// `Link`, 422 "Validation Failed" without `q`. Public like GET /gists/public; a caller also finds their own secret gists.
import type { FastifyInstance } from 'fastify';
import { pagedList, pagingQuery } from '../http/pagination.js';
import { typed } from '../http/typed.js';
import { gistListItems } from './present.js';
import { GIST_READ } from './routes.js';
import { searchGists } from './search.js';

/** `q` in GitHub's syntax; `sort` best-match (default), stars or updated; `order` desc (default) or asc. */
const searchQuery = {
  type: 'object',
  properties: { ...pagingQuery, q: { type: 'string' }, sort: { type: 'string' }, order: { type: 'string' } },
} as const;

export async function gistSearchRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  app.get('/search/gists', { schema: { querystring: searchQuery }, config: { grant: GIST_READ } }, async (request, reply) =>
    pagedList(
      request,
      reply,
      (paging) => searchGists(request.ctx, request.query, paging),
      (page) => ({ total_count: page.total, incomplete_results: false, items: gistListItems(page.items, request.ctx.urls) }),
    ),
  );
}
