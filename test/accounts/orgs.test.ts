// The organization endpoints clients call around the areas: the caller's organizations and memberships, an
// organization's members (concealed from outsiders, GitHub's 204/302/404 check), removing members, changing and deleting
// an organization, and every account in `since` order (GET /users, /organizations), each checked against GitHub's schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const tok: Record<string, string> = {};
beforeAll(async () => {
  s = await startServer();
  for (const login of ['owen', 'mia', 'otto']) tok[login] = (await s.userWithToken(login, ['admin:org', 'read:org'])).token;
  tok.plain = (await s.userWithToken('plain', [])).token;
  await s.createOrg('acme', 'owen');
  await s.createOrg('bolt', 'owen');
  await s.addMember('acme', 'mia');
});
afterAll(async () => s?.close());

const as = (who: string, method: string, path: string, body?: unknown) => s.api(method, path, { token: tok[who], body });

describe('the caller’s organizations', () => {
  it('GET /user/orgs lists the organizations the caller belongs to, paged with Link', async () => {
    const r = await as('owen', 'GET', '/user/orgs');
    expect(r.status).toBe(200);
    checkSchema(r, 'GET /user/orgs');
    expect(r.body.map((o: { login: string }) => o.login)).toEqual(['acme', 'bolt']);
    const page = await as('owen', 'GET', '/user/orgs?per_page=1');
    expect(page.body.map((o: { login: string }) => o.login)).toEqual(['acme']);
    expect(page.headers.get('link')).toContain(`<${s.url}/user/orgs?per_page=1&page=2>; rel="next"`);
    expect((await as('mia', 'GET', '/user/orgs')).body.map((o: { login: string }) => o.login)).toEqual(['acme']);
    expect((await as('otto', 'GET', '/user/orgs')).body).toEqual([]);
    // GitHub: `user` or `read:org` (403 naming them otherwise); a fine-grained token sees an empty list.
    const plain = await as('plain', 'GET', '/user/orgs');
    expect(plain.status).toBe(403);
    expect(plain.headers.get('x-accepted-oauth-scopes')).toBe('user, read:org');
    const gistOnly = await s.createToken('mia', { scopes: ['gist'] });
    expect((await s.api('GET', '/user/orgs', { token: gistOnly })).status).toBe(403);
    const withUser = await s.createToken('mia', { scopes: ['user'] });
    expect((await s.api('GET', '/user/orgs', { token: withUser })).body.map((o: { login: string }) => o.login)).toEqual(['acme']);
    const fineGrained = await s.createToken('mia', { kind: 'fine_grained', permissions: { members: 'read' } });
    const fg = await s.api('GET', '/user/orgs', { token: fineGrained });
    expect(fg.status).toBe(200);
    expect(fg.body).toEqual([]);
    expect((await s.api('GET', '/user/orgs')).status).toBe(401);
  });

  it('GET /users/{username}/orgs lists public memberships only: none (memberships are concealed), 404 for no such user', async () => {
    const r = await s.api('GET', '/users/owen/orgs');
    expect(r.status).toBe(200);
    checkSchema(r, 'GET /users/{username}/orgs');
    expect(r.body).toEqual([]);
    expect((await as('owen', 'GET', '/users/owen/orgs')).body).toEqual([]);
    expect((await s.api('GET', '/users/nobody/orgs')).status).toBe(404);
  });

  it('GET /user/memberships/orgs lists the caller’s memberships with their role; state=pending none', async () => {
    const r = await as('owen', 'GET', '/user/memberships/orgs');
    expect(r.status).toBe(200);
    checkSchema(r, 'GET /user/memberships/orgs');
    expect(r.body.map((m: { organization: { login: string }; role: string }) => [m.organization.login, m.role])).toEqual([
      ['acme', 'admin'],
      ['bolt', 'admin'],
    ]);
    expect(r.body[0]).toMatchObject({ state: 'active', url: `${s.url}/orgs/acme/memberships/owen`, user: { login: 'owen' } });
    expect((await as('owen', 'GET', '/user/memberships/orgs?state=pending')).body).toEqual([]);
    expect((await as('owen', 'GET', '/user/memberships/orgs?state=nope')).status).toBe(422);
    expect((await as('plain', 'GET', '/user/memberships/orgs')).status).toBe(403);
  });

  it('GET /user/memberships/orgs/{org}: the caller’s own membership, 404 when none', async () => {
    const r = await as('mia', 'GET', '/user/memberships/orgs/ACME');
    expect(r.status).toBe(200);
    checkSchema(r, 'GET /user/memberships/orgs/{org}');
    expect(r.body).toMatchObject({ role: 'member', organization: { login: 'acme' }, user: { login: 'mia' } });
    expect((await as('mia', 'GET', '/user/memberships/orgs/bolt')).status).toBe(404);
    expect((await as('mia', 'GET', '/user/memberships/orgs/nowhere')).status).toBe(404);
  });
});

