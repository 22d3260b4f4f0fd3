// Organization memberships over HTTP: GET|PUT|DELETE /orgs/{org}/memberships/{username}, who may do what, the last owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
/** owner, member and outsider of `acme`, each with an admin:org token. */
const tok: Record<string, string> = {};
beforeAll(async () => {
  s = await startServer();
  for (const login of ['owen', 'mia', 'otto', 'nell', 'pat']) tok[login] = (await s.userWithToken(login, ['admin:org'])).token;
  await s.createOrg('acme', 'owen');
  await s.addMember('acme', 'mia');
});
afterAll(async () => s?.close());

const as = (who: string, method: string, path: string, body?: unknown) => s.api(method, path, { token: tok[who], body });

describe('GET /orgs/{org}/memberships/{username}', () => {
  it("shows an owner any member's membership", async () => {
    const r = await as('owen', 'GET', '/orgs/acme/memberships/mia');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      url: `${s.url}/orgs/acme/memberships/mia`,
      state: 'active',
      role: 'member',
      organization_url: `${s.url}/orgs/acme`,
      organization: { login: 'acme', url: `${s.url}/orgs/acme` },
      user: { login: 'mia', type: 'User' },
    });
    const own = await as('owen', 'GET', '/orgs/acme/memberships/owen');
    expect(own.body.role).toBe('admin');
  });

  it('shows a member their own membership, and no one else’s', async () => {
    const mine = await as('mia', 'GET', '/orgs/ACME/memberships/MIA');
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ role: 'member', user: { login: 'mia' } });
    expect((await as('mia', 'GET', '/orgs/acme/memberships/owen')).status).toBe(404);
  });

  it('answers 404 to outsiders, for non-members, unknown users and unknown organizations', async () => {
    expect((await as('otto', 'GET', '/orgs/acme/memberships/mia')).status).toBe(404);
    expect((await as('otto', 'GET', '/orgs/acme/memberships/otto')).status).toBe(404);
    expect((await as('owen', 'GET', '/orgs/acme/memberships/otto')).status).toBe(404);
    expect((await as('owen', 'GET', '/orgs/acme/memberships/nobody')).status).toBe(404);
    expect((await as('owen', 'GET', '/orgs/acme%00/memberships/mia')).status).toBe(404);
    expect((await as('owen', 'PUT', '/orgs/acme/memberships/mia%00x', { role: 'member' })).status).toBe(404);
    const r = await as('owen', 'GET', '/orgs/nowhere/memberships/owen');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
  });

  it('answers 401 without a token', async () => {
    expect((await s.api('GET', '/orgs/acme/memberships/mia')).status).toBe(401);
  });
});

