// Property-based queries against /api/graphql, generated from the schema itself: its fields with valid, edge and hostile
// argument values (cursors, ids, logins, counts, enums), fragments on its interfaces, unknown fields now and then. Every
// answer is a 200 in GraphQL's shape (data and/or errors with messages, never an internal error) or a 400: never a 5xx.
import fc from 'fast-check';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDL } from '../../src/graphql/sdl.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { gql } from './helpers.js';

const SEED = Number(process.env.HUBLET_FUZZ_SEED ?? 20261122);
const schema: GraphQLSchema = buildSchema(SDL);

let s: TestServer;
let token: string;
const ids: string[] = [];

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAuthenticated: 1_000_000 } });
  token = (await s.userWithToken('alice')).token;
  await s.userWithToken('bob');
  await s.createOrg('acme', 'alice');
  const gist = await s.api('POST', '/gists', {
    token,
    body: { public: false, files: { 'a.txt': { content: 'a' }, 'b.png': { content: '\u0089PNG' } } },
  });
  const repo = await s.api('POST', '/orgs/acme/repos', { token, body: { name: 'r', private: true } });
  const user = await s.api('GET', '/users/bob', { token });
  ids.push(gist.body.node_id, repo.body.node_id, user.body.node_id);
});
afterAll(async () => s?.close());

const hostileString = fc.oneof(
  fc.constantFrom('', 'nope', '../..', '\u0000', 'a'.repeat(300), 'bm9wZQ==', 'Y3Vyc29yOjI=', 'Y3Vyc29yOjk5OTk5OTk5OTk='),
  fc.string({ maxLength: 20 }),
);
const hostileInt = fc.oneof(fc.integer({ min: -2, max: 5 }), fc.constantFrom(0, 99, 100, 101, 2147483647, -2147483648));

/** A literal for one argument: mostly values that work, sometimes edges and garbage. */
function argValue(arg: GraphQLArgument): fc.Arbitrary<string> {
  const type = getNamedType(arg.type);
  const list = isListType(isNonNullType(arg.type) ? arg.type.ofType : arg.type);
  let one: fc.Arbitrary<string>;
  if (isEnumType(type)) one = fc.oneof(fc.constantFrom(...type.getValues().map((v) => v.name)), fc.constant('NOPE'));
  else if (isInputObjectType(type))
    one = fc.constantFrom('{field: CREATED_AT, direction: DESC}', '{field: UPDATED_AT, direction: ASC}', '{}', '{field: NOPE}');
  else if (type.name === 'Int') one = hostileInt.map(String);
  else if (type.name === 'Boolean') one = fc.constantFrom('true', 'false', 'null');
  else if (arg.name === 'login' || arg.name === 'owner') one = fc.constantFrom('"alice"', '"bob"', '"acme"', '"ACME"', '"nope"', '""');
  else if (arg.name === 'name') one = fc.constantFrom('"r"', '"hello"', '"nope"', '""');
  else if (arg.name === 'id' || arg.name === 'ids') one = fc.oneof(fc.constantFrom(...ids), hostileString).map((v) => JSON.stringify(v));
  else one = hostileString.map((v) => JSON.stringify(v));
  return list ? fc.array(one, { maxLength: 4 }).map((l) => `[${l.join(', ')}]`) : one;
}

function selectionOf(type: GraphQLNamedType, depth: number): fc.Arbitrary<string> {
  if (!isObjectType(type) && !isInterfaceType(type)) return fc.constant('');
  const fields = Object.values(type.getFields());
  const fragments = isInterfaceType(type) ? schema.getPossibleTypes(type) : [];
  const field = fc.constantFrom(...fields).chain((f) => {
    const named = getNamedType(f.type);
    const args = fc
      .subarray(
        f.args.map((a) =>
          (/first|last/.test(a.name) ? fc.oneof(fc.integer({ min: 1, max: 3 }).map(String), argValue(a)) : argValue(a)).map(
            (v) => `${a.name}: ${v}`,
          ),
        ),
      )
      .chain((arbs) => (arbs.length ? fc.tuple(...arbs).map((a) => `(${a.join(', ')})`) : fc.constant('')));
    if (isLeafType(named) || depth >= 4) return isLeafType(named) ? args.map((a) => `${f.name}${a}`) : fc.constant('__typename');
    return fc.tuple(args, selectionOf(named, depth + 1)).map(([a, inner]) => `${f.name}${a} { ${inner} }`);
  });
  const choices: fc.Arbitrary<string>[] = [field, field, field, fc.constant('__typename'), fc.constant('nope')];
  if (fragments.length && depth < 4)
    choices.push(fc.constantFrom(...fragments).chain((t) => selectionOf(t, depth + 1).map((inner) => `... on ${t.name} { ${inner} }`)));
  return fc.array(fc.oneof(...choices), { minLength: 1, maxLength: 3 }).map((l) => l.join(' '));
}

describe('/api/graphql under generated queries', () => {
  it('answers 200 in GraphQL’s shape or 400, never a 5xx or an internal error', async () => {
    let executed = 0;
    await fc.assert(
      fc.asyncProperty(selectionOf(schema.getQueryType()!, 0), async (body) => {
        const query = `{ ${body} }`;
        const r = await gql(s, token, query);
        const what = `${query} → ${r.status} ${r.text.slice(0, 400)}`;
        expect([200, 400], what).toContain(r.status);
        if (r.status !== 200) return;
        expect(r.body.data !== undefined || Array.isArray(r.body.errors), what).toBe(true);
        if (r.body.data) executed++;
        for (const e of r.body.errors ?? []) {
          expect(typeof e.message, what).toBe('string');
          expect(e.type, what).not.toBe('INTERNAL');
        }
      }),
      { seed: SEED, numRuns: 400 },
    );
    // The generator reaches the resolvers, not only validation.
    expect(executed).toBeGreaterThan(50);
  });
});
