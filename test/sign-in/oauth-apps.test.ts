// OAuth apps as people and site admins make and manage them: "Register a new OAuth app" at /settings/applications/new,
// the app's page with its client id and "Generate a new client secret" (shown once, stored hashed), the authorized
// apps at /settings/applications with "Revoke" (every token of that app for that person revoked at once), GitHub's ten
// tokens per person, app and scopes, the hook rule for apps' tokens, the site admin API POST /admin/oauth-apps, and
// `hublet admin app create` in local and remote mode.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessCliServer, type InProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';
import { hiddenFields, WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
let cli: InProcessCliServer;
let s: TestServer;

beforeAll(async () => {
  cli = await startInProcessCliServer();
  s = cli.server;
  for (const login of ['alice', 'bob']) await s.createUser(login, { password: PASSWORD });
}, 60_000);
afterAll(() => cli?.close());

async function signedIn(login: string): Promise<WebClient> {
  const web = new WebClient(s.url);
  expect((await web.signIn(login, PASSWORD)).status).toBe(303);
  return web;
}

/** The token endpoint's verdict on a client id and secret: a bogus code with the right credentials is a bad code. */
async function credentialsCheck(clientId: string, secret: string): Promise<string> {
  const res = await fetch(`${s.url}/login/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ client_id: clientId, client_secret: secret, code: '0'.repeat(20) }).toString(),
  });
  return (await res.json()).error;
}

/** A token of an app for a person, through the web flow (consent, code, exchange). */
async function appToken(web: WebClient, app: { client_id: string; client_secret: string }, scope: string): Promise<string> {
  const page = await web.get(`/login/oauth/authorize?client_id=${app.client_id}&scope=${scope}`);
  let location = page.location;
  if (page.status === 200) {
    location = (await web.post('/login/oauth/authorize', { ...hiddenFields(page.text), authorize: '1' })).location;
  }
  const code = new URL(location).searchParams.get('code') as string;
  const res = await fetch(`${s.url}/login/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ client_id: app.client_id, client_secret: app.client_secret, code }),
  });
  return (await res.json()).access_token;
}

describe('registering an app on the web', () => {
  it('sends a visitor to sign in first', async () => {
    const web = new WebClient(s.url);
    for (const path of ['/settings/applications', '/settings/applications/new', '/settings/applications/1']) {
      const r = await web.get(path);
      expect([r.status, r.location]).toEqual([303, `${s.url}/login?return_to=${encodeURIComponent(path)}`]);
    }
  });

  it('shows GitHub’s form, refuses what is wrong beside each field (escaped), and registers an app without a secret', async () => {
    const web = await signedIn('alice');
    const form = await web.get('/settings/applications/new');
    for (const label of ['Application name', 'Homepage URL', 'Application description', 'Authorization callback URL'])
      expect(form.text).toContain(`>${label}</label>`);
    expect(form.text).toContain('>Register application</button>');

    const refused = await web.post('/settings/applications', {
      name: '',
      homepage_url: 'javascript:alert(1)',
      description: '<b>bold</b>',
      callback_url: 'ftp://example.com/cb',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Application name is required');
    expect(refused.text).toContain('Homepage URL must be an http or https URL');
    expect(refused.text).toContain('Authorization callback URL must be an http or https URL without a fragment');
    expect(refused.text).toContain('value="&lt;b&gt;bold&lt;/b&gt;"');
    expect(await s.db.selectFrom('oauth_apps').select('id').where('owner_id', 'is not', null).execute()).toEqual([]);

    const made = await web.post('/settings/applications', {
      name: 'Notes <3',
      homepage_url: 'https://notes.example.com',
      description: 'Takes notes',
      callback_url: 'https://notes.example.com/callback',
    });
    expect(made.status).toBe(303);
    const id = /\/settings\/applications\/(\d+)$/.exec(made.location)?.[1] as string;
    const row = await s.db.selectFrom('oauth_apps').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: 'Notes <3',
      client_secret_hash: null,
      builtin: 0,
      callback_url: 'https://notes.example.com/callback',
    });
    const page = await web.get(`/settings/applications/${id}`);
    expect(page.text).toContain(`<code>${row.client_id}</code>`);
    expect(page.text).toContain('<h1>Notes &lt;3</h1>');
    expect(page.text).toContain('>Generate a new client secret</button>');
    expect(await credentialsCheck(row.client_id, '')).toBe('incorrect_client_credentials');
  });

  it('shows a new client secret once, keeps only its hash and last eight, and a newer one replaces it; only for the owner', async () => {
    const web = await signedIn('alice');
    const app = await s.db.selectFrom('oauth_apps').selectAll().where('name', '=', 'Notes <3').executeTakeFirstOrThrow();
    await web.get(`/settings/applications/${app.id}`);
    const first = await web.post(`/settings/applications/${app.id}/client_secret`, {});
    expect(first.status).toBe(201);
    const secret = /<p class="secret-value">([0-9a-f]{40})<\/p>/.exec(first.text)?.[1] as string;
    expect(first.text).toContain('Make sure to copy your new client secret now. You won&#39;t be able to see it again.');
    const stored = await s.db.selectFrom('oauth_apps').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow();
    expect(stored.client_secret_hash).toBe(crypto.hash('sha256', secret, 'hex'));
    expect(stored.client_secret_last_eight).toBe(secret.slice(-8));
    expect(JSON.stringify(stored)).not.toContain(secret);
    const later = await web.get(`/settings/applications/${app.id}`);
    expect(later.text).not.toContain(secret);
    expect(later.text).toContain(`*****${secret.slice(-8)}`);
    expect(await credentialsCheck(app.client_id, secret)).toBe('bad_verification_code');

    const second = await web.post(`/settings/applications/${app.id}/client_secret`, {});
    const newer = /<p class="secret-value">([0-9a-f]{40})<\/p>/.exec(second.text)?.[1] as string;
    expect(await credentialsCheck(app.client_id, secret)).toBe('incorrect_client_credentials');
    expect(await credentialsCheck(app.client_id, newer)).toBe('bad_verification_code');

    const bob = await signedIn('bob');
    for (const r of [
      await bob.get(`/settings/applications/${app.id}`),
      await bob.post(`/settings/applications/${app.id}/client_secret`, {}),
    ])
      expect(r.status).toBe(404);
    expect((await bob.get('/settings/applications/1x')).status).toBe(404);
    expect(await credentialsCheck(app.client_id, newer)).toBe('bad_verification_code');
    const forged = await web.post(`/settings/applications/${app.id}/client_secret`, { authenticity_token: 'forged' });
    expect(forged.status).toBe(403);
  });
});

