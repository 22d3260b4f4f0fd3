// Account, admin and service responses checked against GitHub's published OpenAPI description, and the checker itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiVersions, checkSchema, describedOperations, expectResponseMatchesSchema, findOperation } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let owner: { login: string; id: number; token: string };
let member: { login: string; id: number; token: string };
const NEW_VERSION = '2026-03-10';
const v2026 = { 'x-service-api-version': NEW_VERSION };

beforeAll(async () => {
  s = await startServer();
  owner = await s.userWithToken('schema-owner');
  member = await s.userWithToken('schema-member', ['read:user']);
  await s.createOrg('schema-org', owner.login);
  await s.addMember('schema-org', member.login);
});
afterAll(async () => s?.close());

describe('the checker', () => {
  it('covers every API version hublet accepts', () => {
    expect(apiVersions).toEqual(['2022-11-28', NEW_VERSION]);
  });

  it('matches concrete paths to templates, literal segments first', () => {
    expect(findOperation('get', '/gists/starred')).toBe('GET /gists/starred');
    expect(findOperation('GET', '/gists/aa11/commits')).toBe('GET /gists/{gist_id}/commits');
    expect(findOperation('GET', '/api/v3/gists/aa11/0123abc?per_page=2')).toBe('GET /gists/{gist_id}/{sha}');
    expect(findOperation('DELETE', '/user/migrations/7/repos/octo-repo/lock')).toBe(
      'DELETE /user/migrations/{migration_id}/repos/{repo_name}/lock',
    );
    expect(() => findOperation('GET', '/no/such/thing')).toThrow(/no operation/);
  });

  it('describes every operation hublet serves', () => {
    for (const op of [
      'POST /gists',
      'POST /orgs/{org}/hooks/{hook_id}/pings',
      'GET /orgs/{org}/migrations/{migration_id}/archive',
      'POST /admin/users',
    ]) {
      expect(describedOperations).toContain(op);
    }
  });

  it('names each failing field, with its path in the body', async () => {
    const body = (await s.api('GET', `/users/${owner.login}`)).body;
    expect(() => expectResponseMatchesSchema('GET', '/users/{username}', 200, body)).not.toThrow();
    const broken = { ...body, id: 'seven', created_at: 'yesterday' };
    delete broken.node_id;
    let message = '';
    try {
      expectResponseMatchesSchema('GET', '/users/{username}', 200, broken);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/\/id: must be integer \(got "seven"\)/);
    expect(message).toMatch(/\/created_at: must match format "date-time"/);
    expect(message).toMatch(/missing required property "node_id"/);
  });

  it('turns nullable into null being allowed, and nothing else', () => {
    const ok = {
      message: 'Validation Failed',
      documentation_url: 'https://docs.github.com/rest',
      errors: [{ resource: 'User', field: 'login', code: 'invalid', value: null }],
    };
    expect(() => expectResponseMatchesSchema('POST', '/gists', 422, ok)).not.toThrow();
    expect(() => expectResponseMatchesSchema('POST', '/gists', 422, { ...ok, documentation_url: null })).toThrow(
      /\/documentation_url: must be string/,
    );
  });

  it('requires an empty body where GitHub sends none, and refuses undocumented successes', () => {
    expect(() => expectResponseMatchesSchema('DELETE', '/gists/{gist_id}', 204, undefined)).not.toThrow();
    expect(() => expectResponseMatchesSchema('DELETE', '/gists/{gist_id}', 204, { deleted: true })).toThrow(/no JSON body/);
    expect(() => expectResponseMatchesSchema('GET', '/users/{username}', 201, {})).toThrow(/has no 201 response/);
  });

  it('checks an undocumented error status against GitHub error shape', () => {
    const ok = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' };
    expect(() => expectResponseMatchesSchema('GET', '/orgs/{org}/hooks/{hook_id}/config', 404, ok)).not.toThrow();
    expect(() => expectResponseMatchesSchema('GET', '/orgs/{org}/hooks/{hook_id}/config', 404, { ...ok, message: 404 })).toThrow(
      /\/message: must be string/,
    );
  });

  it('applies GitHub breaking changes for the requested API version', () => {
    const withRate = {
      resources: { core: { limit: 1, used: 0, remaining: 1, reset: 1 }, search: { limit: 1, used: 0, remaining: 1, reset: 1 } },
    };
    expect(() => expectResponseMatchesSchema('GET', '/rate_limit', 200, withRate, { apiVersion: NEW_VERSION })).not.toThrow();
    expect(() => expectResponseMatchesSchema('GET', '/rate_limit', 200, withRate)).toThrow(/missing required property "rate"/);
    expect(() => expectResponseMatchesSchema('GET', '/rate_limit', 200, withRate, { apiVersion: '1999-01-01' })).toThrow(
      /no OpenAPI description/,
    );
  });

  it('is the fixture scripts/extract-openapi.mjs generates from the installed @octokit/openapi', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-openapi-')), 'openapi.json');
    execFileSync(process.execPath, ['scripts/extract-openapi.mjs', '--out', out], { stdio: 'pipe' });
    const committed = fs.readFileSync(new URL('../fixtures/openapi-operations.json', import.meta.url), 'utf8');
    expect(fs.readFileSync(out, 'utf8') === committed).toBe(true);
    expect(committed.length).toBeLessThan(1024 * 1024);
  });
});

