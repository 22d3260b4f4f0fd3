// GET /user/repos, /orgs/{org}/repos and /users/{username}/repos: who sees what, filters, orders, pages; profile counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
let carol: { login: string; id: number; token: string };
let clock = Date.parse('2026-01-01T00:00:00Z');

const names = (r: { body: { full_name: string }[] }) => r.body.map((x) => x.full_name);

beforeAll(async () => {
  // A clock that moves a minute per call keeps created/updated/pushed times distinct and ordered.
  const now = () => {
    clock += 60_000;
    return new Date(clock);
  };
  s = await startServer({ clock: { now }, config: { rateLimitAnonymous: 100_000 } });
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  carol = await s.userWithToken('carol');
  await s.createOrg('acme', 'alice');
  await s.addMember('acme', 'bob');
  const create = async (token: string, p: string, body: Record<string, unknown>) => {
    const r = await s.api('POST', p, { token, body });
    if (r.status !== 201) throw new Error(`setup: ${r.status} ${r.text}`);
  };
  await create(alice.token, '/user/repos', { name: 'zeta' });
  await create(alice.token, '/user/repos', { name: 'Alpha', private: true });
  await create(alice.token, '/user/repos', { name: 'mid' });
  await create(alice.token, '/orgs/acme/repos', { name: 'org-public' });
  await create(alice.token, '/orgs/acme/repos', { name: 'org-private', private: true });
  await create(bob.token, '/user/repos', { name: 'bobs' });
});
afterAll(async () => s?.close());

describe('GET /user/repos', () => {
  it('lists what the caller owns and reaches through organizations, by full name, private ones included', async () => {
    const r = await s.api('GET', '/user/repos', { token: alice.token });
    expect(r.status).toBe(200);
    checkSchema(r, 'GET /user/repos');
    expect(names(r)).toEqual(['acme/org-private', 'acme/org-public', 'alice/Alpha', 'alice/mid', 'alice/zeta']);
    expect(r.body[0].permissions).toMatchObject({ admin: true });
    const viaOctokit = await s.octokit(bob.token).paginate(s.octokit(bob.token).rest.repos.listForAuthenticatedUser, { per_page: 1 });
    expect(viaOctokit.map((x) => x.full_name)).toEqual(['acme/org-private', 'acme/org-public', 'bob/bobs']);
    expect(viaOctokit[0].permissions).toMatchObject({ admin: false, push: true });
  });

  it('filters by type, visibility and affiliation, and refuses type with either of the others', async () => {
    const get = (q: string) => s.api('GET', `/user/repos?${q}`, { token: alice.token });
    expect(names(await get('type=owner'))).toEqual(['alice/Alpha', 'alice/mid', 'alice/zeta']);
    expect(names(await get('type=private'))).toEqual(['acme/org-private', 'alice/Alpha']);
    expect(names(await get('type=public'))).toEqual(['acme/org-public', 'alice/mid', 'alice/zeta']);
    expect(names(await get('type=member'))).toEqual(['acme/org-private', 'acme/org-public']);
    expect(names(await get('visibility=private&affiliation=owner'))).toEqual(['alice/Alpha']);
    expect(names(await get('affiliation=organization_member'))).toEqual(['acme/org-private', 'acme/org-public']);
    expect(names(await get('affiliation=collaborator'))).toEqual([]);
    for (const q of [
      'type=owner&visibility=all',
      'type=all&affiliation=owner',
      'affiliation=friends',
      'type=everything',
      'sort=stars',
      'direction=up',
      'since=yesterday',
    ]) {
      const r = await get(q);
      expect(r.status, q).toBe(422);
      checkSchema(r, 'GET /user/repos');
    }
  });

  it('sorts by created, updated and pushed times, newest first unless asked otherwise', async () => {
    const get = (q: string) => s.api('GET', `/user/repos?affiliation=owner&${q}`, { token: alice.token });
    expect(names(await get('sort=created'))).toEqual(['alice/mid', 'alice/Alpha', 'alice/zeta']);
    expect(names(await get('sort=created&direction=asc'))).toEqual(['alice/zeta', 'alice/Alpha', 'alice/mid']);
    expect(names(await get('sort=full_name&direction=desc'))).toEqual(['alice/zeta', 'alice/mid', 'alice/Alpha']);
    await s.api('PATCH', '/repos/alice/zeta', { token: alice.token, body: { description: 'touched' } });
    expect(names(await get('sort=updated'))[0]).toBe('alice/zeta');
    const zeta = (await s.api('GET', '/repos/alice/zeta')).body;
    expect(names(await get(`since=${encodeURIComponent(zeta.created_at)}&sort=updated`))).toEqual([
      'alice/zeta',
      'alice/mid',
      'alice/Alpha',
    ]);
    expect(names(await get(`before=${encodeURIComponent(zeta.updated_at)}&sort=created&direction=asc`))).toEqual([
      'alice/Alpha',
      'alice/mid',
    ]);
  });

  it('pages with GitHub’s Link header', async () => {
    const first = await s.api('GET', '/user/repos?per_page=2', { token: alice.token });
    expect(first.body).toHaveLength(2);
    const link = first.headers.get('link')!;
    expect(link).toContain(`<${s.url}/user/repos?per_page=2&page=2>; rel="next"`);
    expect(link).toContain(`<${s.url}/user/repos?per_page=2&page=3>; rel="last"`);
    const last = await s.api('GET', '/user/repos?per_page=2&page=3', { token: alice.token });
    expect(names(last)).toEqual(['alice/zeta']);
  });

  it('shows only public repositories to a token without the repo scope; refuses anonymous callers and installations', async () => {
    const publicOnly = await s.createToken('alice', { scopes: ['public_repo'] });
    expect(names(await s.api('GET', '/user/repos', { token: publicOnly }))).toEqual(['acme/org-public', 'alice/mid', 'alice/zeta']);
    expect((await s.api('GET', '/user/repos')).status).toBe(401);
    const installation = await s.createToken('alice', { kind: 'installation' });
    expect((await s.api('GET', '/user/repos', { token: installation })).status).toBe(403);
  });
});

