// Grants over HTTP: what each token kind may call and how each is refused, on the membership and admin routes and on probe
// routes that declare every shape of grant (a default 404, a 403 for missing scopes, no fine-grained access, apps allowed).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let probe: FastifyInstance;
let probeUrl: string;

/** Tokens of the org owner `olivia` (not a site admin) and of the site admin `root`, one per case. */
const t: Record<string, string> = {};

beforeAll(async () => {
  s = await startServer();
  await s.createUser('olivia');
  await s.createUser('mike');
  await s.createUser('root', { siteAdmin: true });
  await s.createOrg('acme', 'olivia');
  await s.addMember('acme', 'mike');
  const issue = async (name: string, login: string, body: Parameters<TestServer['createToken']>[1]) => {
    t[name] = await s.createToken(login, body);
  };
  await Promise.all([
    issue('classicRead', 'olivia', { scopes: ['read:org'] }),
    issue('classicWriteOrg', 'olivia', { scopes: ['write:org'] }),
    issue('classicAdmin', 'olivia', { scopes: ['admin:org'] }),
    issue('classicGist', 'olivia', { scopes: ['gist'] }),
    issue('fineRead', 'olivia', { kind: 'fine_grained', permissions: { members: 'read' } }),
    issue('fineWrite', 'olivia', { kind: 'fine_grained', permissions: { members: 'write' } }),
    issue('fineNone', 'olivia', { kind: 'fine_grained', permissions: { gists: 'write' } }),
    issue('oauthAdmin', 'olivia', { kind: 'oauth', app_id: 9, scopes: ['admin:org'] }),
    issue('oauthGist', 'olivia', { kind: 'oauth', app_id: 9, scopes: ['gist'] }),
    issue('installation', 'olivia', { kind: 'installation' }),
    issue('appUser', 'olivia', { kind: 'app_user' }),
    issue('oliviaSiteAdminScope', 'olivia', { scopes: ['site_admin'] }),
    issue('rootSiteAdmin', 'root', { scopes: ['site_admin'] }),
    issue('rootNoScope', 'root', { scopes: ['admin:org', 'user'] }),
    issue('rootFine', 'root', { kind: 'fine_grained', permissions: { organization_administration: 'admin', members: 'admin' } }),
    issue('rootOauth', 'root', { kind: 'oauth', app_id: 3, scopes: ['site_admin'] }),
    issue('rootInstallation', 'root', { kind: 'installation' }),
    issue('rootAppUser', 'root', { kind: 'app_user' }),
  ]);

  // A second app on the same database with routes declaring each shape of grant.
  probe = await buildApp({ config: s.app.hublet.config, db: s.db });
  const ok = async () => ({ ok: true });
  probe.get('/probe/default', { config: { grant: { scopes: ['gist'], fineGrained: { permission: 'gists', level: 'write' } } } }, ok);
  probe.get('/probe/missing-scope-403', { config: { grant: { scopes: ['gist'], missingScope: 403 } } }, ok);
  probe.get('/probe/no-fine-grained', { config: { grant: { scopes: [], fineGrained: null } } }, ok);
  probe.get(
    '/probe/apps',
    { config: { grant: { scopes: ['gist'], fineGrained: { permission: 'gists', level: 'read' }, apps: true } } },
    ok,
  );
  probe.post(
    '/probe/body',
    {
      schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
      config: { grant: { scopes: ['gist'] } },
    },
    ok,
  );
  await probe.listen({ host: '127.0.0.1', port: 0 });
  const address = probe.server.address();
  probeUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await probe?.close();
  await s?.close();
});