describe('an organization’s members', () => {
  it('GET /orgs/{org}/members: members see everyone (role filter, pages); outsiders and anonymous callers none', async () => {
    const r = await as('mia', 'GET', '/orgs/acme/members');
    expect(r.status).toBe(200);
    checkSchema(r, 'GET /orgs/{org}/members');
    expect(r.body.map((u: { login: string }) => u.login)).toEqual(['mia', 'owen']);
    expect((await as('owen', 'GET', '/orgs/acme/members?role=admin')).body.map((u: { login: string }) => u.login)).toEqual(['owen']);
    expect((await as('owen', 'GET', '/orgs/acme/members?role=member')).body.map((u: { login: string }) => u.login)).toEqual(['mia']);
    const page = await as('owen', 'GET', '/orgs/acme/members?per_page=1&page=2');
    expect(page.body.map((u: { login: string }) => u.login)).toEqual(['owen']);
    expect(page.headers.get('link')).toContain('rel="prev"');
    expect((await as('owen', 'GET', '/orgs/acme/members?role=boss')).status).toBe(422);
    expect((await as('otto', 'GET', '/orgs/acme/members')).body).toEqual([]);
    expect((await s.api('GET', '/orgs/acme/members')).body).toEqual([]);
    expect((await s.api('GET', '/orgs/acme/members', { token: s.adminToken })).body).toHaveLength(2);
    expect((await s.api('GET', '/orgs/nowhere/members')).status).toBe(404);
  });

  it('GET /orgs/{org}/members/{username}: 204 a member, 404 not one; 302 to the public check for outsiders, which is 404', async () => {
    const yes = await as('mia', 'GET', '/orgs/acme/members/owen');
    expect(yes.status).toBe(204);
    expect(yes.text).toBe('');
    // GitHub's description has no body for this 404; GitHub itself sends this one.
    const no = await as('mia', 'GET', '/orgs/acme/members/otto');
    expect(no.status).toBe(404);
    expect(no.body).toMatchObject({ message: 'User does not exist or is not a member of the organization', status: '404' });
    expect((await as('mia', 'GET', '/orgs/acme/members/nobody')).status).toBe(404);
    for (const who of [{ token: tok.otto }, {}]) {
      const r = await fetch(`${s.url}/orgs/acme/members/mia`, {
        redirect: 'manual',
        headers: who.token ? { authorization: `Bearer ${who.token}` } : {},
      });
      expect(r.status).toBe(302);
      expect(r.headers.get('location')).toBe(`${s.url}/orgs/acme/public_members/mia`);
      checkSchema({ status: 302, headers: r.headers, body: '', text: await r.text() }, 'GET /orgs/{org}/members/{username}');
    }
    expect((await s.api('GET', '/orgs/acme/public_members/mia')).status).toBe(404);
    expect((await s.api('GET', '/orgs/nowhere/members/mia')).status).toBe(404);
  });

  it('DELETE /orgs/{org}/members/{username}: owners remove members (204), not the last owner (422); members 403, outsiders 404', async () => {
    await s.addMember('acme', 'otto');
    expect((await as('mia', 'DELETE', '/orgs/acme/members/otto')).status).toBe(403);
    expect((await as('plain', 'DELETE', '/orgs/acme/members/otto')).status).toBe(403);
    const gone = await as('owen', 'DELETE', '/orgs/acme/members/otto');
    expect(gone.status).toBe(204);
    checkSchema(gone, 'DELETE /orgs/{org}/members/{username}');
    expect((await as('owen', 'GET', '/orgs/acme/members/otto')).status).toBe(404);
    expect((await as('otto', 'DELETE', '/orgs/acme/members/mia')).status).toBe(404);
    expect((await as('owen', 'DELETE', '/orgs/acme/members/owen')).status).toBe(422);
    expect((await as('owen', 'DELETE', '/orgs/acme/members/otto')).status).toBe(404);
  });
});

