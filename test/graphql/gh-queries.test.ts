// gh 2.23's GraphQL queries, copied verbatim from its source (github.com/cli/cli at v2.23.0), answer what gh reads:
// the current login, the gist list with privacy and paging, the repository lookups of `repo clone` and `repo view`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { gql } from './helpers.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
let now = new Date('2026-01-01T00:00:00Z');
const gists: Record<string, string> = {};

async function gistAt(name: string, token: string, isPublic: boolean, at: string): Promise<void> {
  now = new Date(at);
  const r = await s.api('POST', '/gists', {
    token,
    body: { public: isPublic, description: name, files: { [`${name}.txt`]: { content: `${name}\n` }, 'b.md': { content: '# b\n' } } },
  });
  expect(r.status).toBe(201);
  gists[name] = r.body.id;
}

beforeAll(async () => {
  s = await startServer({ clock: { now: () => now } });
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  await gistAt('alice-1', alice.token, true, '2026-01-02T00:00:00Z');
  await gistAt('alice-secret', alice.token, false, '2026-01-03T00:00:00Z');
  await gistAt('bob-secret', bob.token, false, '2026-01-04T00:00:00Z');
  await gistAt('alice-2', alice.token, true, '2026-01-05T00:00:00Z');
  await gistAt('alice-3', alice.token, true, '2026-01-06T00:00:00Z');
  now = new Date('2026-01-10T00:00:00Z');
  expect(
    (
      await s.api('POST', '/user/repos', {
        token: alice.token,
        body: { name: 'hello', description: 'greetings', auto_init: true, has_wiki: false },
      })
    ).status,
  ).toBe(201);
  expect((await s.api('POST', '/user/repos', { token: bob.token, body: { name: 'hidden', private: true } })).status).toBe(201);
  expect((await s.api('PUT', '/repos/alice/hello/topics', { token: alice.token, body: { names: ['cli', 'demo'] } })).status).toBe(200);
});
afterAll(async () => s?.close());

// api/queries_user.go CurrentLoginName (gh auth status, gh gist edit's owner check, gh repo clone NAME), built by
// shurcooL-graphql from the struct: query UserCurrent{viewer{login}}.
const USER_CURRENT = 'query UserCurrent{viewer{login}}';

// pkg/cmd/gist/shared/shared.go ListGists (gh gist list), as shurcooL-graphql builds it from the struct and variables.
const GIST_LIST =
  'query GistList($endCursor:String$per_page:Int!$visibility:GistPrivacy!){viewer{gists(first: $per_page, after: $endCursor, privacy: $visibility, orderBy: {field: CREATED_AT, direction: DESC}){nodes{description,files{name},isPublic,name,updatedAt},pageInfo{hasNextPage,endCursor}}}}';

// The same in current gh (cli/cli main, `gh gist list --filter --include-content`): files' text behind @include.
const GIST_LIST_CURRENT =
  'query GistList($endCursor:String$includeContent:Boolean!$per_page:Int!$visibility:GistPrivacy!){viewer{gists(first: $per_page, after: $endCursor, privacy: $visibility, orderBy: {field: CREATED_AT, direction: DESC}){nodes{description,files{name,text @include(if: $includeContent)},isPublic,name,updatedAt},pageInfo{hasNextPage,endCursor}}}}';

// api/queries_repo.go GitHubRepo (gh repo clone: canonical name, parent for the upstream remote, default branch).
const GITHUB_REPO = `
	fragment repo on Repository {
		id
		name
		owner { login }
		hasIssuesEnabled
		description
		hasWikiEnabled
		viewerPermission
		defaultBranchRef {
			name
		}
	}

	query RepositoryInfo($owner: String!, $name: String!) {
		repository(owner: $owner, name: $name) {
			...repo
			parent {
				...repo
			}
			mergeCommitAllowed
			rebaseMergeAllowed
			squashMergeAllowed
		}
	}`;

// api/queries_repo.go FetchRepository with RepositoryGraphQL(fields) of api/query_builder.go: gh repo view's default
// fields (name, owner, description).
const REPO_VIEW = `query RepositoryInfo($owner: String!, $name: String!) {
		repository(owner: $owner, name: $name) {name,owner{id,login},description}
	}`;