async function call(base: string, method: string, path: string, token: string | undefined, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `token ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
const api = (method: string, path: string, token: string | undefined, body?: unknown) => call(s.url, method, path, token, body);
const probeApi = (method: string, path: string, token: string | undefined, body?: unknown) => call(probeUrl, method, path, token, body);

const PAT = 'Resource not accessible by personal access token';
const INTEGRATION = 'Resource not accessible by integration';

describe('grants: each token kind on the membership routes', () => {
  // GET needs read:org (or admin:org) / members:read; PUT and DELETE need admin:org / members:write; apps are refused.
  const read = '/orgs/acme/memberships/mike';
  const cases: { token: string; get: number; put: number; message?: string }[] = [
    { token: 'classicRead', get: 200, put: 403 },
    { token: 'classicWriteOrg', get: 200, put: 403 },
    { token: 'classicAdmin', get: 200, put: 200 },
    { token: 'classicGist', get: 403, put: 403 },
    { token: 'fineRead', get: 200, put: 403, message: PAT },
    { token: 'fineWrite', get: 200, put: 200 },
    { token: 'fineNone', get: 403, put: 403, message: PAT },
    { token: 'oauthAdmin', get: 200, put: 200 },
    { token: 'oauthGist', get: 403, put: 403 },
    { token: 'installation', get: 403, put: 403, message: INTEGRATION },
    { token: 'appUser', get: 403, put: 403, message: INTEGRATION },
  ];

  it.each(cases)('$token: GET $get, PUT $put', async ({ token, get, put, message }) => {
    const g = await api('GET', read, t[token]);
    expect(g.status).toBe(get);
    if (get === 200) expect(g.body).toMatchObject({ role: 'member', user: { login: 'mike' } });
    const p = await api('PUT', read, t[token], { role: 'member' });
    expect(p.status).toBe(put);
    for (const r of [g, p]) {
      if (r.status !== 403) continue;
      expect(r.body.status).toBe('403');
      if (message) expect(r.body.message).toBe(message);
      else expect(r.body.message).toMatch(/admin:org|read:org/); // a classic or OAuth token is told which scope is missing
    }
  });

  it('refuses DELETE the same way as PUT (it needs the write grant)', async () => {
    await s.createUser('temp1');
    await s.addMember('acme', 'temp1');
    expect((await api('DELETE', '/orgs/acme/memberships/temp1', t.classicRead)).status).toBe(403);
    expect((await api('DELETE', '/orgs/acme/memberships/temp1', t.fineRead)).body.message).toBe(PAT);
    expect((await api('DELETE', '/orgs/acme/memberships/temp1', t.installation)).body.message).toBe(INTEGRATION);
    expect((await api('DELETE', '/orgs/acme/memberships/temp1', t.fineWrite)).status).toBe(204);
  });

  it('answers an anonymous caller with 401 Requires authentication', async () => {
    const r = await api('GET', read, undefined);
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Requires authentication');
  });
});

describe('grants: each token kind on the admin routes (site admins with the site_admin scope only)', () => {
  const cases: { token: string; status: number; message?: string }[] = [
    { token: 'rootSiteAdmin', status: 201 },
    { token: 'rootOauth', status: 201 },
    { token: 'rootNoScope', status: 403 },
    { token: 'rootFine', status: 403, message: PAT },
    { token: 'rootInstallation', status: 403, message: INTEGRATION },
    { token: 'rootAppUser', status: 403, message: INTEGRATION },
    { token: 'oliviaSiteAdminScope', status: 404, message: 'Not Found' },
    { token: 'classicAdmin', status: 404, message: 'Not Found' },
  ];

  it.each(cases)('$token: POST /admin/users → $status', async ({ token, status, message }) => {
    const login = `made-by-${token.toLowerCase()}`;
    const r = await api('POST', '/admin/users', t[token], { login });
    expect(r.status).toBe(status);
    if (status === 201) expect(r.body.login).toBe(login);
    else {
      expect(r.body.status).toBe(String(status));
      if (message) expect(r.body.message).toBe(message);
      else expect(r.body.message).toContain('site_admin');
      expect((await api('GET', `/users/${login}`, undefined)).status).toBe(404);
    }
  });

  it('refuses every admin route to a user who is not a site admin with 404, before looking at the body', async () => {
    const token = t.oliviaSiteAdminScope;
    const calls: [string, string, unknown][] = [
      ['POST', '/admin/users', { login: 'x1' }],
      ['POST', '/admin/users', { login: 12 }], // an invalid body still answers 404, not 422
      ['DELETE', '/admin/users/mike', undefined],
      ['POST', '/admin/organizations', { login: 'org2', admin: 'olivia' }],
      ['POST', '/admin/users/mike/authorizations', { scopes: ['gist'] }],
      ['GET', '/admin/users/mike/authorizations', undefined],
      ['DELETE', '/admin/users/mike/authorizations', undefined],
    ];
    for (const [method, path, body] of calls) {
      const r = await api(method, path, token, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
    }
    expect((await api('GET', '/users/mike', undefined)).status).toBe(200);
  });

  it('answers an anonymous caller with 401 on every admin route, before looking at the body', async () => {
    for (const [method, path, body] of [
      ['POST', '/admin/users', {}],
      ['DELETE', '/admin/users/mike', undefined],
      ['POST', '/admin/organizations', { login: 'org3', admin: 'olivia' }],
      ['DELETE', '/admin/users/mike/authorizations', undefined],
    ] as const) {
      const r = await api(method, path, undefined, body);
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.body.message).toBe('Requires authentication');
    }
  });
});

describe('grants: every shape a route can declare', () => {
  it('hides a route behind 404 from a classic or OAuth token without the scope (the default)', async () => {
    expect((await probeApi('GET', '/probe/default', t.classicGist)).status).toBe(200);
    expect((await probeApi('GET', '/probe/default', t.oauthGist)).status).toBe(200);
    for (const token of [t.classicRead, t.oauthAdmin]) {
      const r = await probeApi('GET', '/probe/default', token);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
    }
  });

  it('answers 403 naming the scopes when the route declares missingScope 403', async () => {
    expect((await probeApi('GET', '/probe/missing-scope-403', t.classicGist)).status).toBe(200);
    const r = await probeApi('GET', '/probe/missing-scope-403', t.classicRead);
    expect(r.status).toBe(403);
    expect(r.body.message).toContain('gist');
  });

  it('lets a fine-grained token in only with the declared permission at the declared level or above', async () => {
    expect((await probeApi('GET', '/probe/default', t.fineNone)).status).toBe(200); // gists: write
    const r = await probeApi('GET', '/probe/default', t.fineRead); // members: read only
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(PAT);
    const readOnly = await s.createToken('olivia', { kind: 'fine_grained', permissions: { gists: 'read' } });
    expect((await probeApi('GET', '/probe/default', readOnly)).body.message).toBe(PAT); // read < write
    expect((await probeApi('GET', '/probe/apps', readOnly)).status).toBe(200);
  });

  it('refuses fine-grained tokens on a route that declares fineGrained null, whatever they carry', async () => {
    const r = await probeApi('GET', '/probe/no-fine-grained', t.rootFine);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(PAT);
    expect((await probeApi('GET', '/probe/no-fine-grained', t.classicGist)).status).toBe(200);
  });

  it('lets installation and app-user tokens call only routes that allow apps, with the declared permission', async () => {
    for (const kind of ['installation', 'app_user']) {
      const withPermission = await s.createToken('olivia', { kind, permissions: { gists: 'write' } });
      expect((await probeApi('GET', '/probe/apps', withPermission)).status, kind).toBe(200);
      // A route that does not allow apps refuses them whatever they carry.
      const r = await probeApi('GET', '/probe/default', withPermission);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(INTEGRATION);
    }
    for (const token of [t.installation, t.appUser]) {
      // Allowed as an app, but without the permission the route declares.
      const r = await probeApi('GET', '/probe/apps', token);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(INTEGRATION);
    }
  });

  it('checks the grant before the body: 401, then the grant, then 422', async () => {
    expect((await probeApi('POST', '/probe/body', undefined, { nope: 1 })).status).toBe(401);
    expect((await probeApi('POST', '/probe/body', t.classicRead, { nope: 1 })).status).toBe(404);
    const invalid = await probeApi('POST', '/probe/body', t.classicGist, { nope: 1 });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual([expect.objectContaining({ field: 'name', code: 'missing_field' })]);
    expect((await probeApi('POST', '/probe/body', t.classicGist, { name: 'x' })).status).toBe(200);
  });

  it('lets every kind of token call routes that need no grant', async () => {
    for (const name of ['classicGist', 'fineNone', 'oauthGist', 'installation', 'appUser']) {
      const r = await api('GET', '/users/mike', t[name]);
      expect(r.status, name).toBe(200);
      expect(r.body.login).toBe('mike');
    }
    for (const name of ['classicGist', 'fineNone', 'oauthGist', 'appUser']) {
      const r = await api('GET', '/user', t[name]);
      expect(r.status, name).toBe(200);
      expect(r.body.login).toBe('olivia');
    }
  });

  it('answers GET /user with an installation token as GitHub does: 403, there is no signed-in person', async () => {
    const r = await api('GET', '/user', t.installation);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(INTEGRATION);
  });
});
