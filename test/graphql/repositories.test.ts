// gh 2.23's repository queries against /api/graphql, built exactly as gh builds them (github.com/cli/cli at v2.23.0, the
// format strings and field tables copied verbatim, files cited at each): `gh repo list [OWNER]` over the viewer, a user
// and an organization with its filters and paging, the feature detection `repo list` runs on an enterprise host,
// `gh repo view --json` with every field gh offers, `gh repo clone` on an empty repository; and the access rules of
// REST's lists (private repositories only for those who may read them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../helpers/query-count.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { gql } from './helpers.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
let carol: { login: string; id: number; token: string };
let now = new Date('2026-02-01T00:00:00Z');

async function repoAt(at: string, token: string, path: string, body: Record<string, unknown>): Promise<void> {
  now = new Date(at);
  const r = await s.api('POST', path, { token, body });
  expect(r.status, r.text).toBe(201);
}

beforeAll(async () => {
  s = await startServer({ clock: { now: () => now } });
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  carol = await s.userWithToken('carol');
  await s.createOrg('acme', 'alice');
  await s.addMember('acme', 'bob');
  await repoAt('2026-02-01T00:00:00Z', alice.token, '/user/repos', {
    name: 'hello',
    description: 'greetings',
    auto_init: true,
    homepage: 'https://example.com',
  });
  await repoAt('2026-02-02T00:00:00Z', alice.token, '/user/repos', { name: 'secret', private: true, auto_init: true });
  await repoAt('2026-02-03T00:00:00Z', alice.token, '/user/repos', { name: 'empty' });
  await repoAt('2026-02-04T00:00:00Z', alice.token, '/user/repos', { name: 'alice', description: 'profile', auto_init: true });
  await repoAt('2026-02-05T00:00:00Z', alice.token, '/orgs/acme/repos', { name: 'site', auto_init: true });
  await repoAt('2026-02-06T00:00:00Z', alice.token, '/orgs/acme/repos', { name: 'inner', private: true });
  await repoAt('2026-02-07T00:00:00Z', bob.token, '/user/repos', { name: 'bobs', private: true });
  now = new Date('2026-02-10T00:00:00Z');
  expect((await s.api('PUT', '/repos/alice/hello/topics', { token: alice.token, body: { names: ['cli', 'demo'] } })).status).toBe(200);
});
afterAll(async () => s?.close());

// api/query_builder.go RepositoryFields: every field `gh repo view --json` and `gh repo list --json` accept.
const REPOSITORY_FIELDS = [
  'id',
  'name',
  'nameWithOwner',
  'owner',
  'parent',
  'templateRepository',
  'description',
  'homepageUrl',
  'openGraphImageUrl',
  'usesCustomOpenGraphImage',
  'url',
  'sshUrl',
  'mirrorUrl',
  'securityPolicyUrl',
  'createdAt',
  'pushedAt',
  'updatedAt',
  'isBlankIssuesEnabled',
  'isSecurityPolicyEnabled',
  'hasIssuesEnabled',
  'hasProjectsEnabled',
  'hasWikiEnabled',
  'hasDiscussionsEnabled',
  'mergeCommitAllowed',
  'squashMergeAllowed',
  'rebaseMergeAllowed',
  'forkCount',
  'stargazerCount',
  'watchers',
  'issues',
  'pullRequests',
  'codeOfConduct',
  'contactLinks',
  'defaultBranchRef',
  'deleteBranchOnMerge',
  'diskUsage',
  'fundingLinks',
  'isArchived',
  'isEmpty',
  'isFork',
  'isInOrganization',
  'isMirror',
  'isPrivate',
  'isTemplate',
  'isUserConfigurationRepository',
  'licenseInfo',
  'viewerCanAdminister',
  'viewerDefaultCommitEmail',
  'viewerDefaultMergeMethod',
  'viewerHasStarred',
  'viewerPermission',
  'viewerPossibleCommitEmails',
  'viewerSubscription',
  'repositoryTopics',
  'primaryLanguage',
  'languages',
  'issueTemplates',
  'pullRequestTemplates',
  'labels',
  'milestones',
  'latestRelease',
  'assignableUsers',
  'mentionableUsers',
  'projects',
];

