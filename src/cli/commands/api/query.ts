// Fields as a query string, for a GET or HEAD (and with --input), as gh's addQuery: keys sorted, `key[]` once per array
// element, null as an empty value, spaces as `+` (Go's url.Values.Encode). Nested objects are `key[sub]=value`; gh drops
// the parent key there (`sub=value`), which loses what the user wrote.
import type { Params } from './fields.js';

function addParam(out: [string, string][], key: string, value: unknown): void {
  if (value === null || value === undefined) out.push([key, '']);
  else if (Array.isArray(value)) for (const v of value) addParam(out, `${key}[]`, v);
  else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) addParam(out, key ? `${key}[${k}]` : k, v);
  else out.push([key, String(value)]);
}

/** `path` with the fields added to its query string (after any query it has). */
export function addQuery(path: string, params: Params): string {
  const pairs: [string, string][] = [];
  addParam(pairs, '', params);
  if (pairs.length === 0) return path;
  // Go sorts by key and keeps the values of one key in order: a stable sort on the key alone.
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const query = new URLSearchParams(pairs).toString();
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}
