// GraphQL's answers to what it refuses: no or bad credentials (401), a body that is not JSON or names no query (400),
// and query errors in GitHub's shape with HTTP 200: unknown fields, GitHub's connection rule, depth and node limits.
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { gql } from './helpers.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };

beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice');
});
afterAll(async () => s?.close());

describe('credentials', () => {
  it('without a token: 401 with GitHub’s GraphQL message', async () => {
    const r = await gql(s, undefined, 'query UserCurrent{viewer{login}}');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({
      message: 'This endpoint requires you to be authenticated.',
      documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\/graphql/),
    });
  });

  it('with a bad token: 401 Bad credentials', async () => {
    const r = await gql(s, 'ghp_notatoken', 'query UserCurrent{viewer{login}}');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/graphql' });
  });
});

describe('the request body', () => {
  it('invalid JSON: 400', async () => {
    const r = await s.api('POST', '/api/graphql', { token: alice.token, body: '{"query": ' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ message: 'Problems parsing JSON' });
  });

  it('no query: 400', async () => {
    for (const body of [{}, { query: 5 }, { query: '' }, { variables: {} }]) {
      const r = await s.api('POST', '/api/graphql', { token: alice.token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toBe('A query attribute must be specified and must be a string.');
    }
  });

  it('variables sent as a JSON string are read; other variables are a 400', async () => {
    const ok = await s.api('POST', '/api/graphql', {
      token: alice.token,
      body: { query: 'query($l: String!) { user(login: $l) { login } }', variables: '{"l":"alice"}' },
    });
    expect(ok.body).toEqual({ data: { user: { login: 'alice' } } });
    const bad = await s.api('POST', '/api/graphql', { token: alice.token, body: { query: '{ viewer { login } }', variables: [1] } });
    expect(bad.status).toBe(400);
  });

  it('a syntax error: 200 with its location', async () => {
    const r = await gql(s, alice.token, '{ viewer { login }');
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([{ locations: [{ line: 1, column: 19 }], message: expect.stringMatching(/^Syntax Error/) }]);
  });
});

describe('query errors: HTTP 200 and GitHub’s shape', () => {
  it('an unknown field is a validation error (undefinedField)', async () => {
    const r = await gql(s, alice.token, 'query { viewer { login nope } }');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      errors: [
        {
          extensions: { code: 'undefinedField', typeName: 'User', fieldName: 'nope' },
          locations: [{ line: 1, column: 24 }],
          message: "Field 'nope' doesn't exist on type 'User'",
        },
      ],
    });
  });

  it('a connection asked for its nodes without first or last (one asked only its totalCount needs neither, as gh’s `watchers{totalCount}`)', async () => {
    const r = await gql(s, alice.token, '{ viewer { gists { totalCount nodes { name } } } }');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      errors: [
        {
          type: 'MISSING_PAGINATION_BOUNDARIES',
          path: ['viewer', 'gists'],
          locations: [{ line: 1, column: 12 }],
          message: 'You must provide a `first` or `last` value to properly paginate the `gists` connection.',
        },
      ],
    });
  });

  it('first or last outside 1–100', async () => {
    const r = await gql(
      s,
      alice.token,
      'query($n: Int) { viewer { gists(first: 101) { totalCount } organizations(last: $n) { totalCount } } }',
      { n: 0 },
    );
    expect(r.body.errors.map((e: any) => [e.type, e.message])).toEqual([
      ['EXCESSIVE_PAGINATION', 'Requesting 101 records on the `gists` connection exceeds the `first` limit of 100 records.'],
      ['EXCESSIVE_PAGINATION', '`last` on the `organizations` connection must be between 1 and 100.'],
    ]);
    expect(r.body.data).toBeUndefined();
  });

  it('a query deeper than 15 levels', async () => {
    let inner = 'login';
    for (let i = 0; i < 8; i++) inner = `gists(first: 1) { nodes { owner { ... on User { ${inner} } } } }`;
    const r = await gql(s, alice.token, `{ viewer { ${inner} } }`);
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        type: 'MAX_DEPTH_EXCEEDED',
        message: expect.stringMatching(/^Query has depth of \d+, which exceeds max depth of 15$/),
      }),
    ]);
  });

  it('a query that could return more than 10,000 nodes', async () => {
    const r = await gql(
      s,
      alice.token,
      '{ viewer { gists(first: 100) { nodes { owner { ... on User { gists(first: 100) { nodes { name } } } } } } } }',
    );
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        type: 'MAX_NODE_LIMIT_EXCEEDED',
        message: 'This query requests up to 10,100 possible nodes which exceeds the maximum limit of 10,000.',
      }),
    ]);
    const ok = await gql(
      s,
      alice.token,
      '{ viewer { gists(first: 100) { nodes { owner { ... on User { gists(first: 99) { nodes { name } } } } } } } rateLimit { nodeCount } }',
    );
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.rateLimit.nodeCount).toBe(100 + 9900);
  });

  it('fragments spread many times cannot make measuring the query itself expensive', async () => {
    const fragments = Array.from({ length: 20 }, (_, i) => `fragment F${i} on User { ...F${i + 1} ...F${i + 1} }`).join('\n');
    const r = await gql(s, alice.token, `{ viewer { ...F0 } }\n${fragments}\nfragment F20 on User { login }`);
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([expect.objectContaining({ type: 'QUERY_TOO_COMPLEX' })]);
  });

  it('a query text over the size limit', async () => {
    const r = await gql(s, alice.token, `{ viewer { login } }${' '.repeat(40_000)}`);
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([
      expect.objectContaining({ type: 'QUERY_TOO_COMPLEX', message: expect.stringMatching(/^Query is too large/) }),
    ]);
  });
});

describe('introspection', () => {
  it('is allowed: the standard introspection query runs and names GitHub’s types', async () => {
    const r = await gql(s, alice.token, getIntrospectionQuery());
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const names = r.body.data.__schema.types.map((t: any) => t.name);
    for (const name of [
      'Query',
      'User',
      'Organization',
      'Gist',
      'GistFile',
      'GistConnection',
      'Repository',
      'PageInfo',
      'RateLimit',
      'GistPrivacy',
    ])
      expect(names).toContain(name);
  });

  it('lists nested without end are refused (graphql-js’s introspection depth rule)', async () => {
    const r = await gql(s, alice.token, '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }');
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([expect.objectContaining({ message: 'Maximum introspection depth exceeded' })]);
  });
});