describe('GET /orgs/{org}/repos', () => {
  it('shows members every repository and everyone else the public ones, newest first', async () => {
    const member = await s.api('GET', '/orgs/acme/repos', { token: bob.token });
    checkSchema(member, 'GET /orgs/{org}/repos');
    expect(names(member)).toEqual(['acme/org-private', 'acme/org-public']);
    expect(names(await s.api('GET', '/orgs/acme/repos', { token: carol.token }))).toEqual(['acme/org-public']);
    const anonymous = await s.api('GET', '/orgs/ACME/repos');
    expect(names(anonymous)).toEqual(['acme/org-public']);
    expect(anonymous.body[0].permissions).toBeUndefined();
    const { data } = await s.octokit(alice.token).rest.repos.listForOrg({ org: 'acme', type: 'private' });
    expect(data.map((x) => x.full_name)).toEqual(['acme/org-private']);
  });

  it('answers forks, sources and member as hublet has them (no forks), and 404 for an unknown organization', async () => {
    expect(names(await s.api('GET', '/orgs/acme/repos?type=forks', { token: alice.token }))).toEqual([]);
    expect(names(await s.api('GET', '/orgs/acme/repos?type=sources&sort=full_name', { token: alice.token }))).toEqual([
      'acme/org-private',
      'acme/org-public',
    ]);
    expect(names(await s.api('GET', '/orgs/acme/repos?type=member', { token: carol.token }))).toEqual([]);
    expect((await s.api('GET', '/orgs/nobody/repos')).status).toBe(404);
    expect((await s.api('GET', '/orgs/alice/repos')).status).toBe(404);
    expect((await s.api('GET', '/orgs/acme/repos?type=weird')).status).toBe(422);
  });
});

describe('GET /users/{username}/repos', () => {
  it('lists an account’s public repositories only, even to the account itself', async () => {
    const r = await s.api('GET', '/users/alice/repos', { token: alice.token });
    checkSchema(r, 'GET /users/{username}/repos');
    expect(names(r)).toEqual(['alice/mid', 'alice/zeta']);
    expect(names(await s.api('GET', '/users/alice/repos?type=member'))).toEqual(['acme/org-public']);
    expect(names(await s.api('GET', '/users/alice/repos?type=all'))).toEqual(['acme/org-public', 'alice/mid', 'alice/zeta']);
    expect(names(await s.api('GET', '/users/acme/repos'))).toEqual(['acme/org-public']);
    expect((await s.api('GET', '/users/nobody/repos')).status).toBe(404);
  });

  it('counts repositories on profiles: public for everyone, private for the account itself', async () => {
    expect((await s.api('GET', '/users/alice')).body.public_repos).toBe(2);
    const me = await s.api('GET', '/user', { token: alice.token });
    expect(me.body).toMatchObject({ public_repos: 2, owned_private_repos: 1, total_private_repos: 2 });
    expect((await s.api('GET', '/orgs/acme')).body.public_repos).toBe(1);
  });
});
