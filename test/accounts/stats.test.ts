// GitHub Enterprise's GET /enterprise/stats/{all,repos,hooks,gists,users,orgs,…}: counts of the instance in GitHub's
// shape, from every area, for site admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; token: string };
beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice', ['gist', 'repo', 'admin:org', 'admin:org_hook', 'site_admin']);
  await s.userWithToken('bob');
  await s.createOrg('acme', 'alice');
  const gist = (pub: boolean) =>
    s.api('POST', '/gists', { token: alice.token, body: { public: pub, files: { 'a.txt': { content: 'a' } } } });
  const g = await gist(true);
  await gist(false);
  await gist(false);
  await s.api('POST', `/gists/${g.body.id}/comments`, { token: alice.token, body: { body: 'hi' } });
  expect((await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'mine' } })).status).toBe(201);
  expect((await s.api('POST', '/orgs/acme/repos', { token: alice.token, body: { name: 'theirs' } })).status).toBe(201);
  const hook = (active: boolean) =>
    s.api('POST', '/orgs/acme/hooks', {
      token: alice.token,
      body: { name: 'web', active, config: { url: `https://example.com/${active}` } },
    });
  expect((await hook(true)).status).toBe(201);
  expect((await hook(false)).status).toBe(201);
  expect((await s.api('PUT', '/users/bob/suspended', { token: s.adminToken })).status).toBe(204);
});
afterAll(async () => s?.close());

const stats = (type: string, token = s.adminToken) => s.api('GET', `/enterprise/stats/${type}`, { token });

describe('GET /enterprise/stats/*', () => {
  it('all: every section in GitHub Enterprise’s shape, counted from every area', async () => {
    const r = await stats('all');
    expect(r.status).toBe(200);
    checkSchema(r, 'GET /enterprise/stats/all');
    expect(r.body.users).toEqual({ total_users: 3, admin_users: 1, suspended_users: 1 });
    expect(r.body.orgs).toEqual({ total_orgs: 1, disabled_orgs: 0, total_teams: 0, total_team_members: 0 });
    expect(r.body.repos).toEqual({ total_repos: 2, root_repos: 2, fork_repos: 0, org_repos: 1, total_pushes: 0, total_wikis: 0 });
    expect(r.body.hooks).toEqual({ total_hooks: 2, active_hooks: 1, inactive_hooks: 1 });
    expect(r.body.gists).toEqual({ total_gists: 3, private_gists: 2, public_gists: 1 });
    expect(r.body.comments).toEqual({
      total_commit_comments: 0,
      total_gist_comments: 1,
      total_issue_comments: 0,
      total_pull_request_comments: 0,
    });
    expect(r.body.pulls).toEqual({ total_pulls: 0, merged_pulls: 0, mergeable_pulls: 0, unmergeable_pulls: 0 });
  });

  it('each section alone, as GitHub’s schema says; an unknown one 404', async () => {
    const all = (await stats('all')).body;
    for (const type of ['repos', 'hooks', 'pages', 'orgs', 'users', 'pulls', 'issues', 'milestones', 'gists', 'comments']) {
      const r = await stats(type);
      expect(r.status, type).toBe(200);
      checkSchema(r, `GET /enterprise/stats/${type}`);
      expect(r.body, type).toEqual(all[type]);
    }
    expect((await stats('security-products')).status).toBe(404);
    expect((await stats('nothing')).status).toBe(404);
  });

  it('is for site admins only: 404 for others, 401 anonymous', async () => {
    expect((await stats('all', alice.token)).status).toBe(404);
    expect((await s.api('GET', '/enterprise/stats/all')).status).toBe(401);
  });
});
