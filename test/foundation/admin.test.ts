// The GitHub Enterprise admin API over HTTP: creating and deleting users, creating organizations, issuing and revoking tokens.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s?.close());

const admin = (method: string, path: string, body?: unknown) => s.api(method, path, { token: s.adminToken, body });

describe('POST /admin/users', () => {
  it('creates a user: 201, the user, and a Location', async () => {
    const r = await admin('POST', '/admin/users', { login: 'Nora', email: 'nora@example.com' });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.url}/users/Nora`);
    expect(r.body).toMatchObject({
      login: 'Nora',
      id: expect.any(Number),
      node_id: expect.any(String),
      url: `${s.url}/users/Nora`,
      html_url: `${s.url}/Nora`,
      type: 'User',
      site_admin: false,
    });
    expect(r.headers.get('x-accepted-oauth-scopes')).toBe('site_admin');
    const profile = await s.api('GET', '/users/nora');
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ login: 'Nora', id: r.body.id, email: 'nora@example.com' });
  });

  it('creates site admins when asked', async () => {
    const r = await admin('POST', '/admin/users', { login: 'boss', site_admin: true });
    expect(r.status).toBe(201);
    expect(r.body.site_admin).toBe(true);
  });

  it('refuses a login that is taken, in any case, by a user or an organization: 422 already_exists', async () => {
    await s.createOrg('taken-org', 'boss');
    for (const login of ['Nora', 'nora', 'NORA', 'Taken-Org']) {
      const r = await admin('POST', '/admin/users', { login });
      expect(r.status, login).toBe(422);
      expect(r.body).toMatchObject({ message: 'Validation Failed', status: '422' });
      expect(r.body.errors).toEqual([expect.objectContaining({ resource: 'User', field: 'login', code: 'already_exists' })]);
    }
  });

  it('refuses logins GitHub would refuse: 422 invalid', async () => {
    const bad = ['-lead', 'trail-', 'two--hyphens', 'under_score', 'dot.ted', 'sp ace', 'ünï', 'a'.repeat(40), 'x/y', 'admin'];
    for (const login of bad) {
      const r = await admin('POST', '/admin/users', { login });
      expect(r.status, login).toBe(422);
      expect(r.body.errors, login).toEqual([expect.objectContaining({ resource: 'User', field: 'login', code: 'invalid' })]);
    }
    const empty = await admin('POST', '/admin/users', { login: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([expect.objectContaining({ field: 'login', code: 'missing_field' })]);
  });

  it('refuses an email that is not an address with 422', async () => {
    for (const email of ['not-an-email', 'a b@example.com', 'nul\u0000@example.com', `${'x'.repeat(250)}@example.com`]) {
      const r = await admin('POST', '/admin/users', { login: 'mailer', email });
      expect(r.status, email).toBe(422);
      expect(r.body.errors).toEqual([expect.objectContaining({ resource: 'User', field: 'email', code: 'invalid' })]);
    }
    expect((await s.api('GET', '/users/mailer')).status).toBe(404);
  });

  it('accepts the edges of the rules: 39 characters, single inner hyphens, digits first', async () => {
    for (const login of ['a'.repeat(39), 'a-b-c', '9lives', 'Q']) {
      const r = await admin('POST', '/admin/users', { login });
      expect(r.status, login).toBe(201);
    }
  });
});

describe('DELETE /admin/users/{username}', () => {
  it('deletes the user: 204, then GET /users/{username} is 404 and their tokens stop working', async () => {
    const u = await s.userWithToken('leaving', ['gist']);
    expect((await s.api('GET', '/user', { token: u.token })).status).toBe(200);
    const r = await admin('DELETE', '/admin/users/LEAVING');
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const gone = await s.api('GET', '/users/leaving');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
    expect((await s.api('GET', '/user', { token: u.token })).status).toBe(401);
    // The login is free again.
    expect((await admin('POST', '/admin/users', { login: 'leaving' })).status).toBe(201);
  });

  it('answers 404 for an unknown user and for an organization', async () => {
    expect((await admin('DELETE', '/admin/users/nobody-here')).status).toBe(404);
    expect((await admin('DELETE', '/admin/users/nobody%00here')).status).toBe(404);
    expect((await admin('POST', '/admin/organizations', { login: 'nul-admin', admin: 'admin\u0000' })).status).toBe(422);
    expect((await admin('DELETE', '/admin/users/taken-org')).status).toBe(404);
    expect((await s.api('GET', '/orgs/taken-org')).status).toBe(200);
  });

  it("refuses to delete an organization's only owner with 422 naming the organization; with a second owner it works", async () => {
    await s.createUser('sole');
    await s.createOrg('lonely-org', 'sole');
    const r = await admin('DELETE', '/admin/users/sole');
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('lonely-org');
    expect((await s.api('GET', '/users/sole')).status).toBe(200);
    await s.createUser('second');
    await s.addMember('lonely-org', 'second', 'admin');
    expect((await admin('DELETE', '/admin/users/sole')).status).toBe(204);
    const secondToken = await s.createToken('second', { scopes: ['read:org'] });
    expect((await s.api('GET', '/orgs/lonely-org/memberships/second', { token: secondToken })).body.role).toBe('admin');
    expect((await s.api('GET', '/orgs/lonely-org/memberships/sole', { token: secondToken })).status).toBe(404);
  });

  it('refuses to delete the calling site admin with 422', async () => {
    const r = await admin('DELETE', '/admin/users/admin');
    expect(r.status).toBe(422);
    expect(r.body.status).toBe('422');
    expect((await s.api('GET', '/users/admin')).status).toBe(200);
  });
});

describe('POST /admin/organizations', () => {
  it('creates an organization whose admin becomes its owner', async () => {
    const owner = await s.userWithToken('founder', ['read:org']);
    const r = await admin('POST', '/admin/organizations', { login: 'Widgets', admin: 'FOUNDER', profile_name: 'Widgets Inc.' });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.url}/orgs/Widgets`);
    expect(r.body).toMatchObject({
      login: 'Widgets',
      id: expect.any(Number),
      url: `${s.url}/orgs/Widgets`,
      hooks_url: `${s.url}/orgs/Widgets/hooks`,
    });
    const org = await s.api('GET', '/orgs/widgets');
    expect(org.body).toMatchObject({ login: 'Widgets', name: 'Widgets Inc.', type: 'Organization' });
    const m = await s.api('GET', '/orgs/widgets/memberships/founder', { token: owner.token });
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ role: 'admin', state: 'active', user: { login: 'founder' }, organization: { login: 'Widgets' } });
  });

  it('refuses an unknown admin, an organization as admin, a taken or invalid login, a missing field: 422', async () => {
    const cases: [unknown, string, string][] = [
      [{ login: 'orphans', admin: 'nobody-here' }, 'admin', 'invalid'],
      [{ login: 'orgs-of-orgs', admin: 'widgets' }, 'admin', 'invalid'],
      [{ login: 'WIDGETS', admin: 'founder' }, 'login', 'already_exists'],
      [{ login: 'founder', admin: 'founder' }, 'login', 'already_exists'],
      [{ login: 'bad--name', admin: 'founder' }, 'login', 'invalid'],
      [{ login: 'no-admin' }, 'admin', 'missing_field'],
      [{ login: 'long-name', admin: 'founder', profile_name: 'n'.repeat(256) }, 'profile_name', 'invalid'],
      [{ login: 'nul-name', admin: 'founder', profile_name: 'a\u0000b' }, 'profile_name', 'invalid'],
    ];
    for (const [body, field, code] of cases) {
      const r = await admin('POST', '/admin/organizations', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.errors, JSON.stringify(body)).toEqual([expect.objectContaining({ resource: 'Organization', field, code })]);
    }
    expect((await s.api('GET', '/orgs/orphans')).status).toBe(404);
  });
});

