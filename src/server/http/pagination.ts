// Page-number pagination shared by every list: parse `page`/`per_page`, and write GitHub's `Link` header.
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
}

/** Query schema properties every paged list accepts. */
export const pagingQuery = {
  page: { type: 'string' },
  per_page: { type: 'string' },
} as const;

/** GitHub is lenient here: bad values fall back to the default and per_page is capped at 100. */
export function parsePaging(query: unknown, defaultPerPage = 30): Paging {
  const q = (query ?? {}) as Record<string, unknown>;
  const int = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : typeof v === 'number' && Number.isInteger(v) ? v : NaN);
  let page = int(q.page);
  if (!(page >= 1)) page = 1;
  let perPage = int(q.per_page);
  if (!(perPage >= 1)) perPage = defaultPerPage;
  perPage = Math.min(perPage, 100);
  return { page, perPage, offset: (page - 1) * perPage };
}

/** The absolute URL of this request with some query parameters replaced. */
export function requestUrlWith(request: FastifyRequest, baseUrl: string, params: Record<string, string | undefined>): string {
  const url = new URL(request.url, 'http://placeholder');
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  return baseUrl + url.pathname + url.search;
}

/** Sets `Link` with first/prev/next/last from the total count of items. */
export function setPageLinks(request: FastifyRequest, reply: FastifyReply, paging: Paging, total: number): void {
  const lastPage = Math.max(1, Math.ceil(total / paging.perPage));
  setLinks(request, reply, paging, paging.page < lastPage, lastPage);
}

/** Sets `Link` when the total is unknown: `hasNext` says whether another page exists. */
export function setLinks(request: FastifyRequest, reply: FastifyReply, paging: Paging, hasNext: boolean, lastPage?: number): void {
  const base = request.ctx.urls.base;
  const link = (page: number, rel: string) =>
    `<${requestUrlWith(request, base, { page: String(page), per_page: String(paging.perPage) })}>; rel="${rel}"`;
  const parts: string[] = [];
  if (paging.page > 1) parts.push(link(paging.page - 1, 'prev'));
  if (hasNext) parts.push(link(paging.page + 1, 'next'));
  if (lastPage !== undefined && paging.page < lastPage) parts.push(link(lastPage, 'last'));
  if (paging.page > 1) parts.push(link(1, 'first'));
  if (parts.length) reply.header('link', parts.join(', '));
}
