// GitHub Enterprise Server's admin calls on accounts: renaming users and organizations (PATCH /admin/users/{username},
// /admin/organizations/{org}) and promoting or demoting site admins (PUT|DELETE /users/{username}/site_admin).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; token: string };
beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice', ['gist', 'admin:org', 'site_admin']);
  await s.createOrg('acme', 'alice');
});
afterAll(async () => s?.close());

const admin = (method: string, path: string, body?: unknown) => s.api(method, path, { token: s.adminToken, body });

describe('PATCH /admin/users/{username}', () => {
  it('renames a user (202, GitHub Enterprise’s body): the new login answers, the old one is 404, the token still works', async () => {
    await s.userWithToken('bob');
    const gist = await s.api('POST', '/gists', {
      token: (await s.userWithToken('bob2')).token,
      body: { files: { 'a.txt': { content: 'a' } } },
    });
    const r = await admin('PATCH', '/admin/users/bob2', { login: 'robert' });
    expect(r.status).toBe(202);
    checkSchema(r, 'PATCH /admin/users/{username}');
    expect(r.body).toEqual({ message: 'Job queued to rename user. It may take a few minutes to complete.', url: `${s.url}/users/robert` });
    expect((await s.api('GET', '/users/robert')).body).toMatchObject({ login: 'robert', id: gist.body.owner.id });
    expect((await s.api('GET', '/users/bob2')).status).toBe(404);
    expect((await s.api('GET', `/gists/${gist.body.id}`)).body.owner.login).toBe('robert');
    // A change of case only is a rename too.
    expect((await admin('PATCH', '/admin/users/robert', { login: 'Robert' })).status).toBe(202);
    expect((await s.api('GET', '/users/robert')).body.login).toBe('Robert');
  });

  it('refuses a taken, invalid or reserved login (422), an organization or unknown user (404), the built-in admin (422)', async () => {
    const taken = await admin('PATCH', '/admin/users/bob', { login: 'ALICE' });
    expect(taken.status).toBe(422);
    checkSchema(taken, 'PATCH /admin/users/{username}');
    expect(taken.body.errors).toEqual([expect.objectContaining({ field: 'login', code: 'already_exists' })]);
    expect((await admin('PATCH', '/admin/users/bob', { login: 'acme' })).status).toBe(422);
    expect((await admin('PATCH', '/admin/users/bob', { login: '-bad-' })).status).toBe(422);
    expect((await admin('PATCH', '/admin/users/bob', { login: 'gists' })).status).toBe(422);
    expect((await admin('PATCH', '/admin/users/bob', {})).status).toBe(422);
    expect((await admin('PATCH', '/admin/users/acme', { login: 'acme2' })).status).toBe(404);
    expect((await admin('PATCH', '/admin/users/nobody', { login: 'nobody2' })).status).toBe(404);
    expect((await admin('PATCH', '/admin/users/admin', { login: 'root' })).status).toBe(422);
    expect((await s.api('GET', '/users/bob')).status).toBe(200);
  });

  it('is for site admins only: 404 for others, whatever their token carries', async () => {
    expect((await s.api('PATCH', '/admin/users/bob', { token: alice.token, body: { login: 'bobby' } })).status).toBe(404);
    expect((await s.api('PATCH', '/admin/users/bob', { body: { login: 'bobby' } })).status).toBe(401);
  });
});

describe('PATCH /admin/organizations/{org}', () => {
  it('renames an organization (202): its profile and memberships follow', async () => {
    await s.createOrg('widgets', 'alice');
    const r = await admin('PATCH', '/admin/organizations/widgets', { login: 'gadgets' });
    expect(r.status).toBe(202);
    checkSchema(r, 'PATCH /admin/organizations/{org}');
    expect(r.body).toEqual({
      message: 'Job queued to rename organization. It may take a few minutes to complete.',
      url: `${s.url}/orgs/gadgets`,
    });
    expect((await s.api('GET', '/orgs/gadgets')).body.login).toBe('gadgets');
    expect((await s.api('GET', '/orgs/widgets')).status).toBe(404);
    expect((await s.api('GET', '/orgs/gadgets/memberships/alice', { token: alice.token })).body.role).toBe('admin');
    expect((await admin('PATCH', '/admin/organizations/alice', { login: 'alice-org' })).status).toBe(404);
    expect((await admin('PATCH', '/admin/organizations/gadgets', { login: 'acme' })).status).toBe(422);
  });
});

describe('PUT|DELETE /users/{username}/site_admin', () => {
  it('promotes a user: the next request of their token may use the admin API; demoting takes it away at once', async () => {
    const before = await s.api('GET', '/admin/users/alice/authorizations', { token: alice.token });
    expect(before.status).toBe(404);
    const put = await admin('PUT', '/users/alice/site_admin');
    expect(put.status).toBe(204);
    checkSchema(put, 'PUT /users/{username}/site_admin');
    expect((await s.api('GET', '/users/alice')).body.site_admin).toBe(true);
    expect((await s.api('GET', '/admin/users/alice/authorizations', { token: alice.token })).status).toBe(200);
    // Twice is fine.
    expect((await admin('PUT', '/users/alice/site_admin')).status).toBe(204);

    const del = await admin('DELETE', '/users/alice/site_admin');
    expect(del.status).toBe(204);
    checkSchema(del, 'DELETE /users/{username}/site_admin');
    expect((await s.api('GET', '/users/alice')).body.site_admin).toBe(false);
    expect((await s.api('GET', '/admin/users/alice/authorizations', { token: alice.token })).status).toBe(404);
  });

  it('refuses demoting oneself (403), organizations and unknown users (404), and non-admins (404)', async () => {
    expect((await admin('DELETE', '/users/admin/site_admin')).status).toBe(403);
    expect((await admin('PUT', '/users/acme/site_admin')).status).toBe(404);
    expect((await admin('PUT', '/users/nobody/site_admin')).status).toBe(404);
    expect((await s.api('PUT', '/users/alice/site_admin', { token: alice.token })).status).toBe(404);
    expect((await s.api('GET', '/users/alice')).body.site_admin).toBe(false);
  });
});