describe('GET /user', () => {
  it('matches private-user, as of both API versions', async () => {
    const me = checkSchema(await s.api('GET', '/user', { token: owner.token }), 'GET /user');
    expect(me).toMatchObject({ login: owner.login, user_view_type: 'private' });
    checkSchema(await s.api('GET', '/user', { token: owner.token, headers: v2026 }), 'GET /user');
  });

  it('answers without a token with a documented 401', async () => {
    const r = await s.api('GET', '/user');
    expect(r.status).toBe(401);
    checkSchema(r, 'GET /user');
  });
});

describe('GET /users/{username}', () => {
  it('matches public-user for a user and for an organization', async () => {
    const user = checkSchema(await s.api('GET', `/users/${member.login}`), 'GET /users/{username}');
    expect(user).toMatchObject({ login: member.login, type: 'User', user_view_type: 'public' });
    const org = checkSchema(await s.api('GET', '/users/schema-org', { token: member.token }), 'GET /users/{username}');
    expect(org).toMatchObject({ login: 'schema-org', type: 'Organization' });
  });

  it('answers an unknown login with basic-error', async () => {
    const r = await s.api('GET', '/users/no-such-user-here');
    expect(r.status).toBe(404);
    checkSchema(r, 'GET /users/{username}');
  });
});

describe('GET /orgs/{org}', () => {
  it('matches organization-full, as of both API versions', async () => {
    const org = checkSchema(await s.api('GET', '/orgs/schema-org', { token: member.token }), 'GET /orgs/{org}');
    expect(org).toMatchObject({ login: 'schema-org', type: 'Organization' });
    checkSchema(await s.api('GET', '/orgs/schema-org', { headers: v2026 }), 'GET /orgs/{org}');
    const missing = await s.api('GET', '/orgs/no-such-org');
    expect(missing.status).toBe(404);
    checkSchema(missing, 'GET /orgs/{org}');
  });
});

describe('/orgs/{org}/memberships/{username}', () => {
  it('matches org-membership on GET and PUT', async () => {
    const got = checkSchema(
      await s.api('GET', `/orgs/schema-org/memberships/${member.login}`, { token: owner.token }),
      'GET /orgs/{org}/memberships/{username}',
    );
    expect(got).toMatchObject({ role: 'member', state: 'active' });
    const put = await s.api('PUT', `/orgs/schema-org/memberships/${member.login}`, { token: owner.token, body: { role: 'admin' } });
    expect(checkSchema(put, 'PUT /orgs/{org}/memberships/{username}')).toMatchObject({ role: 'admin' });
    const back = await s.api('PUT', `/orgs/schema-org/memberships/${member.login}`, {
      token: owner.token,
      body: { role: 'member' },
      headers: v2026,
    });
    checkSchema(back, 'PUT /orgs/{org}/memberships/{username}');
  });

  it('answers a bad role with validation-error and an unknown member with basic-error', async () => {
    const bad = await s.api('PUT', `/orgs/schema-org/memberships/${member.login}`, { token: owner.token, body: { role: 'emperor' } });
    expect(bad.status).toBe(422);
    checkSchema(bad, 'PUT /orgs/{org}/memberships/{username}');
    const none = await s.api('GET', '/orgs/schema-org/memberships/no-such-user-here', { token: owner.token });
    expect(none.status).toBe(404);
    checkSchema(none, 'GET /orgs/{org}/memberships/{username}');
  });

  it('answers DELETE with an empty 204', async () => {
    const extra = await s.createUser('schema-leaver');
    await s.addMember('schema-org', extra.login);
    const r = await s.api('DELETE', `/orgs/schema-org/memberships/${extra.login}`, { token: owner.token });
    expect(r.status).toBe(204);
    checkSchema(r, 'DELETE /orgs/{org}/memberships/{username}');
  });
});