describe('PUT /orgs/{org}/memberships/{username}', () => {
  it('lets an owner add a member and then change the role', async () => {
    const add = await as('owen', 'PUT', '/orgs/acme/memberships/nell', { role: 'member' });
    expect(add.status).toBe(200);
    expect(add.body).toMatchObject({ role: 'member', state: 'active', user: { login: 'nell' }, organization: { login: 'acme' } });
    expect((await as('nell', 'GET', '/orgs/acme/memberships/nell')).body.role).toBe('member');

    const promote = await as('owen', 'PUT', '/orgs/acme/memberships/NELL', { role: 'admin' });
    expect(promote.status).toBe(200);
    expect(promote.body.role).toBe('admin');
    // nell is an owner now, and can manage others.
    expect((await as('nell', 'GET', '/orgs/acme/memberships/mia')).status).toBe(200);
  });

  it('adds as member when no role is given', async () => {
    const r = await s.api('PUT', '/orgs/acme/memberships/pat', { token: tok.owen });
    expect(r.status).toBe(200);
    expect(r.body.role).toBe('member');
  });

  it('refuses a member with 403 and an outsider with 404, changing nothing', async () => {
    const member = await as('mia', 'PUT', '/orgs/acme/memberships/mia', { role: 'admin' });
    expect(member.status).toBe(403);
    expect(member.body).toMatchObject({ message: expect.stringContaining('admin'), status: '403' });
    const outsider = await as('otto', 'PUT', '/orgs/acme/memberships/otto', { role: 'member' });
    expect(outsider.status).toBe(404);
    expect(outsider.body.message).toBe('Not Found');
    expect((await as('owen', 'GET', '/orgs/acme/memberships/mia')).body.role).toBe('member');
    expect((await as('owen', 'GET', '/orgs/acme/memberships/otto')).status).toBe(404);
  });

  it('refuses an invalid role with 422', async () => {
    for (const role of ['owner', 'ADMIN', '', 1, null]) {
      const r = await as('owen', 'PUT', '/orgs/acme/memberships/mia', { role });
      expect(r.status, JSON.stringify(role)).toBe(422);
      expect(r.body.message).toBe('Validation Failed');
      expect(r.body.errors.length).toBeGreaterThan(0);
      for (const e of r.body.errors) expect(e).toMatchObject({ resource: 'Membership', field: 'role', code: 'invalid' });
    }
    expect((await as('owen', 'GET', '/orgs/acme/memberships/mia')).body.role).toBe('member');
  });

  it('answers 404 for an unknown user, an organization as user, or an unknown organization', async () => {
    expect((await as('owen', 'PUT', '/orgs/acme/memberships/nobody', { role: 'member' })).status).toBe(404);
    expect((await as('owen', 'PUT', '/orgs/acme/memberships/acme', { role: 'member' })).status).toBe(404);
    expect((await as('owen', 'PUT', '/orgs/nowhere/memberships/mia', { role: 'member' })).status).toBe(404);
  });
});

describe('DELETE /orgs/{org}/memberships/{username}', () => {
  it('lets an owner remove a member: 204, then the membership is gone', async () => {
    await s.createUser('quinn');
    await s.addMember('acme', 'quinn');
    const r = await as('owen', 'DELETE', '/orgs/acme/memberships/QUINN');
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await as('owen', 'GET', '/orgs/acme/memberships/quinn')).status).toBe(404);
    expect((await as('owen', 'DELETE', '/orgs/acme/memberships/quinn')).status).toBe(404);
  });

  it('refuses a member with 403 and an outsider with 404', async () => {
    expect((await as('mia', 'DELETE', '/orgs/acme/memberships/pat')).status).toBe(403);
    expect((await as('otto', 'DELETE', '/orgs/acme/memberships/pat')).status).toBe(404);
    expect((await as('owen', 'GET', '/orgs/acme/memberships/pat')).status).toBe(200);
  });
});

describe('the last owner', () => {
  it('cannot be demoted or removed (422); with a second owner both work', async () => {
    await s.createOrg('solo', 'owen');
    const demote = await as('owen', 'PUT', '/orgs/solo/memberships/owen', { role: 'member' });
    expect(demote.status).toBe(422);
    expect(demote.body).toMatchObject({ message: expect.stringMatching(/last owner/), status: '422' });
    const remove = await as('owen', 'DELETE', '/orgs/solo/memberships/owen');
    expect(remove.status).toBe(422);
    expect(remove.body.message).toMatch(/last owner/);
    expect((await as('owen', 'GET', '/orgs/solo/memberships/owen')).body.role).toBe('admin');

    expect((await as('owen', 'PUT', '/orgs/solo/memberships/otto', { role: 'admin' })).status).toBe(200);
    expect((await as('owen', 'PUT', '/orgs/solo/memberships/owen', { role: 'member' })).body.role).toBe('member');
    // otto is now the only owner: owen (a member now) may not manage, and otto cannot leave.
    expect((await as('owen', 'DELETE', '/orgs/solo/memberships/otto')).status).toBe(403);
    expect((await as('otto', 'DELETE', '/orgs/solo/memberships/otto')).status).toBe(422);
    expect((await as('otto', 'DELETE', '/orgs/solo/memberships/owen')).status).toBe(204);
  });
});