describe('gh auth status, gh gist edit: query UserCurrent', () => {
  it('answers the token owner’s login at /api/graphql and /graphql, with the rate-limit headers', async () => {
    for (const path of ['/api/graphql', '/graphql']) {
      const r = await gql(s, alice.token, USER_CURRENT, undefined, path);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.body).toEqual({ data: { viewer: { login: 'alice' } } });
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-used', 'x-ratelimit-reset', 'x-ratelimit-resource']) {
        expect(r.headers.get(h), h).toMatch(/\S/);
      }
    }
  });

  it('reports the same rate-limit state in rateLimit as in the headers', async () => {
    const r = await gql(s, bob.token, '{ rateLimit { limit remaining used cost resetAt nodeCount } }');
    expect(r.body.data.rateLimit).toEqual({
      limit: Number(r.headers.get('x-ratelimit-limit')),
      remaining: Number(r.headers.get('x-ratelimit-remaining')),
      used: Number(r.headers.get('x-ratelimit-used')),
      cost: 1,
      resetAt: new Date(Number(r.headers.get('x-ratelimit-reset')) * 1000).toISOString().replace('.000Z', 'Z'),
      nodeCount: 0,
    });
  });
});

describe('gh gist list: query GistList', () => {
  const list = async (token: string, visibility: string, perPage = 10, endCursor: string | null = null) => {
    const r = await gql(s, token, GIST_LIST, { per_page: perPage, endCursor, visibility });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    return r.body.data.viewer.gists;
  };
  const descriptions = (g: any) => g.nodes.map((n: any) => n.description);

  it('lists the caller’s gists, secret ones too, newest created first, with what gh reads', async () => {
    const g = await list(alice.token, 'ALL');
    expect(descriptions(g)).toEqual(['alice-3', 'alice-2', 'alice-secret', 'alice-1']);
    expect(g.nodes[0]).toEqual({
      description: 'alice-3',
      files: [{ name: 'alice-3.txt' }, { name: 'b.md' }],
      isPublic: true,
      name: gists['alice-3'],
      updatedAt: '2026-01-06T00:00:00Z',
    });
    expect(g.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });
  });

  it('--public and --secret: PUBLIC and SECRET', async () => {
    expect(descriptions(await list(alice.token, 'PUBLIC'))).toEqual(['alice-3', 'alice-2', 'alice-1']);
    expect(descriptions(await list(alice.token, 'SECRET'))).toEqual(['alice-secret']);
    expect(descriptions(await list(bob.token, 'SECRET'))).toEqual(['bob-secret']);
  });

  it('pages with first/after as gh follows endCursor', async () => {
    const first = await list(alice.token, 'ALL', 3);
    expect(descriptions(first)).toEqual(['alice-3', 'alice-2', 'alice-secret']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await list(alice.token, 'ALL', 3, first.pageInfo.endCursor);
    expect(descriptions(second)).toEqual(['alice-1']);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});

describe('current gh: query GistList with includeContent', () => {
  it('answers the files’ text when asked', async () => {
    const r = await gql(s, alice.token, GIST_LIST_CURRENT, { per_page: 1, endCursor: null, visibility: 'ALL', includeContent: true });
    expect(r.body.data.viewer.gists.nodes[0].files).toEqual([
      { name: 'alice-3.txt', text: 'alice-3\n' },
      { name: 'b.md', text: '# b\n' },
    ]);
    const without = await gql(s, alice.token, GIST_LIST_CURRENT, {
      per_page: 1,
      endCursor: null,
      visibility: 'ALL',
      includeContent: false,
    });
    expect(without.body.data.viewer.gists.nodes[0].files).toEqual([{ name: 'alice-3.txt' }, { name: 'b.md' }]);
  });
});

describe('gist connections beyond gh', () => {
  const PAGE = `query($first: Int, $last: Int, $after: String, $before: String) {
    viewer { gists(first: $first, last: $last, after: $after, before: $before, orderBy: {field: CREATED_AT, direction: ASC}) {
      totalCount edges { cursor node { description } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } } }`;
  const page = async (variables: Record<string, unknown>) => {
    const r = await gql(s, alice.token, PAGE, variables);
    expect(r.body.errors).toBeUndefined();
    return r.body.data.viewer.gists;
  };

  it('pages backwards with last/before, and edges carry the cursors pageInfo names', async () => {
    const last = await page({ last: 2 });
    expect(last.totalCount).toBe(4);
    expect(last.edges.map((e: any) => e.node.description)).toEqual(['alice-2', 'alice-3']);
    expect(last.pageInfo).toEqual({
      startCursor: last.edges[0].cursor,
      endCursor: last.edges[1].cursor,
      hasNextPage: false,
      hasPreviousPage: true,
    });
    const before = await page({ last: 5, before: last.pageInfo.startCursor });
    expect(before.edges.map((e: any) => e.node.description)).toEqual(['alice-1', 'alice-secret']);
    expect(before.pageInfo.hasPreviousPage).toBe(false);
  });

  it('a cursor this server did not hand out is an error', async () => {
    const r = await gql(s, alice.token, PAGE, { first: 2, after: 'bm9wZQ==' });
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([expect.objectContaining({ type: 'INVALID_CURSOR_ARGUMENTS', path: ['viewer', 'gists'] })]);
  });
});

describe('gh repo clone: query RepositoryInfo (GitHubRepo)', () => {
  it('answers the canonical repository with its default branch and no parent', async () => {
    const r = await gql(s, bob.token, GITHUB_REPO, { owner: 'ALICE', name: 'HELLO' });
    expect(r.status).toBe(200);
    const rest = await s.api('GET', '/repos/alice/hello', { token: bob.token });
    expect(r.body).toEqual({
      data: {
        repository: {
          id: rest.body.node_id,
          name: 'hello',
          owner: { login: 'alice' },
          hasIssuesEnabled: true,
          description: 'greetings',
          hasWikiEnabled: false,
          viewerPermission: 'READ',
          defaultBranchRef: { name: 'main' },
          parent: null,
          mergeCommitAllowed: true,
          rebaseMergeAllowed: true,
          squashMergeAllowed: true,
        },
      },
    });
    const own = await gql(s, alice.token, GITHUB_REPO, { owner: 'alice', name: 'hello' });
    expect(own.body.data.repository.viewerPermission).toBe('ADMIN');
  });

  it('another user’s private repository is null with GitHub’s NOT_FOUND error, as gh reports it', async () => {
    const r = await gql(s, alice.token, GITHUB_REPO, { owner: 'bob', name: 'hidden' });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ repository: null });
    expect(r.body.errors).toEqual([
      {
        type: 'NOT_FOUND',
        path: ['repository'],
        locations: [{ line: 16, column: 3 }],
        message: "Could not resolve to a Repository with the name 'bob/hidden'.",
      },
    ]);
    const own = await gql(s, bob.token, GITHUB_REPO, { owner: 'bob', name: 'hidden' });
    expect(own.body.data.repository.name).toBe('hidden');
  });

  it('a classic token without repo scope does not see the owner’s own private repository (REST’s rule)', async () => {
    const token = await s.createToken('bob', { scopes: ['gist'] });
    const r = await gql(s, token, GITHUB_REPO, { owner: 'bob', name: 'hidden' });
    expect(r.body.data.repository).toBeNull();
    expect(r.body.errors[0].type).toBe('NOT_FOUND');
  });
});

