// Account reads over HTTP: GET /user, GET /users/{username} (users and organizations), GET /orgs/{org}; logins in any case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let dana: { login: string; id: number; token: string };
let org: { login: string; id: number };
beforeAll(async () => {
  s = await startServer();
  await s.createUser('Dana', { email: 'dana@example.com' });
  dana = { login: 'Dana', id: (await s.api('GET', '/users/dana')).body.id, token: await s.createToken('dana', { scopes: [] }) };
  org = await s.createOrg('Acme', 'dana');
});
afterAll(async () => s?.close());

const userLinks = (login: string) => ({
  url: `${s.url}/users/${login}`,
  html_url: `${s.url}/${login}`,
  followers_url: `${s.url}/users/${login}/followers`,
  following_url: `${s.url}/users/${login}/following{/other_user}`,
  gists_url: `${s.url}/users/${login}/gists{/gist_id}`,
  starred_url: `${s.url}/users/${login}/starred{/owner}{/repo}`,
  subscriptions_url: `${s.url}/users/${login}/subscriptions`,
  organizations_url: `${s.url}/users/${login}/orgs`,
  repos_url: `${s.url}/users/${login}/repos`,
  events_url: `${s.url}/users/${login}/events{/privacy}`,
  received_events_url: `${s.url}/users/${login}/received_events`,
});
const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

describe('GET /user', () => {
  it("returns the caller's own profile, with the private fields", async () => {
    const r = await s.api('GET', '/user', { token: dana.token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      login: 'Dana',
      id: dana.id,
      node_id: Buffer.from(`04:User${dana.id}`).toString('base64'),
      avatar_url: expect.stringContaining(s.url),
      gravatar_id: '',
      ...userLinks('Dana'),
      type: 'User',
      site_admin: false,
      email: 'dana@example.com',
      public_repos: 0,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: iso,
      updated_at: iso,
      private_gists: 0,
      total_private_repos: 0,
      owned_private_repos: 0,
      two_factor_authentication: false,
      plan: expect.objectContaining({ name: expect.any(String) }),
    });
  });

  it('answers 401 Requires authentication without a token', async () => {
    const r = await s.api('GET', '/user');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ message: 'Requires authentication', documentation_url: expect.any(String), status: '401' });
  });

  it('works through Octokit', async () => {
    const { data } = await s.octokit(dana.token).users.getAuthenticated();
    expect(data.login).toBe('Dana');
  });
});

describe('GET /users/{username}', () => {
  it('returns the public profile of a user, without the private fields, to anyone', async () => {
    const r = await s.api('GET', '/users/Dana');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ login: 'Dana', id: dana.id, type: 'User', site_admin: false, ...userLinks('Dana'), created_at: iso });
    for (const key of ['plan', 'private_gists', 'total_private_repos', 'two_factor_authentication']) expect(r.body).not.toHaveProperty(key);
    const { data } = await s.octokit().users.getByUsername({ username: 'dana' });
    expect(data.id).toBe(dana.id);
  });

  it('answers for organizations too, as type Organization', async () => {
    const r = await s.api('GET', '/users/acme');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      login: 'Acme',
      id: org.id,
      type: 'Organization',
      node_id: Buffer.from(`012:Organization${org.id}`).toString('base64'),
    });
  });

  it('is not case sensitive', async () => {
    for (const name of ['dana', 'DANA', 'dAnA']) {
      const r = await s.api('GET', `/users/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.body.login).toBe('Dana');
    }
  });

  it('answers 404 for an unknown login', async () => {
    for (const name of ['nobody', 'a'.repeat(60), '%E2%98%83', 'dana%00']) {
      const r = await s.api('GET', `/users/${name}`);
      expect(r.status, name).toBe(404);
      expect(r.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
    }
  });
});

describe('GET /orgs/{org}', () => {
  it('returns the organization', async () => {
    const r = await s.api('GET', '/orgs/Acme');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      login: 'Acme',
      id: org.id,
      node_id: Buffer.from(`012:Organization${org.id}`).toString('base64'),
      url: `${s.url}/orgs/Acme`,
      repos_url: `${s.url}/orgs/Acme/repos`,
      events_url: `${s.url}/orgs/Acme/events`,
      hooks_url: `${s.url}/orgs/Acme/hooks`,
      issues_url: `${s.url}/orgs/Acme/issues`,
      members_url: `${s.url}/orgs/Acme/members{/member}`,
      public_members_url: `${s.url}/orgs/Acme/public_members{/member}`,
      avatar_url: expect.any(String),
      html_url: `${s.url}/Acme`,
      type: 'Organization',
      public_repos: 0,
      followers: 0,
      following: 0,
      created_at: iso,
      updated_at: iso,
    });
    expect(r.body).toHaveProperty('description');
    const { data } = await s.octokit().orgs.get({ org: 'acme' });
    expect(data.id).toBe(org.id);
  });

  it('is not case sensitive', async () => {
    expect((await s.api('GET', '/orgs/ACME')).body.login).toBe('Acme');
    expect((await s.api('GET', '/api/v3/orgs/acme')).body.login).toBe('Acme');
  });

  it('answers 404 for a user login and for an unknown one', async () => {
    for (const name of ['dana', 'admin', 'nothing']) {
      const r = await s.api('GET', `/orgs/${name}`);
      expect(r.status, name).toBe(404);
      expect(r.body.message).toBe('Not Found');
    }
  });
});
