// `hublet api --paginate`: the next page from the response's `Link: <…>; rel="next"`, and `per_page=100` added to the
// first request unless the fields or the path name a page size; for `graphql`, the next `endCursor` from the first
// `pageInfo { hasNextPage endCursor }` of the answer (gh's pagination.go).
import type { Params } from './fields.js';

const LINK = /<([^>]+)>;\s*rel="([^"]+)"/g;

/** The absolute URL of the next page, if the response names one. */
export function findNextPage(linkHeader: string | undefined): string | undefined {
  for (const m of (linkHeader ?? '').matchAll(LINK)) if (m[2] === 'next') return m[1];
  return undefined;
}

/** The path with `per_page=N` added, unless the fields or the path's query already set it. */
export function addPerPage(path: string, perPage: number, params: Params): string {
  if (Object.hasOwn(params, 'per_page')) return path;
  const q = path.indexOf('?');
  if (q >= 0 && new URLSearchParams(path.slice(q + 1)).get('per_page')) return path;
  return `${path}${q >= 0 ? '&' : '?'}per_page=${perPage}`;
}

/**
 * The next page's URL as a path the client can request. The client prefixes its own server URL (remote) or base path
 * (local), and the server's links carry that prefix too (`/api/v3`, or a proxy's path): what the link's path has before
 * the path last requested is that prefix, and is dropped. A link to another endpoint keeps its whole path.
 */
export function nextRequestPath(next: string, lastRequested: string): string {
  const link = new URL(next, 'http://relative.invalid');
  const requested = new URL(lastRequested, 'http://relative.invalid').pathname;
  const prefix = link.pathname.endsWith(requested) ? link.pathname.slice(0, link.pathname.length - requested.length) : '';
  return `${link.pathname.slice(prefix.length)}${link.search}`;
}

/** The first `pageInfo` holding both `hasNextPage` and `endCursor`, in document order. */
function firstPageInfo(value: unknown): { hasNextPage?: unknown; endCursor?: unknown } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'pageInfo' && !Array.isArray(value) && typeof v === 'object' && v !== null && 'hasNextPage' in v && 'endCursor' in v)
      return v;
    const found = firstPageInfo(v);
    if (found) return found;
  }
  return undefined;
}

/** gh's findEndCursor: the cursor of the first complete `pageInfo`, while it says there is a next page. */
export function findEndCursor(value: unknown): string | undefined {
  const info = firstPageInfo(value);
  return info?.hasNextPage === true && typeof info.endCursor === 'string' ? info.endCursor : undefined;
}