describe('/settings/applications: authorized apps and Revoke', () => {
  it('lists the apps a person authorized with their scopes; Revoke ends the grant and every token of that app for them at once', async () => {
    const notes = (
      await s.api('POST', '/admin/oauth-apps', { token: s.adminToken, body: { name: 'Notes', callback_url: 'https://n.example.com/cb' } })
    ).body;
    const other = (
      await s.api('POST', '/admin/oauth-apps', { token: s.adminToken, body: { name: 'Other', callback_url: 'https://o.example.com/cb' } })
    ).body;
    const web = await signedIn('bob');
    const first = await appToken(web, notes, 'gist');
    const second = await appToken(web, notes, 'gist');
    const kept = await appToken(web, other, 'read:user');
    const alices = await appToken(await signedIn('alice'), notes, 'gist');

    const list = await web.get('/settings/applications');
    expect(list.text).toContain('<h2>Authorized OAuth Apps</h2>');
    expect(list.text).toMatch(/<strong>Notes<\/strong>\s*<span class="meta">Scopes: <code>gist<\/code>/);
    expect(list.text).toContain('<strong>Other</strong>');
    expect(list.text).toContain(`action="${s.url}/settings/connections/applications/${notes.client_id}/revoke"`);
    expect(list.text).toContain('class="danger">Revoke</button>');

    const forged = await web.post(`/settings/connections/applications/${notes.client_id}/revoke`, { authenticity_token: 'x' });
    expect(forged.status).toBe(403);
    expect((await s.api('GET', '/user', { token: first })).status).toBe(200);

    const revoked = await web.post(`/settings/connections/applications/${notes.client_id}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(revoked.text).toContain('You revoked the access of Notes.');
    expect(revoked.text).not.toContain('<strong>Notes</strong>');
    for (const token of [first, second]) expect((await s.api('GET', '/user', { token })).status).toBe(401);
    for (const token of [kept, alices]) expect((await s.api('GET', '/user', { token })).status).toBe(200);
    const bobId = (await s.api('GET', '/user', { token: kept })).body.id;
    expect(await s.db.selectFrom('oauth_authorizations').select('app_id').where('user_id', '=', bobId).execute()).toEqual([
      { app_id: other.id },
    ]);

    const again = await web.post(`/settings/connections/applications/${notes.client_id}/revoke`, {});
    expect(again.status).toBe(404);
    const review = await web.get(`/settings/connections/applications/${other.client_id}`);
    expect(review.location).toBe(`${s.url}/settings/applications#app-${other.client_id}`);
  });
});

describe('tokens of an app', () => {
  it('keeps ten tokens per person, app and scopes, as GitHub: an eleventh revokes the oldest', async () => {
    const tool = (
      await s.api('POST', '/admin/oauth-apps', { token: s.adminToken, body: { name: 'Tool', callback_url: 'https://t.example.com/cb' } })
    ).body;
    const web = await signedIn('bob');
    const tokens: string[] = [];
    for (let i = 0; i < 11; i++) tokens.push(await appToken(web, tool, 'gist'));
    const statuses = await Promise.all(tokens.map(async (token) => (await s.api('GET', '/user', { token })).status));
    expect(statuses).toEqual([401, ...Array(10).fill(200)]);
  });

  it('an app’s token sees only the hooks it made, and the person’s own tokens never see those', async () => {
    const hooker = (
      await s.api('POST', '/admin/oauth-apps', { token: s.adminToken, body: { name: 'Hooker', callback_url: 'https://h.example.com/cb' } })
    ).body;
    const owner = await s.userWithToken('carol', ['admin:org_hook', 'admin:org']);
    await s.api('PUT', '/admin/users/carol/password', { token: s.adminToken, body: { password: PASSWORD } });
    await s.createOrg('acme', 'carol');
    const token = await appToken(await signedIn('carol'), hooker, 'admin:org_hook');
    const hook = (url: string) => ({ name: 'web', config: { url } });
    const byApp = await s.api('POST', '/orgs/acme/hooks', { token, body: hook('https://hooks.example.com/app') });
    const byPerson = await s.api('POST', '/orgs/acme/hooks', { token: owner.token, body: hook('https://hooks.example.com/me') });
    expect([byApp.status, byPerson.status]).toEqual([201, 201]);
    const seenByApp = await s.api('GET', '/orgs/acme/hooks', { token });
    const seenByPerson = await s.api('GET', '/orgs/acme/hooks', { token: owner.token });
    expect(seenByApp.body.map((h: { id: number }) => h.id)).toEqual([byApp.body.id]);
    expect(seenByPerson.body.map((h: { id: number }) => h.id)).toEqual([byPerson.body.id]);
    expect((await s.api('GET', `/orgs/acme/hooks/${byPerson.body.id}`, { token })).status).toBe(404);
    expect((await s.api('GET', `/orgs/acme/hooks/${byApp.body.id}`, { token: owner.token })).status).toBe(404);
    expect((await s.api('PATCH', `/orgs/acme/hooks/${byApp.body.id}`, { token: owner.token, body: { active: false } })).status).toBe(404);
  });
});

describe('site admins: POST /admin/oauth-apps and hublet admin app create', () => {
  it('registers an app owned by the site, answering its client secret once; others learn nothing', async () => {
    const alice = await s.createToken('alice', { scopes: ['site_admin', 'gist'] });
    expect(
      (await s.api('POST', '/admin/oauth-apps', { token: alice, body: { name: 'x', callback_url: 'https://x.example/cb' } })).status,
    ).toBe(404);
    const noScope = await s.createToken('admin', { scopes: ['gist'] });
    expect(
      (await s.api('POST', '/admin/oauth-apps', { token: noScope, body: { name: 'x', callback_url: 'https://x.example/cb' } })).status,
    ).toBe(403);
    const bad = await s.api('POST', '/admin/oauth-apps', { token: s.adminToken, body: { name: 'x', callback_url: 'not a url' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ resource: 'OauthApplication', field: 'callback_url', code: 'invalid' });
    const made = await s.api('POST', '/admin/oauth-apps', {
      token: s.adminToken,
      body: { name: 'Dash', callback_url: 'https://dash.example.com/cb', homepage_url: 'https://dash.example.com' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Dash', url: 'https://dash.example.com', callback_url: 'https://dash.example.com/cb' });
    expect(made.body.client_id).toMatch(/^[0-9a-f]{20}$/);
    expect(made.body.client_secret).toMatch(/^[0-9a-f]{40}$/);
    const row = await s.db.selectFrom('oauth_apps').selectAll().where('client_id', '=', made.body.client_id).executeTakeFirstOrThrow();
    expect([row.owner_id, row.client_secret_hash]).toEqual([null, crypto.hash('sha256', made.body.client_secret, 'hex')]);
  });

  it('hublet admin app create prints the client id and secret, locally over the data dir and remotely with a site admin token', async () => {
    const local = await cli.local(['admin', 'app', 'create', 'Local tool', '--callback-url', 'http://127.0.0.1/callback']);
    expect(local.code, local.stderr).toBe(0);
    const m = /^Client ID: ([0-9a-f]{20})\nClient secret: ([0-9a-f]{40})\n$/.exec(local.stdout);
    expect(m).toBeTruthy();
    expect(await credentialsCheck(m?.[1] as string, m?.[2] as string)).toBe('bad_verification_code');

    const remote = await cli.remote(s.adminToken, [
      'admin',
      'app',
      'create',
      'Remote tool',
      '--callback-url',
      'https://r.example.com/cb',
      '--homepage-url',
      'https://r.example.com',
      '--json',
    ]);
    expect(remote.code, remote.stderr).toBe(0);
    const json = JSON.parse(remote.stdout);
    expect(Object.keys(json).sort()).toEqual(['client_id', 'client_secret']);
    expect(await credentialsCheck(json.client_id, json.client_secret)).toBe('bad_verification_code');
    expect(await credentialsCheck(json.client_id, 'f'.repeat(40))).toBe('incorrect_client_credentials');

    const refused = await cli.remote(null, ['admin', 'app', 'create', 'x', '--callback-url', 'https://x.example/cb']);
    expect(refused.code).not.toBe(0);
    const badUrl = await cli.local(['admin', 'app', 'create', 'x', '--callback-url', 'nope']);
    expect(badUrl.code).not.toBe(0);
    expect(badUrl.stderr).toContain('callback_url');
  });
});