// api/query_builder.go RepositoryGraphQL: how gh writes each field into a query.
const FIELD_QUERY: Record<string, string> = {
  codeOfConduct: 'codeOfConduct{key,name,url}',
  contactLinks: 'contactLinks{about,name,url}',
  fundingLinks: 'fundingLinks{platform,url}',
  licenseInfo: 'licenseInfo{key,name,nickname}',
  owner: 'owner{id,login}',
  parent: 'parent{id,name,owner{id,login}}',
  templateRepository: 'templateRepository{id,name,owner{id,login}}',
  repositoryTopics: 'repositoryTopics(first:100){nodes{topic{name}}}',
  issueTemplates: 'issueTemplates{name,title,body,about}',
  pullRequestTemplates: 'pullRequestTemplates{body,filename}',
  labels: 'labels(first:100){nodes{id,color,name,description}}',
  languages: 'languages(first:100){edges{size,node{name}}}',
  primaryLanguage: 'primaryLanguage{name}',
  latestRelease: 'latestRelease{publishedAt,tagName,name,url}',
  milestones: 'milestones(first:100,states:OPEN){nodes{number,title,description,dueOn}}',
  assignableUsers: 'assignableUsers(first:100){nodes{id,login,name}}',
  mentionableUsers: 'mentionableUsers(first:100){nodes{id,login,name}}',
  projects: 'projects(first:100,states:OPEN){nodes{id,name,number,body,resourcePath}}',
  watchers: 'watchers{totalCount}',
  issues: 'issues(states:OPEN){totalCount}',
  pullRequests: 'pullRequests(states:OPEN){totalCount}',
  defaultBranchRef: 'defaultBranchRef{name}',
};
const repositoryGraphQL = (fields: readonly string[]) => fields.map((f) => FIELD_QUERY[f] ?? f).join(',');

// api/queries_repo.go FetchRepository (gh repo view, gh repo view --json FIELDS).
const fetchRepository = (fields: readonly string[]) => `query RepositoryInfo($owner: String!, $name: String!) {
		repository(owner: $owner, name: $name) {${repositoryGraphQL(fields)}}
	}`;

// pkg/cmd/repo/list/http.go listRepos (gh repo list [OWNER]): the viewer's repositories without an owner argument.
function repositoryList(owner: boolean, fields: readonly string[]): string {
  const inputs = ['$perPage:Int!', '$endCursor:String', '$privacy:RepositoryPrivacy', '$fork:Boolean'];
  let ownerConnection = 'repositoryOwner: viewer';
  if (owner) {
    ownerConnection = 'repositoryOwner(login: $owner)';
    inputs.push('$owner:String!');
  }
  return `query RepositoryList(${inputs.join(',')}) {
		${ownerConnection} {
			login
			repositories(first: $perPage, after: $endCursor, privacy: $privacy, isFork: $fork, ownerAffiliations: OWNER, orderBy: { field: PUSHED_AT, direction: DESC }) {
				nodes{${repositoryGraphQL(fields)}}
				totalCount
				pageInfo{hasNextPage,endCursor}
			}
		}
	}`;
}

// pkg/cmd/repo/list/list.go defaultFields, and "visibility", which gh adds when the feature detection finds the field.
const LIST_FIELDS = ['nameWithOwner', 'description', 'isPrivate', 'isFork', 'isArchived', 'createdAt', 'pushedAt', 'visibility'];

// internal/featuredetection/feature_detection.go RepositoryFeatures on an enterprise host, as shurcooL-graphql writes it.
const REPOSITORY_FEATURES = 'query Repository_fields{Repository: __type(name: "Repository"){fields(includeDeprecated: true){name}}}';

