// GitHub's GraphQL error shape: `{"type", "message", "path", "locations"}` for errors while executing (NOT_FOUND,
// FORBIDDEN, the query limits), `{"path", "extensions": {"code", …}, "locations", "message"}` for validation errors (an
// unknown field is `undefinedField` with GitHub's message), both answered with HTTP 200.
import { GraphQLError, type ASTNode } from 'graphql';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../core/errors.js';

/** The `type` of an execution error, as GitHub names them. */
type ErrorType =
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'UNPROCESSABLE'
  | 'INTERNAL'
  | 'MISSING_PAGINATION_BOUNDARIES'
  | 'EXCESSIVE_PAGINATION'
  | 'MAX_NODE_LIMIT_EXCEEDED'
  | 'MAX_DEPTH_EXCEEDED'
  | 'QUERY_TOO_COMPLEX'
  | 'INVALID_CURSOR_ARGUMENTS';

/** An error of a type GitHub names, at a node of the query (limits) or at a field (resolvers: graphql-js adds where). */
export function typedError(
  type: ErrorType,
  message: string,
  nodes?: readonly ASTNode[],
  path?: readonly (string | number)[],
): GraphQLError {
  return new GraphQLError(message, { nodes, path, extensions: { type } });
}

/** The NOT_FOUND error of a field whose object does not exist or the caller may not see (the field is null). */
export function notFound(message: string): GraphQLError {
  return typedError('NOT_FOUND', message);
}

/** graphql-js's validation message for an unknown field, and GitHub's for it. */
const UNDEFINED_FIELD = /^Cannot query field "([^"]+)" on type "([^"]+)"\./;
const UNKNOWN_ARGUMENT = /^Unknown argument "([^"]+)" on field "([^".]+)\.([^"]+)"\./;

/** A validation error as GitHub words it: `extensions.code` names the rule, the path runs from the operation. */
export function validationError(err: GraphQLError): GraphQLError {
  let message = err.message;
  let extensions: Record<string, unknown> = { code: 'validationError' };
  const field = UNDEFINED_FIELD.exec(message);
  const argument = UNKNOWN_ARGUMENT.exec(message);
  if (field) {
    message = `Field '${field[1]}' doesn't exist on type '${field[2]}'`;
    extensions = { code: 'undefinedField', typeName: field[2], fieldName: field[1] };
  } else if (argument) {
    message = `Field '${argument[3]}' doesn't accept argument '${argument[1]}'`;
    extensions = { code: 'argumentNotAccepted', name: argument[3], typeName: argument[2], argumentName: argument[1] };
  }
  return new GraphQLError(message, { nodes: err.nodes, source: err.source, positions: err.positions, path: err.path, extensions });
}

/** One error of a response, in GitHub's key order; a bug is logged and answered with GitHub's generic message. */
export function formatError(err: GraphQLError, log: FastifyBaseLogger, reqId: string): Record<string, unknown> {
  const original = err.originalError;
  let type = err.extensions?.type as string | undefined;
  let message = err.message;
  if (original && !(original instanceof GraphQLError)) {
    if (original instanceof HttpError && original.status < 500) {
      type = original.status === 404 ? 'NOT_FOUND' : original.status === 403 ? 'FORBIDDEN' : 'UNPROCESSABLE';
    } else {
      log.error({ reqId, err: original }, 'graphql resolver failed');
      type = 'INTERNAL';
      message = `Something went wrong while executing your query. Please include \`${reqId}\` when reporting this issue.`;
    }
  }
  const locations = err.locations?.map((l) => ({ line: l.line, column: l.column }));
  const out: Record<string, unknown> = {};
  if (type) out.type = type;
  if (err.path) out.path = err.path;
  if (err.extensions?.code) out.extensions = err.extensions;
  if (locations) out.locations = locations;
  out.message = message;
  return out;
}
