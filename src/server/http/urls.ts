// Absolute URLs for every link in a response, built from the configured public base URL; GitHub-style node ids; the
// GitHub Enterprise API prefix every request path may carry.

export interface Urls {
  /** The API root, e.g. `http://host:3000`. */
  base: string;
  api(path: string): string;
  /** Where a person would look at a thing (hublet has no web UI; these mirror GitHub's layout on the same host). */
  html(path: string): string;
}

export function makeUrls(baseUrl: string): Urls {
  const base = baseUrl.replace(/\/+$/, '');
  const join = (p: string) => base + (p.startsWith('/') ? p : `/${p}`);
  return { base, api: join, html: join };
}

/** GitHub's legacy global node id: base64 of `0<len(type)>:<Type><id>`. */
export function nodeId(type: string, id: number | string): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

/** Stored timestamps are toISOString() output; those only lose their milliseconds (no Date parse on list pages). */
const STORED_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function isoUtc(value: string | Date): string {
  if (typeof value === 'string' && STORED_ISO.test(value)) return `${value.slice(0, 19)}Z`;
  const d = typeof value === 'string' ? new Date(value) : value;
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const API_PREFIX = '/api/v3';

/** GitHub Enterprise's prefix answers exactly like the root: `/api/v3`, `/api/v3/`, `/api/v3?x` and `/api/v3/?x` are `/`. */
export function withoutApiPrefix(url: string): string {
  if (url !== API_PREFIX && !url.startsWith(`${API_PREFIX}/`) && !url.startsWith(`${API_PREFIX}?`)) return url;
  const rest = url.slice(API_PREFIX.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