/** gh repo list's variables: only those gh sets (no privacy, fork or cursor unless asked). */
async function repoList(
  token: string,
  vars: { owner?: string; perPage?: number; privacy?: string; fork?: boolean; endCursor?: string },
  fields = LIST_FIELDS,
) {
  const variables: Record<string, unknown> = { perPage: vars.perPage ?? 30 };
  for (const k of ['owner', 'privacy', 'fork', 'endCursor'] as const) if (vars[k] !== undefined) variables[k] = vars[k];
  const r = await gql(s, token, repositoryList(vars.owner !== undefined, fields), variables);
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
  return r.body.data.repositoryOwner;
}
const names = (owner: any) => owner.repositories.nodes.map((n: any) => n.nameWithOwner);

describe('gh repo list: query RepositoryList', () => {
  it('lists the viewer’s own repositories, private ones too, most recently pushed first, with what gh prints', async () => {
    const owner = await repoList(alice.token, {});
    expect(owner.login).toBe('alice');
    expect(names(owner)).toEqual(['alice/alice', 'alice/empty', 'alice/secret', 'alice/hello']);
    expect(owner.repositories.totalCount).toBe(4);
    expect(owner.repositories.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });
    expect(owner.repositories.nodes[2]).toEqual({
      nameWithOwner: 'alice/secret',
      description: null,
      isPrivate: true,
      isFork: false,
      isArchived: false,
      createdAt: '2026-02-02T00:00:00Z',
      pushedAt: '2026-02-02T00:00:00Z',
      visibility: 'PRIVATE',
    });
  });

  it('another user’s repositories: public ones only, as GET /users/{username}/repos', async () => {
    expect(names(await repoList(bob.token, { owner: 'alice' }))).toEqual(['alice/alice', 'alice/empty', 'alice/hello']);
    expect((await repoList(alice.token, { owner: 'bob' })).repositories).toMatchObject({ nodes: [], totalCount: 0 });
    expect(names(await repoList(bob.token, { owner: 'bob' }))).toEqual(['bob/bobs']);
    expect(names(await repoList(bob.token, { owner: 'BOB' }))).toEqual(['bob/bobs']);
  });

  it('an organization’s: private ones for its members only, as GET /orgs/{org}/repos', async () => {
    const member = await repoList(bob.token, { owner: 'acme' });
    expect(member.login).toBe('acme');
    expect(names(member)).toEqual(['acme/inner', 'acme/site']);
    expect(names(await repoList(carol.token, { owner: 'acme' }))).toEqual(['acme/site']);
    expect((await repoList(carol.token, { owner: 'acme', privacy: 'PRIVATE' })).repositories.totalCount).toBe(0);
    expect(names(await repoList(bob.token, { owner: 'acme', privacy: 'PRIVATE' }))).toEqual(['acme/inner']);
  });

  it('a token without the repo scope does not see private repositories, its owner’s own neither (REST’s rule)', async () => {
    const token = await s.createToken('alice', { scopes: ['gist'] });
    expect(names(await repoList(token, {}))).toEqual(['alice/alice', 'alice/empty', 'alice/hello']);
  });

  it('--visibility public|private, --source and --fork (hublet has no forks)', async () => {
    expect(names(await repoList(alice.token, { privacy: 'PRIVATE' }))).toEqual(['alice/secret']);
    expect(names(await repoList(alice.token, { privacy: 'PUBLIC' }))).toEqual(['alice/alice', 'alice/empty', 'alice/hello']);
    expect(names(await repoList(bob.token, { owner: 'alice', privacy: 'PRIVATE' }))).toEqual([]);
    expect(names(await repoList(alice.token, { fork: false }))).toHaveLength(4);
    expect((await repoList(alice.token, { fork: true })).repositories).toMatchObject({
      nodes: [],
      totalCount: 0,
      pageInfo: { hasNextPage: false },
    });
  });

  it('pages with first/after as gh follows endCursor (gh repo list -L)', async () => {
    const first = await repoList(alice.token, { perPage: 3 });
    expect(names(first)).toEqual(['alice/alice', 'alice/empty', 'alice/secret']);
    expect(first.repositories.pageInfo.hasNextPage).toBe(true);
    const second = await repoList(alice.token, { perPage: 3, endCursor: first.repositories.pageInfo.endCursor });
    expect(names(second)).toEqual(['alice/hello']);
    expect(second.repositories.pageInfo.hasNextPage).toBe(false);
    expect(second.repositories.totalCount).toBe(4);
  });

  it('--json with every field gh offers, 100 a page: validates and runs within the node limit', async () => {
    const owner = await repoList(alice.token, { perPage: 100 }, REPOSITORY_FIELDS);
    expect(owner.repositories.nodes.map((n: any) => n.nameWithOwner)).toEqual([
      'alice/alice',
      'alice/empty',
      'alice/secret',
      'alice/hello',
    ]);
    expect(owner.repositories.nodes.map((n: any) => n.isEmpty)).toEqual([false, true, false, false]);
  });

  it('an unknown owner is null, as gh reports it', async () => {
    const r = await gql(s, alice.token, repositoryList(true, LIST_FIELDS), { perPage: 30, owner: 'nobody' });
    expect(r.body.data).toEqual({ repositoryOwner: null });
  });
});

