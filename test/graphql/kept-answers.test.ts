// GraphQL reads answered from the response cache (graphql/routes.ts): a query's answer is kept per caller and query
// while nothing changed, so it is never stale, never another caller's, never kept when it asks for the rate-limit state
// or has errors; a query text seen before is not parsed or validated again, and still refused when it is wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { countRouted } from '../helpers/routed-count.js';
import { countQueries } from '../helpers/query-count.js';
import { gql } from './helpers.js';

let s: TestServer;
let ann: { token: string };
let ben: { token: string };
let respondCalls: () => number;
beforeAll(async () => {
  s = await startServer();
  ann = await s.userWithToken('ann');
  ben = await s.userWithToken('ben');
  for (const [who, name] of [
    [ann, 'a.txt'],
    [ben, 'b.txt'],
  ] as const) {
    await s.api('POST', '/gists', { token: who.token, body: { public: true, description: name, files: { [name]: { content: 'x' } } } });
  }
  respondCalls = countRouted(s);
});
afterAll(() => s.close());

const GISTS = '{ viewer { login gists(first: 30) { nodes { description } } } }';
const descriptions = (r: { body: any }) => r.body.data.viewer.gists.nodes.map((n: { description: string }) => n.description);

describe('GraphQL answers kept per caller', () => {
  it('answers a repeated query from the cache, the same bytes, and afresh after any write', async () => {
    const first = await gql(s, ann.token, GISTS);
    expect(descriptions(first)).toEqual(['a.txt']);
    // The same query again reads nothing (on PostgreSQL another file's commit may move the stamp: a few tries).
    let reads = -1;
    for (let i = 0; i < 5 && reads !== 0; i++) {
      reads = await countQueries(s, async () => {
        expect((await gql(s, ann.token, GISTS)).text).toBe(first.text);
      });
    }
    expect(reads).toBe(0);
    await s.api('POST', '/gists', { token: ann.token, body: { public: false, description: 'new', files: { 'n.txt': { content: 'n' } } } });
    expect(descriptions(await gql(s, ann.token, GISTS))).toEqual(['a.txt', 'new']);
  });

  it("never gives one caller another's answer, nor one query another's", async () => {
    await gql(s, ann.token, GISTS);
    const bens = await gql(s, ben.token, GISTS);
    expect(bens.body.data.viewer.login).toBe('ben');
    expect(descriptions(bens)).toEqual(['b.txt']);
    const other = await gql(s, ann.token, '{ viewer { login gists(first: 1) { nodes { description } } } }');
    expect(descriptions(other)).toHaveLength(1);
    const named = await gql(s, ann.token, 'query($n: Int!) { viewer { gists(first: $n) { nodes { description } } } }', { n: 2 });
    expect(named.body.data.viewer.gists.nodes).toHaveLength(2);
    const fewer = await gql(s, ann.token, 'query($n: Int!) { viewer { gists(first: $n) { nodes { description } } } }', { n: 1 });
    expect(fewer.body.data.viewer.gists.nodes).toHaveLength(1);
  });

  it('answers rateLimit afresh every time, even through a fragment', async () => {
    const query = '{ ...R viewer { login } } fragment R on Query { rateLimit { remaining used } }';
    const a = await gql(s, ann.token, query);
    const b = await gql(s, ann.token, query);
    expect(b.body.data.rateLimit.used).toBe(a.body.data.rateLimit.used + 1);
    expect(b.body.data.rateLimit.remaining).toBe(Number(b.headers.get('x-ratelimit-remaining')));
  });

  it('refuses a wrong query every time it comes, and keeps no answer that has errors', async () => {
    for (let i = 0; i < 2; i++) {
      const invalid = await gql(s, ann.token, '{ viewer { nosuchfield } }');
      expect(invalid.body.errors[0].extensions.code).toBe('undefinedField');
      const syntax = await gql(s, ann.token, '{ viewer { login }');
      expect(syntax.body.errors[0].message).toMatch(/^Syntax Error/);
    }
    const missing = '{ user(login: "nobody") { login } }';
    const before = respondCalls();
    expect((await gql(s, ann.token, missing)).body.errors[0].type).toBe('NOT_FOUND');
    await s.createUser('nobody');
    expect((await gql(s, ann.token, missing)).body.data.user.login).toBe('nobody');
    expect(respondCalls()).toBe(before + 2);
  });
});
