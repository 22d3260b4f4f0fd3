// The request `hublet api` sends, from its flags, as gh's apiRun builds it: the method (GET, or POST once there are fields
// or an --input body, unless -X says), the fields as a JSON body or, for GET and HEAD (and with --input), as the query
// string; `graphql` requests with the fields other than query and operationName as `variables`; request headers.
import type { IO } from '../../io.js';
import { CliExit, EXIT } from '../../output.js';
import { parseFields, userFileReader, type Params, type ReadUserFile } from './fields.js';
import { addPerPage } from './paginate.js';
import { addQuery } from './query.js';

/** The flags the request is made of. */
export interface RequestFlags {
  method?: string;
  rawField?: string[];
  field?: string[];
  header?: string[];
  input?: string;
  paginate?: boolean;
}

export interface ApiRequest {
  method: string;
  path: string;
  /** The fields, kept for GraphQL pagination (which sends them again with the next `endCursor`). */
  params: Params;
  body?: string | Params;
  headers: Record<string, string>;
  graphql: boolean;
}

const usage = (message: string) => new CliExit(EXIT.usage, `hublet: ${message}`);

/** gh's groupGraphQLVariables: `query` and `operationName` stay at the top, every other field goes under `variables`. */
export function graphqlBody(params: Params): Params {
  const top: Params = {};
  const variables: Params = {};
  for (const [k, v] of Object.entries(params)) {
    if (k === 'query' || k === 'operationName') top[k] = v;
    else variables[k] = v;
  }
  if (Object.keys(variables).length > 0) top.variables = variables;
  return top;
}

function parseHeaders(list: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(':');
    if (i <= 0) throw usage(`header ${JSON.stringify(h)} requires a value separated by ':'`);
    headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  return headers;
}

/** The --input body: the file, or stdin for `-` (which a `-F key=@-` field may have read already: refused). */
async function readInput(file: string, readUserFile: ReadUserFile): Promise<string> {
  try {
    return await readUserFile(file);
  } catch (err) {
    throw usage(`cannot read --input ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Everything the flags say about the request; usage errors (exit 2) before any file but the named ones is touched. */
export async function buildRequest(endpoint: string, flags: RequestFlags, io: IO): Promise<ApiRequest> {
  if (flags.method !== undefined && !/^[A-Za-z]+$/.test(flags.method)) throw usage(`not an HTTP method: ${flags.method}`);
  const headers = parseHeaders(flags.header ?? []);
  const readUserFile = userFileReader(io);
  const params = await parseFields(flags.rawField ?? [], flags.field ?? [], readUserFile);
  const hasParams = Object.keys(params).length > 0;
  const graphql = endpoint === 'graphql' || endpoint === '/graphql';
  let method = (flags.method ?? 'GET').toUpperCase();
  if (flags.method === undefined && (hasParams || flags.input !== undefined)) method = 'POST';

  let path = endpoint.startsWith('/') ? endpoint : `/${endpoint}`;
  if (flags.paginate && !graphql) path = addPerPage(path, 100, params);
  let body: string | Params | undefined;
  if (flags.input !== undefined) {
    body = await readInput(flags.input, readUserFile);
    path = addQuery(path, params);
  } else if (hasParams) {
    if (method === 'GET' || method === 'HEAD') path = addQuery(path, params);
    else body = graphql ? graphqlBody(params) : params;
  }
  return { method, path, params, body, headers, graphql };
}
