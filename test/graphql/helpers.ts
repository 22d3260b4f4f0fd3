// Posting GraphQL queries to a test server the way gh does (POST /api/graphql, JSON body, a token).
import type { ApiResult, TestServer } from '../helpers/server.js';

export async function gql(
  s: TestServer,
  token: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
  path = '/api/graphql',
): Promise<ApiResult> {
  return s.api('POST', path, { token, body: variables === undefined ? { query } : { query, variables } });
}