describe('gh repo list on an enterprise host: query Repository_fields (feature detection)', () => {
  it('finds the fields gh looks for, so it asks for visibility', async () => {
    const r = await gql(s, alice.token, REPOSITORY_FEATURES);
    expect(r.body.errors).toBeUndefined();
    const fields = r.body.data.Repository.fields.map((f: any) => f.name);
    expect(fields).toEqual(expect.arrayContaining(['visibility', 'pullRequestTemplates', 'autoMergeAllowed', ...REPOSITORY_FIELDS]));
  });
});

describe('gh repo view --json: query RepositoryInfo with every field', () => {
  it('answers each field, GitHub’s empty value for what hublet keeps none of', async () => {
    const r = await gql(s, bob.token, fetchRepository(REPOSITORY_FIELDS), { owner: 'alice', name: 'hello' });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const rest = (await s.api('GET', '/repos/alice/hello', { token: bob.token })).body;
    const host = new URL(s.url).hostname;
    expect(r.body.data.repository).toEqual({
      id: rest.node_id,
      name: 'hello',
      nameWithOwner: 'alice/hello',
      owner: { id: rest.owner.node_id, login: 'alice' },
      parent: null,
      templateRepository: null,
      description: 'greetings',
      homepageUrl: 'https://example.com',
      openGraphImageUrl: `${s.url}/avatars/alice`,
      usesCustomOpenGraphImage: false,
      url: `${s.url}/alice/hello`,
      sshUrl: `git@${host}:alice/hello.git`,
      mirrorUrl: null,
      securityPolicyUrl: null,
      createdAt: '2026-02-01T00:00:00Z',
      pushedAt: '2026-02-01T00:00:00Z',
      updatedAt: '2026-02-10T00:00:00Z',
      isBlankIssuesEnabled: true,
      isSecurityPolicyEnabled: false,
      hasIssuesEnabled: true,
      hasProjectsEnabled: true,
      hasWikiEnabled: true,
      hasDiscussionsEnabled: false,
      mergeCommitAllowed: true,
      squashMergeAllowed: true,
      rebaseMergeAllowed: true,
      forkCount: 0,
      stargazerCount: 0,
      watchers: { totalCount: 0 },
      issues: { totalCount: 0 },
      pullRequests: { totalCount: 0 },
      codeOfConduct: null,
      contactLinks: [],
      defaultBranchRef: { name: 'main' },
      deleteBranchOnMerge: false,
      diskUsage: rest.size,
      fundingLinks: [],
      isArchived: false,
      isEmpty: false,
      isFork: false,
      isInOrganization: false,
      isMirror: false,
      isPrivate: false,
      isTemplate: false,
      isUserConfigurationRepository: false,
      licenseInfo: null,
      viewerCanAdminister: false,
      // bob has no email address: he has none to commit with.
      viewerDefaultCommitEmail: null,
      viewerDefaultMergeMethod: 'MERGE',
      viewerHasStarred: false,
      viewerPermission: 'READ',
      viewerPossibleCommitEmails: [],
      viewerSubscription: 'UNSUBSCRIBED',
      repositoryTopics: { nodes: [{ topic: { name: 'cli' } }, { topic: { name: 'demo' } }] },
      primaryLanguage: null,
      languages: { edges: [] },
      issueTemplates: [],
      pullRequestTemplates: [],
      labels: { nodes: [] },
      milestones: { nodes: [] },
      latestRelease: null,
      assignableUsers: { nodes: [] },
      mentionableUsers: { nodes: [] },
      projects: { nodes: [] },
    });
  });

  it('a user’s repository named after them is their configuration repository; an organization’s says so', async () => {
    const own = await gql(s, alice.token, fetchRepository(['isUserConfigurationRepository', 'isInOrganization', 'viewerPermission']), {
      owner: 'alice',
      name: 'alice',
    });
    expect(own.body.data.repository).toEqual({ isUserConfigurationRepository: true, isInOrganization: false, viewerPermission: 'ADMIN' });
    const org = await gql(
      s,
      bob.token,
      fetchRepository(['isUserConfigurationRepository', 'isInOrganization', 'viewerPermission', 'isPrivate']),
      { owner: 'acme', name: 'inner' },
    );
    expect(org.body.data.repository).toEqual({
      isUserConfigurationRepository: false,
      isInOrganization: true,
      viewerPermission: 'WRITE',
      isPrivate: true,
    });
  });

  it('an organization’s private repository is NOT_FOUND for a non-member, as REST’s 404', async () => {
    const r = await gql(s, carol.token, fetchRepository(['name']), { owner: 'acme', name: 'inner' });
    expect(r.body.data).toEqual({ repository: null });
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        type: 'NOT_FOUND',
        path: ['repository'],
        message: "Could not resolve to a Repository with the name 'acme/inner'.",
      }),
    ]);
  });
});

