// Absolute URLs for every link in a response, built from the configured public base URL; GitHub-style node ids; the
// GitHub Enterprise API prefix every request path may carry.

const API_PREFIX = '/api/v3';

export interface Urls {
  /** The server's root, e.g. `http://host:3000`: html, git and raw URLs live under it. */
  base: string;
  /** An API URL: at the root, or under `/api/v3` for a request that used GitHub Enterprise's prefix. */
  api(path: string): string;
  /** Where a person would look at a thing (hublet has no web UI; these mirror GitHub's layout on the same host). */
  html(path: string): string;
  /** These URLs with API links at the root: what webhook payloads and archives carry, whatever prefix a request used. */
  readonly root: Urls;
  /** These URLs with API links under `/api/v3`, as GitHub Enterprise answers; html, git and raw URLs stay at the root. */
  readonly viaApiPrefix: Urls;
}

export function makeUrls(baseUrl: string): Urls {
  const base = baseUrl.replace(/\/+$/, '');
  const join = (p: string) => base + (p.startsWith('/') ? p : `/${p}`);
  const root = { base, api: join, html: join } as { -readonly [K in keyof Urls]: Urls[K] };
  const prefixed = { base, api: (p: string) => join(API_PREFIX + (p.startsWith('/') ? p : `/${p}`)), html: join } as typeof root;
  root.root = prefixed.root = root;
  root.viaApiPrefix = prefixed.viaApiPrefix = prefixed;
  return root;
}

/** GitHub's legacy global node id: base64 of `0<len(type)>:<Type><id>`. */
export function nodeId(type: string, id: number | string): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

/** Whether a request's URL (as received) is under GitHub Enterprise's API prefix. */
export function hasApiPrefix(url: string): boolean {
  return url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);
}

/**
 * A request target in absolute-form (`GET https://host/path?q HTTP/1.1`, which RFC 9112 §3.2.2 says servers must accept;
 * the gist gem requests its Link header's next URL so) as its origin-form, `/path?q`; any other target unchanged.
 */
export function originForm(url: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  if (!authority) return url;
  const rest = url.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** GitHub Enterprise's prefix answers exactly like the root: `/api/v3`, `/api/v3/`, `/api/v3?x` and `/api/v3/?x` are `/`. */
export function withoutApiPrefix(url: string): string {
  if (!hasApiPrefix(url)) return url;
  const rest = url.slice(API_PREFIX.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