describe('GET /rate_limit', () => {
  it('matches rate-limit-overview for a token and anonymously', async () => {
    const r = checkSchema(await s.api('GET', '/rate_limit', { token: member.token }), 'GET /rate_limit');
    expect(r.rate).toEqual(r.resources.core);
    checkSchema(await s.api('GET', '/rate_limit'), 'GET /rate_limit');
  });

  it('leaves out the deprecated `rate` as of 2026-03-10, as GitHub does', async () => {
    const r = checkSchema(await s.api('GET', '/rate_limit', { token: member.token, headers: v2026 }), 'GET /rate_limit');
    expect(r).not.toHaveProperty('rate');
    expect(r.resources.core.limit).toBeGreaterThan(0);
  });
});

describe('GET /versions', () => {
  it('matches the described list of dates', async () => {
    expect(checkSchema(await s.api('GET', '/versions'), 'GET /versions')).toEqual(['2022-11-28', NEW_VERSION]);
  });
});

describe('the enterprise admin API', () => {
  it('POST /admin/users matches simple-user', async () => {
    const r = await s.api('POST', '/admin/users', { token: s.adminToken, body: { login: 'schema-created', email: 'created@example.com' } });
    expect(r.status).toBe(201);
    expect(checkSchema(r, 'POST /admin/users')).toMatchObject({ login: 'schema-created', type: 'User' });
  });

  it('POST /admin/organizations matches organization-simple', async () => {
    const r = await s.api('POST', '/admin/organizations', { token: s.adminToken, body: { login: 'schema-org-2', admin: owner.login } });
    expect(r.status).toBe(201);
    expect(checkSchema(r, 'POST /admin/organizations')).toMatchObject({ login: 'schema-org-2' });
  });

  it('POST /admin/users/{username}/authorizations matches authorization, token included', async () => {
    const r = await s.api('POST', `/admin/users/${member.login}/authorizations`, { token: s.adminToken, body: { scopes: ['gist'] } });
    expect(r.status).toBe(201);
    const auth = checkSchema(r, 'POST /admin/users/{username}/authorizations');
    expect(auth.scopes).toEqual(['gist']);
    expect(auth.token).toMatch(/^hlp_/);
    expect(auth.user.login).toBe(member.login);
    const me = await s.api('GET', '/user', { token: auth.token });
    expect(me.body.login).toBe(member.login);
  });

  it('DELETE /admin/users/{username}/authorizations and DELETE /admin/users/{username} answer an empty 204', async () => {
    const gone = await s.createUser('schema-gone');
    await s.createToken(gone.login);
    checkSchema(
      await s.api('DELETE', `/admin/users/${gone.login}/authorizations`, { token: s.adminToken }),
      'DELETE /admin/users/{username}/authorizations',
    );
    const r = await s.api('DELETE', `/admin/users/${gone.login}`, { token: s.adminToken });
    expect(r.status).toBe(204);
    checkSchema(r, 'DELETE /admin/users/{username}');
  });

  it('answers a bad login with validation-error', async () => {
    const r = await s.api('POST', '/admin/users', { token: s.adminToken, body: { login: '-bad-' } });
    expect(r.status).toBe(422);
    checkSchema(r, 'POST /admin/users');
  });
});