describe('PATCH and DELETE /orgs/{org}', () => {
  it('owners change the profile (organization-full back); blank clears; bad values are 422 and change nothing', async () => {
    const r = await as('owen', 'PATCH', '/orgs/acme', {
      name: 'Acme Inc.',
      description: 'We make things',
      email: 'hello@acme.test',
      blog: 'https://acme.test',
      location: 'Earth',
      company: 'Acme',
      billing_email: 'billing@acme.test',
      members_can_create_repositories: false,
    });
    expect(r.status).toBe(200);
    checkSchema(r, 'PATCH /orgs/{org}');
    expect(r.body).toMatchObject({
      login: 'acme',
      name: 'Acme Inc.',
      description: 'We make things',
      email: 'hello@acme.test',
      blog: 'https://acme.test',
      members_can_create_repositories: false,
    });
    expect((await s.api('GET', '/orgs/acme')).body).toMatchObject({ name: 'Acme Inc.', location: 'Earth', company: 'Acme' });
    const cleared = await as('owen', 'PATCH', '/orgs/acme', { location: '', company: null });
    expect(cleared.body).toMatchObject({ name: 'Acme Inc.', location: null, company: null });
    const bad = await as('owen', 'PATCH', '/orgs/acme', { name: 'x', description: 'd'.repeat(161), email: 'not-an-address' });
    expect(bad.status).toBe(422);
    checkSchema(bad, 'PATCH /orgs/{org}');
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['description', 'email']);
    expect((await as('owen', 'PATCH', '/orgs/acme', { name: 5 })).status).toBe(422);
    expect((await s.api('GET', '/orgs/acme')).body.name).toBe('Acme Inc.');
  });

  it('members cannot change it (403: they can see it), outsiders get 404; a token without admin:org is 403', async () => {
    const member = await as('mia', 'PATCH', '/orgs/acme', { name: 'Mine' });
    expect(member.status).toBe(403);
    expect(member.body.message).toBe('You must be an owner of this organization.');
    expect((await as('otto', 'PATCH', '/orgs/acme', { name: 'Mine' })).status).toBe(404);
    expect((await as('plain', 'PATCH', '/orgs/acme', { name: 'Mine' })).status).toBe(403);
    expect((await s.api('PATCH', '/orgs/acme', { body: { name: 'Mine' } })).status).toBe(401);
    expect((await s.api('GET', '/orgs/acme')).body.name).toBe('Acme Inc.');
  });

  it('owners delete it (202 {}): its profile and memberships go; members cannot (403, as they see its members), outsiders get 404', async () => {
    await s.createOrg('doomed', 'owen');
    await s.addMember('doomed', 'mia');
    expect((await as('mia', 'GET', '/orgs/doomed/members')).status).toBe(200);
    const member = await as('mia', 'DELETE', '/orgs/doomed');
    expect(member.status).toBe(403);
    checkSchema(member, 'DELETE /orgs/{org}');
    expect((await as('otto', 'DELETE', '/orgs/doomed')).status).toBe(404);
    expect((await s.api('GET', '/orgs/doomed')).status).toBe(200);
    const r = await as('owen', 'DELETE', '/orgs/doomed');
    expect(r.status).toBe(202);
    expect(r.body).toEqual({});
    checkSchema(r, 'DELETE /orgs/{org}');
    expect((await s.api('GET', '/orgs/doomed')).status).toBe(404);
    expect((await as('mia', 'GET', '/user/orgs')).body.map((o: { login: string }) => o.login)).toEqual(['acme']);
    expect((await as('owen', 'DELETE', '/orgs/doomed')).status).toBe(404);
  });
});

describe('every account in `since` order', () => {
  it('GET /users lists users and organizations by id, with a next link from the last id shown', async () => {
    const all = await s.api('GET', '/users?per_page=100');
    expect(all.status).toBe(200);
    checkSchema(all, 'GET /users');
    const ids = all.body.map((u: { id: number }) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(all.body.map((u: { login: string }) => u.login)).toEqual(expect.arrayContaining(['admin', 'owen', 'acme']));
    expect(all.headers.get('link')).toBeNull();
    const first = await s.api('GET', '/users?per_page=2');
    expect(first.body.map((u: { id: number }) => u.id)).toEqual(ids.slice(0, 2));
    expect(first.headers.get('link')).toBe(`<${s.url}/users?per_page=2&since=${ids[1]}>; rel="next"`);
    const next = await s.api('GET', `/users?per_page=2&since=${ids[1]}`);
    expect(next.body.map((u: { id: number }) => u.id)).toEqual(ids.slice(2, 4));
    expect((await s.api('GET', `/users?since=${ids.at(-1)}`)).body).toEqual([]);
    expect((await s.api('GET', '/users?since=bogus&per_page=1')).body[0].id).toBe(ids[0]);
  });

  it('GET /organizations lists organizations only', async () => {
    const r = await s.api('GET', '/organizations');
    expect(r.status).toBe(200);
    checkSchema(r, 'GET /organizations');
    expect(r.body.map((o: { login: string }) => o.login)).toEqual(['acme', 'bolt']);
    const first = await s.api('GET', '/organizations?per_page=1');
    expect(first.headers.get('link')).toBe(`<${s.url}/organizations?per_page=1&since=${r.body[0].id}>; rel="next"`);
    expect((await s.api('GET', `/organizations?since=${r.body[0].id}`)).body.map((o: { login: string }) => o.login)).toEqual(['bolt']);
  });
});
