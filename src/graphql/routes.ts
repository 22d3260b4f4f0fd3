// POST /graphql and POST /api/graphql (GitHub Enterprise's path): a query in, `{"data", "errors"}` out. Authentication,
// grant and rate limit are the app's hooks (a token is required, as on GitHub); query errors answer 200 in GitHub's
// error shape; a body that is not JSON or names no query answers 400.
import crypto from 'node:crypto';
import {
  execute,
  getOperationAST,
  getVariableValues,
  type GraphQLError,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
} from 'graphql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BadRequest, HttpError } from '../core/errors.js';
import type { Grant } from '../core/grants.js';
import { graphqlContext, type RateView } from './context.js';
import { formatError, typedError, validationError } from './errors.js';
import { measure } from './limits.js';
import { answerIsCacheable, PreparedQueries } from './prepared.js';
import { responseKey, viewerKey } from '../http/response-cache.js';
import { buildGraphqlSchema } from './schema.js';

/** Any signed-in caller, with any kind of token: what each field shows is decided by the areas' read rules. */
const GRANT: Grant = Object.freeze({ scopes: Object.freeze([]) as readonly string[], anonymous: false, apps: true });

const DOCS = 'https://docs.github.com/graphql';
const AUTH_DOCS = 'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql';
/** The longest query text accepted (gh's longest, `repo view --json` with every field, is about 2 KB). */
const MAX_QUERY_CHARS = 32 * 1024;
/** The most lexical tokens parsed (graphql-js stops parsing there). */
const MAX_TOKENS = 10_000;

interface Body {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** The variables object: JSON, or a string of JSON as some clients send it; anything else is a 400. */
function variablesOf(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = value.trim() ? JSON.parse(value) : {};
    } catch {
      throw new BadRequest('Variables are invalid JSON.');
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new BadRequest('Variables are invalid JSON.');
  return parsed as Record<string, unknown>;
}

function rateOf(reply: FastifyReply): RateView | null {
  const limit = reply.getHeader('x-ratelimit-limit');
  if (limit === undefined) return null;
  const n = (name: string) => Number(reply.getHeader(name));
  return { limit: Number(limit), remaining: n('x-ratelimit-remaining'), used: n('x-ratelimit-used'), reset: n('x-ratelimit-reset') };
}

/** Position of an error in the query text, then along its path (list indices in order). */
function inQueryOrder(a: GraphQLError, b: GraphQLError): number {
  const la = a.locations?.[0];
  const lb = b.locations?.[0];
  if (la && lb && (la.line !== lb.line || la.column !== lb.column)) return la.line - lb.line || la.column - lb.column;
  const pa = a.path ?? [];
  const pb = b.path ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (typeof pa[i] === 'number' && typeof pb[i] === 'number' && pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  }
  return pa.length - pb.length;
}

function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  const out: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) out[d.name.value] = d;
  return out;
}

/** The schema and the queries prepared against it, built on the first query. */
interface Graph {
  schema: GraphQLSchema;
  queries: PreparedQueries;
}

async function answer({ schema, queries }: Graph, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const body = (request.body ?? {}) as Body;
  if (typeof body.query !== 'string' || !body.query.trim())
    throw new BadRequest('A query attribute must be specified and must be a string.');
  const variables = variablesOf(body.variables);
  const operationName = typeof body.operationName === 'string' && body.operationName ? body.operationName : undefined;
  const errors = (list: readonly GraphQLError[]) => ({ errors: list.map((e) => formatError(e, request.log, request.id)) });

  if (body.query.length > MAX_QUERY_CHARS) {
    return errors([
      typedError('QUERY_TOO_COMPLEX', `Query is too large: ${body.query.length} characters, the limit is ${MAX_QUERY_CHARS}.`),
    ]);
  }
  const prepared = queries.prepare(body.query);
  if (prepared.syntax) return errors([prepared.syntax]);
  if (prepared.invalid) return errors(prepared.invalid.map(validationError));
  const { document } = prepared;
  const operation = getOperationAST(document, operationName);
  let nodeCount = 0;
  if (operation) {
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 20 });
    if (coerced.errors) return errors(coerced.errors);
    const measured = measure(schema, operation, fragmentsOf(document), coerced.coerced);
    if (measured.errors.length) return errors(measured.errors);
    nodeCount = measured.nodeCount;
  }
  const run = async () => {
    const result = await execute({
      schema,
      document,
      variableValues: variables,
      operationName,
      contextValue: graphqlContext(request.ctx, rateOf(reply), nodeCount),
    });
    // Resolvers run concurrently: their errors are listed in the order of the query, as a serial execution (GitHub's) lists them.
    return result.errors?.length ? { data: result.data ?? null, ...errors([...result.errors].sort(inQueryOrder)) } : { data: result.data };
  };
  if (!operation || !answerIsCacheable(operation, document)) return run();
  // A read of the database only: kept per caller and query while nothing changed. An answer with errors is not kept (it
  // names this request's id), so it is thrown past the cache and sent as it is.
  const key = viewerKey(
    responseKey(request.mediaParam, `${request.originalUrl} ${digest([body.query, variables, operationName ?? null])}`),
    request.apiVersion,
    request.headers,
  );
  try {
    return await request.ctx.responses.respond(request, reply, key, async () => {
      const answered = await run();
      if ('errors' in answered) throw new NotKept(answered);
      return answered;
    });
  } catch (err) {
    if (err instanceof NotKept) return err.answer;
    throw err;
  }
}

/** An answer the cache must not keep, carried out of `respond` (which keeps nothing that throws). */
class NotKept {
  constructor(readonly answer: Record<string, unknown>) {}
}

function digest(value: unknown): string {
  return crypto.createHash('sha256').update(JSON.stringify(value)).digest('base64');
}

export async function graphqlRoutes(app: FastifyInstance): Promise<void> {
  // Built on the first query, not at start: `serve` is ready sooner, and most servers never see a GraphQL query.
  let built: Graph | undefined;
  const graph = (): Graph => {
    if (!built) {
      const schema = buildGraphqlSchema();
      built = { schema, queries: new PreparedQueries(schema, MAX_TOKENS) };
    }
    return built;
  };
  // GitHub's GraphQL bodies for refusals (401 without a token, bad credentials, rate limit, a bad body); anything
  // else goes on to the app's handler.
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    if (error.status === 401 && error.message === 'Requires authentication') {
      return reply
        .code(401)
        .send({ message: 'This endpoint requires you to be authenticated.', documentation_url: AUTH_DOCS, status: '401' });
    }
    return reply.code(error.status).headers(error.headers).send(error.body(DOCS));
  });
  for (const url of ['/graphql', '/api/graphql']) {
    app.post(url, { config: { grant: GRANT } }, (request, reply) => answer(graph(), request, reply));
  }
}