describe('gh repo view: query RepositoryInfo (FetchRepository)', () => {
  it('answers the default fields', async () => {
    const r = await gql(s, alice.token, REPO_VIEW, { owner: 'alice', name: 'hello' });
    expect(r.body).toEqual({
      data: { repository: { name: 'hello', owner: { id: expect.any(String), login: 'alice' }, description: 'greetings' } },
    });
    const user = await s.api('GET', '/users/alice', { token: alice.token });
    expect(r.body.data.repository.owner.id).toBe(user.body.node_id);
  });

  it('answers gh repo view --json with the fields hublet has', async () => {
    // The fields gh's RepositoryFields names that exist here, as RepositoryGraphQL writes them.
    const fields =
      'id,name,nameWithOwner,owner{id,login},parent{id,name,owner{id,login}},templateRepository{id,name,owner{id,login}},description,homepageUrl,url,sshUrl,mirrorUrl,' +
      'createdAt,pushedAt,updatedAt,hasIssuesEnabled,hasProjectsEnabled,hasWikiEnabled,hasDiscussionsEnabled,mergeCommitAllowed,squashMergeAllowed,rebaseMergeAllowed,' +
      'forkCount,stargazerCount,defaultBranchRef{name},deleteBranchOnMerge,diskUsage,isArchived,isFork,isInOrganization,isMirror,isPrivate,isTemplate,' +
      'viewerCanAdminister,viewerHasStarred,viewerPermission,visibility,repositoryTopics(first:100){nodes{topic{name}}},primaryLanguage{name}';
    const query = `query RepositoryInfo($owner: String!, $name: String!) {
		repository(owner: $owner, name: $name) {${fields}}
	}`;
    const r = await gql(s, alice.token, query, { owner: 'alice', name: 'hello' });
    expect(r.body.errors).toBeUndefined();
    const repo = r.body.data.repository;
    const host = new URL(s.url).hostname;
    expect(repo).toMatchObject({
      nameWithOwner: 'alice/hello',
      url: `${s.url}/alice/hello`,
      sshUrl: `git@${host}:alice/hello.git`,
      isPrivate: false,
      visibility: 'PUBLIC',
      isFork: false,
      parent: null,
      isInOrganization: false,
      viewerCanAdminister: true,
      viewerPermission: 'ADMIN',
      defaultBranchRef: { name: 'main' },
    });
    expect(repo.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(repo.repositoryTopics.nodes.map((n: any) => n.topic.name)).toEqual(['cli', 'demo']);
  });
});