describe('gh repo clone of an empty repository: query RepositoryInfo (GitHubRepo)', () => {
  it('has no default branch ref and is empty, as on GitHub', async () => {
    const r = await gql(s, alice.token, fetchRepository(['name', 'isEmpty', 'defaultBranchRef']), { owner: 'alice', name: 'empty' });
    expect(r.body).toEqual({ data: { repository: { name: 'empty', isEmpty: true, defaultBranchRef: null } } });
  });
});

describe('repository state beyond gh', () => {
  it('isLocked and lockReason while a migration holds the repository', async () => {
    const before = await gql(s, alice.token, fetchRepository(['isLocked', 'lockReason']), { owner: 'alice', name: 'hello' });
    expect(before.body.data.repository).toEqual({ isLocked: false, lockReason: null });
    const m = await s.api('POST', '/user/migrations', {
      token: alice.token,
      body: { repositories: ['hello'], lock_repositories: true, exclude_git_data: true },
    });
    expect(m.status, m.text).toBe(201);
    const after = await gql(s, alice.token, fetchRepository(['isLocked', 'lockReason']), { owner: 'alice', name: 'hello' });
    expect(after.body.data.repository).toEqual({ isLocked: true, lockReason: 'MIGRATING' });
    const unlock = await s.api('DELETE', `/user/migrations/${m.body.id}/repos/hello/lock`, { token: alice.token });
    expect(unlock.status).toBe(204);
  });

  it('connections asked only for totalCount need no first or last; asked for nodes they do (GitHub’s rule)', async () => {
    const counts = await gql(
      s,
      alice.token,
      '{ viewer { repositories { totalCount } gists { totalCount } } organization(login: "acme") { repositories(privacy: PUBLIC) { totalCount pageInfo { hasNextPage } } } }',
    );
    expect(counts.body).toEqual({
      data: {
        viewer: { repositories: { totalCount: 4 }, gists: { totalCount: 0 } },
        organization: { repositories: { totalCount: 1, pageInfo: { hasNextPage: true } } },
      },
    });
    const nodes = await gql(s, alice.token, '{ viewer { repositories { nodes { name } } } }');
    expect(nodes.body.errors).toEqual([
      expect.objectContaining({ type: 'MISSING_PAGINATION_BOUNDARIES', path: ['viewer', 'repositories'] }),
    ]);
  });

  it('orders by name, by creation and backwards with last/before; ownerAffiliations adds the organizations’ repositories', async () => {
    const q = `query($order: RepositoryOrder, $aff: [RepositoryAffiliation], $last: Int, $first: Int, $before: String) {
      viewer { repositories(first: $first, last: $last, before: $before, orderBy: $order, ownerAffiliations: $aff) { totalCount nodes { nameWithOwner } pageInfo { startCursor hasPreviousPage hasNextPage } } } }`;
    const run = async (variables: Record<string, unknown>) => {
      const r = await gql(s, bob.token, q, variables);
      expect(r.body.errors).toBeUndefined();
      return r.body.data.viewer.repositories;
    };
    const all = await run({ first: 10, aff: ['OWNER', 'ORGANIZATION_MEMBER'], order: { field: 'NAME', direction: 'ASC' } });
    expect(all.nodes.map((n: any) => n.nameWithOwner)).toEqual(['acme/inner', 'acme/site', 'bob/bobs']);
    const created = await run({ first: 10, aff: ['ORGANIZATION_MEMBER'] });
    expect(created.nodes.map((n: any) => n.nameWithOwner)).toEqual(['acme/site', 'acme/inner']);
    const last = await run({ last: 2, aff: ['OWNER', 'ORGANIZATION_MEMBER'], order: { field: 'CREATED_AT', direction: 'DESC' } });
    expect(last).toMatchObject({
      totalCount: 3,
      nodes: [{ nameWithOwner: 'acme/inner' }, { nameWithOwner: 'acme/site' }],
      pageInfo: { hasPreviousPage: true, hasNextPage: false },
    });
    const before = await run({
      last: 5,
      before: last.pageInfo.startCursor,
      aff: ['OWNER', 'ORGANIZATION_MEMBER'],
      order: { field: 'CREATED_AT', direction: 'DESC' },
    });
    expect(before.nodes.map((n: any) => n.nameWithOwner)).toEqual(['bob/bobs']);
    const others = await gql(
      s,
      carol.token,
      '{ user(login: "bob") { repositories(first: 5, ownerAffiliations: [OWNER, ORGANIZATION_MEMBER]) { totalCount nodes { nameWithOwner } } } }',
    );
    expect(others.body.data.user.repositories).toEqual({ totalCount: 1, nodes: [{ nameWithOwner: 'acme/site' }] });
  });

  it('a page of repositories runs a fixed number of queries however many it holds (locks in one query)', async () => {
    const q =
      'query($n: Int!) { viewer { repositories(first: $n) { nodes { nameWithOwner isLocked lockReason viewerPermission owner { login } } } } }';
    const count = async (n: number) => {
      let nodes = 0;
      const queries = await countQueries(s, async () => {
        const r = await gql(s, alice.token, q, { n });
        expect(r.body.errors).toBeUndefined();
        nodes = r.body.data.viewer.repositories.nodes.length;
      });
      return { nodes, queries };
    };
    const one = await count(1);
    const four = await count(4);
    expect([one.nodes, four.nodes]).toEqual([1, 4]);
    expect(four.queries).toBe(one.queries);
  });
});
