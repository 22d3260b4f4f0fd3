// The gist search page at GitHub's address, `/gist/search?q=…&p=…&s=…&o=…` (query, page, sort, order): the gists
// the viewer may see (public ones, and a signed-in person's own secret ones) through the gists area's search, cached
// by the change stamp per viewer as every page (a query that runs is at most 256 characters). A query that cannot run
// is answered 422 with what is wrong with it; no query, with what the search takes.
import type { FastifyInstance } from 'fastify';
import { HttpError, ValidationFailed } from '../../core/errors.js';
import { MAX_SEARCH_RESULTS, parseQuery, searchGists } from '../../gists/search.js';
import { typed } from '../../http/typed.js';
import { htmlPage, paging, queryValue, send, wantsHtml, webConfig as config, type WebState } from '../serve.js';
import { pageContext } from '../viewer.js';
import { helpPage, problemPage, resultsPage, SEARCH_PAGE_SIZE, type SearchAsked } from './search-page.js';

/** GitHub's parameters: `q` the query, `p` the page, `s` the sort (stars, updated) and `o` the order (asc, desc). */
const searchQuery = { type: 'object', properties: { q: queryValue, p: queryValue, s: queryValue, o: queryValue } } as const;

/** The last value of a repeated parameter, '' when absent. */
const last = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[v.length - 1] ?? '') : (v ?? ''));

/** What a refusal says to a person: the message of its first error, or its own. */
function problemOf(err: HttpError): string {
  const errors = err instanceof ValidationFailed ? (err.extra.errors as { message?: string }[]) : [];
  return errors[0]?.message ?? err.message;
}

export function searchPageRoutes(fastify: FastifyInstance, { cache }: WebState): void {
  const app = typed(fastify);

  app.get('/gist/search', { schema: { querystring: searchQuery }, config }, async (request, reply) => {
    const ctx = pageContext(request);
    const q = last(request.query.q);
    const sort = ['stars', 'updated'].includes(last(request.query.s)) ? last(request.query.s) : '';
    const order = sort && last(request.query.o) === 'asc' ? 'asc' : sort ? 'desc' : '';
    const asked: SearchAsked = { q, sort, order };
    const p = paging(request.query.p, SEARCH_PAGE_SIZE);
    if (q.trim() === '') return send(reply, htmlPage(helpPage(ctx.urls, asked)));
    try {
      parseQuery(q);
    } catch (err) {
      // A person reads what is wrong on the page; any other client gets the API's 422 (routes.ts's error handler).
      if (err instanceof HttpError && err.status === 422 && wantsHtml(request))
        return send(reply, htmlPage(problemPage(ctx.urls, asked, problemOf(err)), 422));
      throw err;
    }
    try {
      const built = await cache.get(ctx, `search ${JSON.stringify([q, sort, order, p.page])}`, async () => {
        const found = await searchGists(ctx, { q, sort: sort || undefined, order: order || undefined }, p, { snippets: true });
        return htmlPage(resultsPage(ctx.urls, asked, found, p.page, MAX_SEARCH_RESULTS));
      });
      return send(reply, built);
    } catch (err) {
      // An unknown user: or a page past the first 1,000 results.
      if (err instanceof HttpError && err.status === 422 && wantsHtml(request))
        return send(reply, htmlPage(problemPage(ctx.urls, asked, problemOf(err)), 422));
      throw err;
    }
  });
}
