// The OAuth device flow as gh 2.23 runs it against hublet: POST /login/device/code, the person at /login/device
// (sign-in first, "Enter code", "Continue", then "Authorize" or "Cancel"), and the polls of POST
// /login/oauth/access_token with every answer GitHub documents (authorization_pending, slow_down with the longer
// interval, expired_token, access_denied, incorrect_device_code, unsupported_grant_type, incorrect_client_credentials);
// wrong codes throttled; forged forms refused; the token an `hlo_` token of the app with the scopes granted.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GH_CLIENT_ID, HUBLET_CLI_CLIENT_ID } from '../../src/accounts/builtin-apps.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
let now = Date.parse('2026-11-28T10:00:00.000Z');
const clock = { now: () => new Date(now) };
let s: TestServer;

beforeAll(async () => {
  s = await startServer({ clock, config: { rateLimitAnonymous: 3 } });
  await s.createUser('alice', { password: PASSWORD });
  await s.createUser('bob', { password: PASSWORD });
}, 60_000);
afterAll(() => s?.close());

/** A form post as gh sends it (Go's http.Client.PostForm: no Accept header), the answer parsed by its content type. */
async function postForm(path: string, fields: Record<string, string> | string, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const values: Record<string, string> = type.includes('json') ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
  return { status: res.status, type, headers: res.headers, text, values };
}

async function requestCode(clientId = GH_CLIENT_ID, scope = 'repo read:org gist') {
  const r = await postForm('/login/device/code', { client_id: clientId, scope });
  expect(r.status).toBe(200);
  return r.values;
}

const poll = (deviceCode: string, clientId = GH_CLIENT_ID) =>
  postForm('/login/oauth/access_token', { client_id: clientId, device_code: deviceCode, grant_type: DEVICE_GRANT });

/** A signed-in browser at /login/device. */
async function personAt(login: string): Promise<WebClient> {
  const web = new WebClient(s.url);
  const signedIn = await web.signIn(login, PASSWORD, '/login/device');
  expect(signedIn.status).toBe(303);
  expect(signedIn.location).toMatch(/^(http:\/\/127.0.0.1:\d+)?\/login\/device$/);
  await web.get('/login/device');
  return web;
}

