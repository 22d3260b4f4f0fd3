// GitHub App tokens (installation, app user) over HTTP: held to the route's fine-grained permission like fine-grained
// tokens, app user tokens only where a person is needed, and installations refused on every gist route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; token: string };
let gistId: string;

const INTEGRATION = { message: 'Resource not accessible by integration', documentation_url: expect.any(String), status: '403' };

beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice');
  await s.createOrg('acme', 'alice');
  for (const name of ['v', 'w']) {
    const r = await s.api('POST', '/user/repos', { token: alice.token, body: { name, private: true } });
    expect(r.status).toBe(201);
  }
  const gist = await s.api('POST', '/gists', {
    token: alice.token,
    body: { public: false, files: { 'secret.txt': { content: 'hush\n' } } },
  });
  expect(gist.status).toBe(201);
  gistId = gist.body.id;
});
afterAll(async () => s?.close());

const token = (kind: 'installation' | 'app_user', permissions: Record<string, string>) =>
  s.createToken('alice', { kind, app_id: 7, permissions });

describe('repositories: app tokens need the permission the route declares', () => {
  it('an installation with only metadata read cannot make a repository public or delete it', async () => {
    const inst = await token('installation', { metadata: 'read' });
    expect((await s.api('GET', '/repos/alice/v', { token: inst })).status).toBe(200); // what it may do
    const patch = await s.api('PATCH', '/repos/alice/v', { token: inst, body: { private: false } });
    expect(patch.status).toBe(403);
    expect(patch.body).toEqual(INTEGRATION);
    expect(patch.headers.get('x-accepted-service-permissions')).toBe('administration=write');
    const del = await s.api('DELETE', '/repos/alice/v', { token: inst });
    expect(del.status).toBe(403);
    expect(del.body).toEqual(INTEGRATION);
    const after = await s.api('GET', '/repos/alice/v', { token: alice.token });
    expect(after.status).toBe(200);
    expect(after.body.private).toBe(true);
  });

  it('an installation with administration write may change and delete (the permission, not the kind, decides)', async () => {
    const inst = await token('installation', { administration: 'write' });
    const patch = await s.api('PATCH', '/repos/alice/w', { token: inst, body: { description: 'by the app' } });
    expect(patch.status).toBe(200);
    expect(patch.body.description).toBe('by the app');
    expect((await s.api('DELETE', '/repos/alice/w', { token: inst })).status).toBe(204);
  });

  it('an app user token with only metadata read creates no repository, in the account or in an organization', async () => {
    const appUser = await token('app_user', { metadata: 'read' });
    for (const [path, name] of [
      ['/user/repos', 'by-app-user'],
      ['/orgs/acme/repos', 'by-app-user-org'],
    ]) {
      const r = await s.api('POST', path, { token: appUser, body: { name } });
      expect(r.status, path).toBe(403);
      expect(r.body).toEqual(INTEGRATION);
    }
    expect((await s.api('GET', '/repos/alice/by-app-user', { token: alice.token })).status).toBe(404);
    expect((await s.api('GET', '/repos/acme/by-app-user-org', { token: alice.token })).status).toBe(404);
    const writer = await token('app_user', { administration: 'write' });
    expect((await s.api('POST', '/user/repos', { token: writer, body: { name: 'by-app-user' } })).status).toBe(201);
  });

  it('an app token without any repository permission cannot even read repositories', async () => {
    for (const kind of ['installation', 'app_user'] as const) {
      const none = await token(kind, { gists: 'write' });
      const r = await s.api('GET', '/repos/alice/v', { token: none });
      expect(r.status, kind).toBe(403);
      expect(r.body).toEqual(INTEGRATION);
    }
  });
});

describe('gists: GitHub serves none of its gist operations to an installation', () => {
  it('refuses an installation every gist read and write, whatever permissions it carries', async () => {
    const inst = await token('installation', { gists: 'write', metadata: 'read' });
    const calls: [string, string, unknown?][] = [
      ['GET', '/gists'],
      ['GET', '/gists/public'],
      ['GET', '/gists/starred'],
      ['GET', '/users/alice/gists'],
      ['GET', `/gists/${gistId}`],
      ['GET', `/gists/${gistId}/commits`],
      ['GET', `/gists/${gistId}/comments`],
      ['POST', '/gists', { files: { 'a.txt': { content: 'a' } } }],
      ['PATCH', `/gists/${gistId}`, { description: 'changed' }],
      ['PUT', `/gists/${gistId}/star`],
      ['DELETE', `/gists/${gistId}`],
    ];
    for (const [method, path, body] of calls) {
      const r = await s.api(method, path, { token: inst, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body).toEqual(INTEGRATION);
    }
    const still = await s.api('GET', `/gists/${gistId}`, { token: alice.token });
    expect(still.status).toBe(200);
    expect(still.body.description).toBe('');
  });

  it('lets an app user token read the person’s gists (GitHub’s rule for user access tokens) but write only with the Gists permission', async () => {
    const reader = await token('app_user', { metadata: 'read' });
    const mine = await s.api('GET', '/gists', { token: reader });
    expect(mine.status).toBe(200);
    expect(mine.body.map((g: { id: string }) => g.id)).toEqual([gistId]);
    const refused = await s.api('PATCH', `/gists/${gistId}`, { token: reader, body: { description: 'changed' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(INTEGRATION);
    expect(refused.headers.get('x-accepted-service-permissions')).toBe('gists=write');
    const writer = await token('app_user', { gists: 'write' });
    expect((await s.api('PATCH', `/gists/${gistId}`, { token: writer, body: { description: 'changed' } })).status).toBe(200);
  });
});

describe('the signed-in person', () => {
  it('answers GET /user for an app user token, and 403 for an installation (there is no person behind it)', async () => {
    expect((await s.api('GET', '/user', { token: await token('app_user', {}) })).body.login).toBe('alice');
    const r = await s.api('GET', '/user', { token: await token('installation', { metadata: 'read' }) });
    expect(r.status).toBe(403);
    expect(r.body).toEqual(INTEGRATION);
  });
});