describe('POST|GET|DELETE /admin/users/{username}/authorizations', () => {
  it('issues a token, shown once: 201 with the token, then listings show only its last eight characters', async () => {
    await s.createUser('tess');
    const r = await admin('POST', '/admin/users/tess/authorizations', { scopes: ['gist', 'read:org'], note: 'ci' });
    expect(r.status).toBe(201);
    const token: string = r.body.token;
    expect(r.body).toMatchObject({
      id: expect.any(Number),
      token: expect.stringMatching(/^hlp_[A-Za-z0-9]{36}$/),
      token_last_eight: token.slice(-8),
      hashed_token: crypto.createHash('sha256').update(token).digest('hex'),
      kind: 'classic',
      scopes: ['gist', 'read:org'],
      note: 'ci',
      user: { login: 'tess' },
      expires_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    const me = await s.api('GET', '/user', { token });
    expect(me.body.login).toBe('tess');

    const list = await admin('GET', '/admin/users/tess/authorizations');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ id: r.body.id, token: '', token_last_eight: token.slice(-8), scopes: ['gist', 'read:org'] });
    expect(list.text).not.toContain(token);
  });

  it('issues a classic token without scopes when no body is sent', async () => {
    await s.createUser('bare');
    const r = await s.api('POST', '/admin/users/bare/authorizations', { token: s.adminToken });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ kind: 'classic', scopes: [], token: expect.stringMatching(/^hlp_/) });
  });

  it('pages the listing', async () => {
    await s.createUser('many');
    for (let i = 0; i < 3; i++) await s.createToken('many', { scopes: [] });
    const page = await admin('GET', '/admin/users/many/authorizations?per_page=2');
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('link')).toContain('rel="next"');
    const last = await admin('GET', '/admin/users/many/authorizations?per_page=2&page=2');
    expect(last.body).toHaveLength(1);
  });

  it('refuses unknown scopes, kinds and permissions with 422 naming each problem', async () => {
    const scope = await admin('POST', '/admin/users/tess/authorizations', { scopes: ['gist', 'launch:missiles'] });
    expect(scope.status).toBe(422);
    expect(scope.body.errors).toEqual([expect.objectContaining({ resource: 'OauthAccess', field: 'scopes', code: 'invalid' })]);
    expect(scope.body.errors[0].message).toContain('launch:missiles');
    const several = await admin('POST', '/admin/users/tess/authorizations', { kind: 'skeleton', permissions: { gists: 'everything' } });
    expect(several.status).toBe(422);
    expect(several.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['kind', 'permissions']);
    const oauth = await admin('POST', '/admin/users/tess/authorizations', { kind: 'oauth', scopes: ['gist'] });
    expect(oauth.status).toBe(422);
    expect(oauth.body.errors).toEqual([expect.objectContaining({ field: 'app_id', code: 'missing_field' })]);
    for (const body of [{ app_id: 2 ** 40 }, { app_id: -1 }, { note: 'a\u0000b' }, { note: 'n'.repeat(1001) }]) {
      const r = await admin('POST', '/admin/users/tess/authorizations', body);
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(422);
      expect(r.body.errors).toEqual([expect.objectContaining({ field: Object.keys(body)[0], code: 'invalid' })]);
    }
    const shape = await admin('POST', '/admin/users/tess/authorizations', { scopes: 'gist' });
    expect(shape.status).toBe(422);
    expect(shape.body.errors).toEqual([expect.objectContaining({ field: 'scopes', code: 'invalid' })]);
    expect((await admin('GET', '/admin/users/tess/authorizations')).body).toHaveLength(1);
  });

  it('answers 404 for an unknown user or an organization', async () => {
    expect((await admin('POST', '/admin/users/nobody-here/authorizations', { scopes: [] })).status).toBe(404);
    expect((await admin('POST', '/admin/users/widgets/authorizations', { scopes: [] })).status).toBe(404);
    expect((await admin('GET', '/admin/users/nobody-here/authorizations')).status).toBe(404);
    expect((await admin('DELETE', '/admin/users/nobody-here/authorizations')).status).toBe(404);
  });

  it('DELETE revokes every token of the user: 204, then 401 Bad credentials and an empty listing', async () => {
    const second = await s.createToken('tess', { kind: 'fine_grained', permissions: { gists: 'write' } });
    const r = await admin('DELETE', '/admin/users/tess/authorizations');
    expect(r.status).toBe(204);
    const refused = await s.api('GET', '/user', { token: second });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Bad credentials');
    expect((await admin('GET', '/admin/users/tess/authorizations')).body).toEqual([]);
    // Revoking again is harmless.
    expect((await admin('DELETE', '/admin/users/tess/authorizations')).status).toBe(204);
  });
});
