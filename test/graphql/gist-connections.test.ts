// A gist's forks and comments as GraphQL connections (Gist.forks, Gist.comments): the same gists and comments REST's
// GET /gists/{id}/forks and /comments list, oldest first, with their owners and authors, paged with first/after/last.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { gql } from './helpers.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
let carol: { login: string; id: number; token: string };
let now = new Date('2026-03-01T00:00:00Z');
let gist: any;
const comments: any[] = [];

beforeAll(async () => {
  s = await startServer({ clock: { now: () => now } });
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  carol = await s.userWithToken('carol');
  gist = (
    await s.api('POST', '/gists', {
      token: alice.token,
      body: { public: true, description: 'parent', files: { 'a.txt': { content: 'a\n' } } },
    })
  ).body;
  for (const [i, who] of [bob, carol].entries()) {
    now = new Date(`2026-03-0${2 + i}T00:00:00Z`);
    expect((await s.api('POST', `/gists/${gist.id}/forks`, { token: who.token })).status).toBe(201);
  }
  for (const [i, [who, body]] of (
    [
      [bob, 'first!'],
      [alice, 'thanks'],
      [carol, 'late'],
    ] as const
  ).entries()) {
    now = new Date(`2026-03-1${i}T00:00:00Z`);
    const r = await s.api('POST', `/gists/${gist.id}/comments`, { token: who.token, body: { body } });
    expect(r.status).toBe(201);
    comments.push(r.body);
  }
  now = new Date('2026-03-20T00:00:00Z');
  expect(
    (await s.api('PATCH', `/gists/${gist.id}/comments/${comments[0].id}`, { token: bob.token, body: { body: 'first! (edited)' } })).status,
  ).toBe(200);
});
afterAll(async () => s?.close());

const GIST = `query($id: ID!, $first: Int, $last: Int, $after: String) { node(id: $id) { ... on Gist {
  forks(first: $first, last: $last, after: $after) { totalCount nodes { description isFork owner { login } files { name } } pageInfo { hasNextPage endCursor } }
  comments(first: $first, last: $last, after: $after) { totalCount nodes { id databaseId body bodyText author { login } createdAt updatedAt lastEditedAt viewerDidAuthor viewerCanUpdate viewerCanDelete gist { name } } pageInfo { hasNextPage endCursor } }
} } }`;

async function gistAs(token: string, variables: Record<string, unknown>) {
  const r = await gql(s, token, GIST, { id: gist.node_id, ...variables });
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
  return r.body.data.node;
}

describe('Gist.forks and Gist.comments', () => {
  it('lists the forks with their owners and files, oldest first', async () => {
    const { forks } = await gistAs(alice.token, { first: 10 });
    expect(forks).toEqual({
      totalCount: 2,
      nodes: [
        { description: 'parent', isFork: true, owner: { login: 'bob' }, files: [{ name: 'a.txt' }] },
        { description: 'parent', isFork: true, owner: { login: 'carol' }, files: [{ name: 'a.txt' }] },
      ],
      pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
    });
  });

  it('lists the comments as REST does, with who may edit and delete each', async () => {
    const { comments: c } = await gistAs(bob.token, { first: 10 });
    expect(c.totalCount).toBe(3);
    expect(c.nodes[0]).toEqual({
      id: comments[0].node_id,
      databaseId: comments[0].id,
      body: 'first! (edited)',
      bodyText: 'first! (edited)',
      author: { login: 'bob' },
      createdAt: '2026-03-10T00:00:00Z',
      updatedAt: '2026-03-20T00:00:00Z',
      lastEditedAt: '2026-03-20T00:00:00Z',
      viewerDidAuthor: true,
      viewerCanUpdate: true,
      viewerCanDelete: true,
      gist: { name: gist.id },
    });
    expect(c.nodes.slice(1).map((n: any) => [n.author.login, n.body, n.lastEditedAt, n.viewerCanUpdate, n.viewerCanDelete])).toEqual([
      ['alice', 'thanks', null, false, false],
      ['carol', 'late', null, false, false],
    ]);
    // The gist's owner may delete every comment, edit only her own.
    const owner = await gistAs(alice.token, { first: 10 });
    expect(owner.comments.nodes.map((n: any) => [n.viewerCanUpdate, n.viewerCanDelete])).toEqual([
      [false, true],
      [true, true],
      [false, true],
    ]);
  });

  it('pages forward with first/after and backward with last', async () => {
    const first = await gistAs(carol.token, { first: 2 });
    expect(first.comments.nodes.map((n: any) => n.body)).toEqual(['first! (edited)', 'thanks']);
    expect(first.comments.pageInfo.hasNextPage).toBe(true);
    const next = await gistAs(carol.token, { first: 2, after: first.comments.pageInfo.endCursor });
    expect(next.comments.nodes.map((n: any) => n.body)).toEqual(['late']);
    expect(next.forks.nodes).toEqual([]);
    const last = await gistAs(carol.token, { last: 1 });
    expect(last.comments.nodes.map((n: any) => n.body)).toEqual(['late']);
    expect(last.forks.nodes.map((n: any) => n.owner.login)).toEqual(['carol']);
  });

  it('counts without first or last; asks for first or last before listing', async () => {
    const counts = await gql(
      s,
      bob.token,
      'query($id: ID!) { node(id: $id) { ... on Gist { forks { totalCount } comments { totalCount } stargazerCount } } }',
      { id: gist.node_id },
    );
    expect(counts.body).toEqual({ data: { node: { forks: { totalCount: 2 }, comments: { totalCount: 3 }, stargazerCount: 0 } } });
    const nodes = await gql(s, bob.token, 'query($id: ID!) { node(id: $id) { ... on Gist { comments { nodes { body } } } } }', {
      id: gist.node_id,
    });
    expect(nodes.body.errors).toEqual([expect.objectContaining({ type: 'MISSING_PAGINATION_BOUNDARIES' })]);
  });
});
