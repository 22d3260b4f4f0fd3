// Page-number pagination shared by every list: parse `page`/`per_page`, write GitHub's `Link` header, and pagedList,
// the one sequence of a paged list's route (paging, load, `Link`, present).
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

/** The largest `per_page` any list serves. */
const MAX_PER_PAGE = 100;

/**
 * The deepest page a list reads: beyond it every page is empty anyway, and the offset stays a safe integer that binds
 * as an integer on SQLite and PostgreSQL (a larger one overflowed the driver or BIGINT and answered 500).
 */
const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PER_PAGE);

/** A positive integer written in digits (leading zeros allowed), capped at `max`; anything else is undefined. */
function positiveInt(v: unknown, max: number): number | undefined {
  if (Array.isArray(v)) return positiveInt(v[v.length - 1], max);
  if (typeof v !== 'string' || !/^\d+$/.test(v)) return undefined;
  const digits = v.replace(/^0+/, '');
  if (digits === '') return undefined;
  return digits.length > 16 ? max : Math.min(Number(digits), max);
}

/**
 * GitHub is lenient here: bad values fall back to the default and per_page is capped at 100. A page past the end is
 * an empty list, however far: pages beyond MAX_PAGE read as MAX_PAGE (empty too), so no offset overflows.
 */
export function parsePaging(query: unknown, defaultPerPage = 30): Paging {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = positiveInt(q.page, MAX_PAGE) ?? 1;
  const perPage = positiveInt(q.per_page, MAX_PER_PAGE) ?? defaultPerPage;
  return { page, perPage, offset: (page - 1) * perPage };
}

/** The longest link URL that keeps the request's other query parameters: four links stay within 8 KiB of header. */
const MAX_LINK_URL = 2000;

/**
 * The absolute URL of this request with some query parameters replaced. Past MAX_LINK_URL (a request padded with long
 * parameters), only the given ones are kept: a `Link` header of several such URLs broke clients' header limits.
 */
export function requestUrlWith(request: FastifyRequest, params: Record<string, string | undefined>): string {
  const api = request.ctx.urls.api;
  const url = new URL(request.url, 'http://placeholder');
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  const full = api(url.pathname + url.search);
  if (full.length <= MAX_LINK_URL) return full;
  const only = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return api(`${url.pathname}?${only}`);
}

/**
 * A paged list's answer: parses `page`/`per_page` (`defaultPerPage` when absent), loads that page, sets `Link` from
 * the page's `total` and returns `present(page)`. `present` shapes the whole page, one map over its rows: a page
 * carries more than its rows (the member whose memberships they are, the hooks' last deliveries), and some presenters
 * share work across a page's rows (gistListItems' user objects).
 */
export async function pagedList<P extends { total: number }, T>(
  request: FastifyRequest,
  reply: FastifyReply,
  load: (paging: Paging) => Promise<P>,
  present: (page: P) => T,
  defaultPerPage?: number,
): Promise<T> {
  const paging = parsePaging(request.query, defaultPerPage);
  const page = await load(paging);
  setPageLinks(request, reply, paging, page.total);
  return present(page);
}

/** Sets `Link` with first/prev/next/last from the total count of items. */
function setPageLinks(request: FastifyRequest, reply: FastifyReply, paging: Paging, total: number): void {
  const lastPage = Math.max(1, Math.ceil(total / paging.perPage));
  setLinks(request, reply, paging, paging.page < lastPage, lastPage);
}

/** Sets `Link` when the total is unknown: `hasNext` says whether another page exists. */
function setLinks(request: FastifyRequest, reply: FastifyReply, paging: Paging, hasNext: boolean, lastPage?: number): void {
  const link = (page: number, rel: string) =>
    `<${requestUrlWith(request, { page: String(page), per_page: String(paging.perPage) })}>; rel="${rel}"`;
  const parts: string[] = [];
  if (paging.page > 1) parts.push(link(paging.page - 1, 'prev'));
  if (hasNext) parts.push(link(paging.page + 1, 'next'));
  if (lastPage !== undefined && paging.page < lastPage) parts.push(link(lastPage, 'last'));
  if (paging.page > 1) parts.push(link(1, 'first'));
  if (parts.length) reply.header('link', parts.join(', '));
}
