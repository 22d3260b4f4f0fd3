// Path-parameter schemas the routes share: one declaration per parameter set, each typed for json-schema-to-ts so
// that `request.params` takes its type from it (typed.ts).

const text = { type: 'string' } as const;

/** The schema of path parameters `names`, each a string. */
export function pathParams<const N extends readonly string[]>(...names: N) {
  const properties = Object.fromEntries(names.map((n) => [n, text])) as { [K in N[number]]: typeof text };
  return { type: 'object', properties, required: names } as const;
}

/** `/users/{username}…` */
export const userParams = pathParams('username');
/** `/orgs/{org}…` */
export const orgParams = pathParams('org');
/** `/repos/{owner}/{repo}…` */
export const repoParams = pathParams('owner', 'repo');
/** `/orgs/{org}/members/{username}`, `/orgs/{org}/memberships/{username}` */
export const memberParams = pathParams('org', 'username');
