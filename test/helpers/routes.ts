// Every route a built app serves, as [method, path template] pairs, read back from Fastify's printRoutes tree.
import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  /** The path as registered, e.g. `/orgs/:org/hooks/:hook_id`. */
  url: string;
}

/**
 * The tree printed with `commonPrefix: false` has one node per line: 4 characters of indentation per level, the node's
 * segment relative to its parent, then `(GET, HEAD, …)` when routes end there. A parametric node that several routes
 * name differently prints as `:a|:b`; the first name is kept (the value generated for it is what matters).
 */
export function listRoutes(app: FastifyInstance): RouteEntry[] {
  const out: RouteEntry[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    const segment = m[2].replace(/(:[A-Za-z_][A-Za-z0-9_]*)(?:\|:[A-Za-z_][A-Za-z0-9_]*)+/g, '$1');
    stack.length = depth;
    stack.push(segment);
    const url = stack
      .join('')
      .replace(/^\/?/, '/')
      .replace(/\/{2,}/g, '/');
    for (const method of m[3]?.split(', ') ?? []) out.push({ method, url });
  }
  return out;
}
