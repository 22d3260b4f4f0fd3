// The labels a request is counted under, from a bounded set whatever clients send: the route's template in OpenAPI's
// style (`/gists/{gist_id}`, never an id), `unmatched` when no route matched, and a fixed list of methods.

/** The label of requests no route matched (unknown URLs, whatever their ids). */
const UNMATCHED = 'unmatched';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A request method as a label: the methods routes use, anything else `other`. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'other';
}

/**
 * Fastify's URL pattern as a template: `:name` parameters become `{name}` and a trailing wildcard `{path}`
 * (`/gist/:gist_id.git/info/refs` → `/gist/{gist_id}.git/info/refs`). Patterns are the app's own routes, so the set of
 * labels is as bounded as the routes; each is converted once.
 */
export class RouteLabels {
  private readonly templates = new Map<string, string>();

  of(pattern: string | null | undefined): string {
    if (!pattern) return UNMATCHED;
    let label = this.templates.get(pattern);
    if (label === undefined) {
      label = pattern.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*/g, '{path}');
      this.templates.set(pattern, label);
    }
    return label;
  }
}
