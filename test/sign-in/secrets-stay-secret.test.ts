// What people sign in with never leaks: a real `hublet serve` at log level debug signs a person in, shows them a new
// token, an OAuth client secret, an invitation link and a device-flow token, and then neither its whole log nor any
// page or answer afterwards holds the password, the session id, a token, the secret, the invitation or a code.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../helpers/cli.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.js';
import { hiddenFields, WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
const ADMIN = `hlp_${'S'.repeat(36)}`;
let sb: Sandbox;
let db: TestDatabase | undefined;
let p: ServeProcess | undefined;

beforeAll(() => {
  sb = sandbox();
});
afterAll(async () => {
  await p?.stop('SIGKILL');
  await db?.drop();
  sb?.cleanup();
});

async function api(method: string, url: string, body?: unknown, token = ADMIN) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

describe('secrets of signing in', () => {
  it('stay out of the log at debug level and out of every later page and answer', { timeout: 120_000 }, async () => {
    const dir = path.join(sb.root, 'secrets');
    fs.mkdirSync(dir);
    db = await createTestDatabase(dir);
    p = await startServe(
      ['--port', '0', '--data', dir, ...(onPostgres ? ['--database', db.url] : []), '--log-level', 'debug', '--signup', 'invite'],
      { env: sb.env, extraEnv: { HUBLET_ADMIN_TOKEN: ADMIN } },
    );
    const base = p.url;
    expect((await api('POST', `${base}/admin/users`, { login: 'alice', email: 'alice@example.com', password: PASSWORD })).status).toBe(201);

    // A password sign-in, then a classic token made on the page.
    const web = new WebClient(base);
    expect((await web.signIn('alice', PASSWORD)).status).toBe(303);
    const session = web.cookies.get('hublet_session') as string;
    await web.get('/settings/tokens/new');
    const made = await web.post('/settings/tokens', { note: 'laptop', scopes: ['gist'], expiration: '7' });
    const token = /<p class="secret-value" id="new-token"><code>([^<]+)<\/code><\/p>/.exec(made.text)?.[1] as string;
    expect(token).toMatch(/^hlp_/);

    // An OAuth app's client secret, and a code exchanged for its token.
    const app = (await api('POST', `${base}/admin/oauth-apps`, { name: 'Notes', callback_url: 'https://app.example.com/cb' })).body;
    expect(app.client_secret).toMatch(/^[0-9a-f]{40}$/);
    const consent = await web.get(`/login/oauth/authorize?client_id=${app.client_id}&scope=gist&state=st4te`);
    const back = await web.post('/login/oauth/authorize', { ...hiddenFields(consent.text), authorize: '1' });
    const code = new URL(back.location).searchParams.get('code') as string;
    const exchanged = await fetch(`${base}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, code }).toString(),
    });
    const oauthToken = ((await exchanged.json()) as { access_token: string }).access_token;
    expect(oauthToken).toMatch(/^hlo_/);

    // An invitation link, opened in a browser.
    const invitation = (await api('POST', `${base}/admin/invitations`, { note: 'for dana' })).body;
    const link = new URL(invitation.invitation_url);
    expect((await new WebClient(base).get(link.pathname + link.search)).status).toBe(200);

    // The device flow: a code, approved on the page, polled for its token.
    const started = await fetch(`${base}/login/device/code`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'hublet-cli', scope: 'gist' }),
    });
    const device = (await started.json()) as { device_code: string; user_code: string };
    await web.get('/login/device');
    const entered = await web.post('/login/device', { user_code: device.user_code });
    expect((await web.post('/login/device/authorize', { ...hiddenFields(entered.text), authorize: '1' })).status).toBeLessThan(400);
    const polled = await fetch(`${base}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: 'hublet-cli',
        device_code: device.device_code,
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      }).toString(),
    });
    const deviceToken = ((await polled.json()) as { access_token?: string }).access_token as string;
    expect(deviceToken).toMatch(/^hlo_/);

    const secrets: Record<string, string> = {
      password: PASSWORD,
      session: session,
      token,
      client_secret: app.client_secret,
      oauth_code: code,
      oauth_token: oauthToken,
      invitation: invitation.token,
      device_code: device.device_code,
      device_token: deviceToken,
      admin: ADMIN,
    };

    // Later pages and answers: the token and application lists, the app's page, the user's tokens as an admin sees them.
    const later = [
      (await web.get('/settings/tokens')).text,
      (await web.get('/settings/applications')).text,
      (await web.get('/gist/alice')).text,
      (await api('GET', `${base}/admin/users/alice/authorizations`)).text,
      (await api('GET', `${base}/user`, undefined, token)).text,
    ].join('\n');
    for (const [name, value] of Object.entries(secrets)) {
      if (name === 'admin') continue;
      expect(later.includes(value), `${name} in a later page or answer`).toBe(false);
    }

    expect(await p.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const log = p.stdout() + p.stderr();
    expect(log).toContain('request completed');
    expect(log).toContain('/signup?invitation=********');
    for (const [name, value] of Object.entries(secrets)) expect(log.includes(value), `${name} in the log`).toBe(false);
  });
});