describe('POST /login/device/code', () => {
  it('answers a form as GitHub does: device code, user code like WDJB-MJHT, verification URI, expires_in, interval', async () => {
    const r = await postForm('/login/device/code', { client_id: GH_CLIENT_ID, scope: 'repo read:org gist' });
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/x-www-form-urlencoded/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.values.device_code).toMatch(/^[0-9a-f]{40}$/);
    expect(r.values.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(r.values.verification_uri).toBe(`${s.url}/login/device`);
    expect(r.values.expires_in).toBe('900');
    expect(r.values.interval).toBe('5');
    const row = await s.db
      .selectFrom('device_codes')
      .selectAll()
      .where('user_code', '=', r.values.user_code.replace('-', ''))
      .executeTakeFirstOrThrow();
    expect(row.device_code_hash).toBe(crypto.hash('sha256', r.values.device_code, 'hex'));
    expect(JSON.stringify(row)).not.toContain(r.values.device_code);
    expect(JSON.parse(row.scopes)).toEqual(['gist', 'read:org', 'repo']);
  });

  it('answers JSON to a client that accepts it, and reads JSON bodies and query parameters too', async () => {
    const json = await fetch(`${s.url}/login/device/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ client_id: HUBLET_CLI_CLIENT_ID, scope: 'gist' }),
    });
    expect(json.status).toBe(200);
    const body = await json.json();
    expect(body).toMatchObject({ verification_uri: `${s.url}/login/device`, expires_in: 900, interval: 5 });
    const query = await postForm(`/login/device/code?client_id=${GH_CLIENT_ID}&scope=gist`, {});
    expect(query.values.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
  });

  it('refuses an unknown or missing client id, and is outside the API rate limit (3 anonymous calls here)', async () => {
    const bodies: (Record<string, string> | string)[] = [
      { client_id: 'no-such-app' },
      {},
      `client_id=a&client_id=${GH_CLIENT_ID}x`,
      'client_id[]=1',
      'client_id=a%00b',
    ];
    for (const fields of bodies) {
      const r = await postForm('/login/device/code', fields);
      expect(r.status).toBe(400);
      expect(r.values.error).toBe('incorrect_client_credentials');
    }
    for (let i = 0; i < 6; i++) expect((await postForm('/login/device/code', { client_id: GH_CLIENT_ID })).status).toBe(200);
    expect((await s.api('GET', '/users/alice')).status).toBe(200);
  });

  it('the built-in apps have their rows from the start: public clients, no secret', async () => {
    const rows = await s.db.selectFrom('oauth_apps').selectAll().where('builtin', '=', 1).orderBy('client_id').execute();
    expect(rows.map((r) => [r.client_id, r.name, r.client_secret_hash])).toEqual([
      [GH_CLIENT_ID, 'GitHub CLI', null],
      [HUBLET_CLI_CLIENT_ID, 'hublet CLI', null],
    ]);
  });
});

describe('/login/device and the polls', () => {
  it('sends a visitor to sign in first, and comes back to the code form', async () => {
    const web = new WebClient(s.url);
    const r = await web.get('/login/device');
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}/login?return_to=%2Flogin%2Fdevice`);
    const form = await personAt('alice');
    const page = await form.get('/login/device');
    expect(page.text).toContain('<label for="field-user_code">Enter code</label>');
    expect(page.text).toContain('>Continue</button>');
  });

  it('pending until approved, polls at the interval never slowed down, then the token once: an hlo_ token of gh with the scopes', async () => {
    const code = await requestCode();
    expect((await poll(code.device_code)).values.error).toBe('authorization_pending');
    now += 5000;
    const pending = await poll(code.device_code);
    expect(pending.status).toBe(200);
    expect(pending.values).toEqual({
      error: 'authorization_pending',
      error_description: 'The authorization request is still pending.',
      error_uri: 'https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow',
    });

    const web = await personAt('alice');
    const wrong = await web.post('/login/device', { user_code: 'BBBB-BBBB' });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('That code didn&#39;t work.');
    const shown = await web.post('/login/device', { user_code: ` ${code.user_code.toLowerCase().replace('-', '')} ` });
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<strong>GitHub CLI</strong> wants to access your <strong>alice</strong> account.');
    expect(shown.text).toContain(`<span class="user-code">${code.user_code}</span>`);
    for (const scope of ['repo', 'read:org', 'gist']) expect(shown.text).toContain(`<code>${scope}</code>`);
    expect(shown.text).toContain('value="1" class="primary">Authorize</button>');
    expect(shown.text).toContain('value="0">Cancel</button>');
    now += 5000;
    expect((await poll(code.device_code)).values.error).toBe('authorization_pending');

    const done = await web.post('/login/device/authorize', { user_code: code.user_code, authorize: '1' });
    expect(done.status).toBe(200);
    expect(done.text).toContain("Congratulations, you're all set!");
    now += 5000;
    const granted = await poll(code.device_code);
    expect(granted.type).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.keys(granted.values).sort()).toEqual(['access_token', 'scope', 'token_type']);
    expect(granted.values.access_token).toMatch(/^hlo_/);
    expect(granted.values.token_type).toBe('bearer');
    expect(granted.values.scope).toBe('gist,read:org,repo');
    now += 5000;
    expect((await poll(code.device_code)).values.error).toBe('incorrect_device_code');

    const user = await s.api('GET', '/user', { token: granted.values.access_token });
    expect(user.status).toBe(200);
    expect(user.body.login).toBe('alice');
    expect(user.headers.get('x-oauth-scopes')).toBe('gist, read:org, repo');
    const app = await s.db.selectFrom('oauth_apps').selectAll().where('client_id', '=', GH_CLIENT_ID).executeTakeFirstOrThrow();
    const token = await s.db
      .selectFrom('tokens')
      .selectAll()
      .where('token_hash', '=', crypto.hash('sha256', granted.values.access_token, 'hex'))
      .executeTakeFirstOrThrow();
    expect([token.kind, token.app_id]).toEqual(['oauth', app.id]);
    const grant = await s.db.selectFrom('oauth_authorizations').selectAll().where('app_id', '=', app.id).executeTakeFirstOrThrow();
    expect(JSON.parse(grant.scopes)).toEqual(['gist', 'read:org', 'repo']);
  });

  it('slow_down, with the interval 5 seconds longer, only for a poll that comes early; waiting exactly the interval never is', async () => {
    const code = await requestCode();
    for (let i = 0; i < 4; i++) {
      expect((await poll(code.device_code)).values.error).toBe('authorization_pending');
      now += 5000;
    }
    now -= 2000;
    const slow = await poll(code.device_code);
    expect(slow.values).toMatchObject({
      error: 'slow_down',
      error_description: 'Too many requests have been made in the same timeframe.',
      interval: '10',
    });
    now += 5000;
    expect((await poll(code.device_code)).values).toMatchObject({ error: 'slow_down', interval: '15' });
    now += 15_000;
    const json = await postForm(
      '/login/oauth/access_token',
      { client_id: GH_CLIENT_ID, device_code: code.device_code, grant_type: DEVICE_GRANT },
      { accept: 'application/json' },
    );
    expect(JSON.parse(json.text)).toMatchObject({ error: 'authorization_pending' });
  });

  it('Cancel gives access_denied to every later poll; an expired code is expired_token and no longer accepted on the page', async () => {
    const denied = await requestCode();
    const web = await personAt('bob');
    await web.post('/login/device', { user_code: denied.user_code });
    const cancelled = await web.post('/login/device/authorize', { user_code: denied.user_code, authorize: '0' });
    expect(cancelled.text).toContain('Authorization cancelled');
    const bobId = (await s.api('GET', '/users/bob', { token: s.adminToken })).body.id;
    expect(await s.db.selectFrom('oauth_authorizations').select('app_id').where('user_id', '=', bobId).execute()).toEqual([]);
    for (let i = 0; i < 2; i++) {
      now += 5000;
      expect((await poll(denied.device_code)).values.error).toBe('access_denied');
    }
    const again = await web.post('/login/device', { user_code: denied.user_code });
    expect(again.status).toBe(422);

    const expiring = await requestCode();
    now += 901_000;
    const late = await web.post('/login/device', { user_code: expiring.user_code });
    expect(late.status).toBe(422);
    const expired = await poll(expiring.device_code);
    expect(expired.values).toMatchObject({ error: 'expired_token', error_description: 'The `device_code` has expired.' });
  });

  it('answers GitHub’s errors for a wrong grant type, client or device code', async () => {
    const code = await requestCode();
    now += 5000;
    const cases: [Record<string, string>, string][] = [
      [{ client_id: GH_CLIENT_ID, device_code: code.device_code, grant_type: 'password' }, 'unsupported_grant_type'],
      [{ client_id: 'nobody', device_code: code.device_code, grant_type: DEVICE_GRANT }, 'incorrect_client_credentials'],
      [{ client_id: HUBLET_CLI_CLIENT_ID, device_code: code.device_code, grant_type: DEVICE_GRANT }, 'incorrect_device_code'],
      [{ client_id: GH_CLIENT_ID, device_code: '0'.repeat(40), grant_type: DEVICE_GRANT }, 'incorrect_device_code'],
      [{ client_id: GH_CLIENT_ID, device_code: '<x>', grant_type: DEVICE_GRANT }, 'incorrect_device_code'],
    ];
    for (const [fields, error] of cases) {
      const r = await postForm('/login/oauth/access_token', fields);
      expect([r.status, r.values.error], JSON.stringify(fields)).toEqual([200, error]);
      expect(r.values.error_description).toBeTruthy();
    }
  });

  it('refuses forged and cross-site decisions, and leaves the code pending', async () => {
    const code = await requestCode();
    const web = await personAt('alice');
    await web.post('/login/device', { user_code: code.user_code });
    const forged = await web.post('/login/device/authorize', { user_code: code.user_code, authorize: '1', authenticity_token: 'forged' });
    const crossSite = await web.post(
      '/login/device/authorize',
      { user_code: code.user_code, authorize: '1' },
      { 'sec-fetch-site': 'cross-site' },
    );
    const anonymous = await new WebClient(s.url).post('/login/device/authorize', { user_code: code.user_code, authorize: '1' });
    expect([forged.status, crossSite.status, anonymous.status]).toEqual([403, 403, 403]);
    now += 5000;
    expect((await poll(code.device_code)).values.error).toBe('authorization_pending');
  });

  it('escapes what the pages show: an app named with HTML, a typed code', async () => {
    const made = await s.api('POST', '/admin/oauth-apps', {
      token: s.adminToken,
      body: { name: '<img src=x onerror=alert(1)>', callback_url: 'https://example.com/cb' },
    });
    expect(made.status).toBe(201);
    const code = await requestCode(made.body.client_id, 'gist');
    const web = await personAt('alice');
    const wrong = await web.post('/login/device', { user_code: '"><script>alert(1)</script>' });
    expect(wrong.text).not.toContain('<script>alert(1)</script>');
    expect(wrong.text).toContain('&quot;&gt;&lt;script&gt;');
    const page = await web.post('/login/device', { user_code: [code.user_code, code.user_code] });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('refuses every code after 50 wrong ones in an hour, for that person; an hour later codes work again', async () => {
    now += 3600_000;
    const code = await requestCode();
    const web = await personAt('bob');
    for (let i = 0; i < 50; i++) expect((await web.post('/login/device', { user_code: 'BBBB-CCCC' })).status).toBe(422);
    const refused = await web.post('/login/device', { user_code: code.user_code });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many wrong codes.');
    const bobId = (await s.api('GET', '/users/bob', { token: s.adminToken })).body.id;
    const counts = await s.db
      .selectFrom('throttle_counts')
      .selectAll()
      .where('key', 'in', ['device:ip:127.0.0.1', `device:user:${bobId}`])
      .execute();
    expect(counts.map((c) => c.failures)).toEqual([50, 50]);
    now += 3600_000;
    const fresh = await requestCode();
    expect((await web.post('/login/device', { user_code: fresh.user_code })).status).toBe(200);
  });
});
