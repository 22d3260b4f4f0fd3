// node(id)/nodes(ids) for the node_ids the REST API hands out, accounts by login, and the same read rules as REST:
// another user's secret gists are absent from their lists, private repositories are null with NOT_FOUND.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { gql } from './helpers.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
const rest: Record<string, any> = {};

beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  await s.createOrg('acme', 'alice');
  rest.publicGist = (
    await s.api('POST', '/gists', {
      token: alice.token,
      body: { public: true, description: 'pub', files: { 'a.py': { content: 'print(1)\n' } } },
    })
  ).body;
  rest.secretGist = (
    await s.api('POST', '/gists', {
      token: alice.token,
      body: { public: false, description: 'sec', files: { 'b.txt': { content: 'b\n' } } },
    })
  ).body;
  rest.repo = (await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'pub' } })).body;
  rest.privateRepo = (await s.api('POST', '/orgs/acme/repos', { token: alice.token, body: { name: 'inner', private: true } })).body;
  rest.alice = (await s.api('GET', '/users/alice', { token: alice.token })).body;
  rest.acme = (await s.api('GET', '/orgs/acme', { token: alice.token })).body;
  expect(rest.privateRepo.node_id).toEqual(expect.any(String));
});
afterAll(async () => s?.close());

const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on Gist { name description isPublic owner { login } files { name extension language { name } size text encodedName isImage isTruncated } stargazerCount viewerHasStarred }
  ... on Repository { nameWithOwner isPrivate } ... on User { login databaseId } ... on Organization { login viewerIsAMember } } }`;

describe('node(id) and nodes(ids)', () => {
  it('finds a gist by the node_id REST returns, with its files', async () => {
    expect((await s.api('PUT', `/gists/${rest.publicGist.id}/star`, { token: bob.token })).status).toBe(204);
    const r = await gql(s, bob.token, NODE, { id: rest.publicGist.node_id });
    expect(r.body).toEqual({
      data: {
        node: {
          __typename: 'Gist',
          id: rest.publicGist.node_id,
          name: rest.publicGist.id,
          description: 'pub',
          isPublic: true,
          owner: { login: 'alice' },
          files: [
            {
              name: 'a.py',
              extension: '.py',
              language: { name: 'Python' },
              size: 9,
              text: 'print(1)\n',
              encodedName: 'a.py',
              isImage: false,
              isTruncated: false,
            },
          ],
          stargazerCount: 1,
          viewerHasStarred: true,
        },
      },
    });
  });

  it('finds a repository, a user and an organization by their node_ids', async () => {
    const r = await gql(
      s,
      alice.token,
      'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Repository { nameWithOwner } ... on User { login databaseId } ... on Organization { login viewerIsAMember } } }',
      {
        ids: [rest.repo.node_id, rest.alice.node_id, rest.acme.node_id, rest.privateRepo.node_id],
      },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.nodes).toEqual([
      { __typename: 'Repository', id: rest.repo.node_id, nameWithOwner: 'alice/pub' },
      { __typename: 'User', id: rest.alice.node_id, login: 'alice', databaseId: alice.id },
      { __typename: 'Organization', id: rest.acme.node_id, login: 'acme', viewerIsAMember: true },
      { __typename: 'Repository', id: rest.privateRepo.node_id, nameWithOwner: 'acme/inner' },
    ]);
  });

  it('a private repository the caller may not read, and ids that name nothing, are null with NOT_FOUND', async () => {
    const bogus = Buffer.from('04:Gist0000').toString('base64');
    const r = await gql(s, bob.token, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: [rest.privateRepo.node_id, 'not-an-id', bogus, rest.repo.node_id],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.nodes).toEqual([null, null, null, { id: rest.repo.node_id }]);
    expect(r.body.errors.map((e: any) => [e.type, e.path, e.message])).toEqual([
      ['NOT_FOUND', ['nodes', 0], `Could not resolve to a node with the global id of '${rest.privateRepo.node_id}'`],
      ['NOT_FOUND', ['nodes', 1], "Could not resolve to a node with the global id of 'not-an-id'"],
      ['NOT_FOUND', ['nodes', 2], `Could not resolve to a node with the global id of '${bogus}'`],
    ]);
  });

  it('looks up at most 100 ids at once', async () => {
    const r = await gql(s, alice.token, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: Array.from({ length: 101 }, () => rest.repo.node_id),
    });
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([expect.objectContaining({ type: 'EXCESSIVE_PAGINATION', path: ['nodes'] })]);
  });

  it('a file’s text can be truncated', async () => {
    const made = await s.api('POST', '/gists', { token: bob.token, body: { files: { 'long.txt': { content: 'abcdefgh' } } } });
    expect(made.status).toBe(201);
    const r = await gql(
      s,
      alice.token,
      'query($id: ID!) { node(id: $id) { ... on Gist { files(limit: 1) { name text(truncate: 3) encoding } } } }',
      { id: made.body.node_id },
    );
    expect(r.body.data.node.files).toEqual([{ name: 'long.txt', text: 'abc', encoding: 'UTF-8' }]);
  });
});

describe('visibility', () => {
  it('another user’s secret gists are not in their list, whatever the privacy asked', async () => {
    for (const privacy of ['ALL', 'SECRET', 'PUBLIC', null]) {
      const r = await gql(
        s,
        bob.token,
        'query($p: GistPrivacy) { user(login: "alice") { gists(first: 10, privacy: $p) { totalCount nodes { description } } } }',
        { p: privacy },
      );
      const want = privacy === 'SECRET' ? [] : ['pub'];
      expect(r.body.data.user.gists, String(privacy)).toEqual({
        totalCount: want.length,
        nodes: want.map((description) => ({ description })),
      });
    }
    const own = await gql(s, alice.token, '{ user(login: "alice") { gists(first: 10) { totalCount } } }');
    expect(own.body.data.user.gists.totalCount).toBe(2);
  });

  it('a private repository is null with NOT_FOUND for non-members, through repository() and an owner', async () => {
    const r = await gql(
      s,
      bob.token,
      '{ repository(owner: "acme", name: "inner") { id } organization(login: "acme") { login viewerIsAMember repository(name: "inner") { id } } }',
    );
    expect(r.body.data).toEqual({ repository: null, organization: { login: 'acme', viewerIsAMember: false, repository: null } });
    expect(r.body.errors.map((e: any) => [e.type, e.path, e.message])).toEqual([
      ['NOT_FOUND', ['repository'], "Could not resolve to a Repository with the name 'acme/inner'."],
      ['NOT_FOUND', ['organization', 'repository'], "Could not resolve to a Repository with the name 'acme/inner'."],
    ]);
    const member = await gql(s, alice.token, '{ repository(owner: "acme", name: "inner") { isPrivate visibility viewerPermission } }');
    expect(member.body.data.repository).toEqual({ isPrivate: true, visibility: 'PRIVATE', viewerPermission: 'ADMIN' });
  });

  it('user() and organization() name only their kind of account', async () => {
    const r = await gql(s, alice.token, '{ user(login: "acme") { login } organization(login: "alice") { login } }');
    expect(r.body.data).toEqual({ user: null, organization: null });
    expect(r.body.errors.map((e: any) => e.message)).toEqual([
      "Could not resolve to a User with the login of 'acme'.",
      "Could not resolve to an Organization with the login of 'alice'.",
    ]);
  });

  it('the viewer sees their own organizations; nobody sees another user’s memberships', async () => {
    const own = await gql(s, alice.token, '{ viewer { login organizations(first: 100) { nodes { login } totalCount } } }');
    expect(own.body.data.viewer).toEqual({ login: 'alice', organizations: { nodes: [{ login: 'acme' }], totalCount: 1 } });
    const other = await gql(s, bob.token, '{ user(login: "alice") { organizations(first: 100) { totalCount } } }');
    expect(other.body.data.user.organizations.totalCount).toBe(0);
  });
});
