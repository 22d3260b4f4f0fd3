// The OAuth web application flow as GitHub documents it: GET /login/oauth/authorize (unknown apps, GitHub's
// redirect_uri rules with loopback ports, sign-in first), the consent page ("Authorize APP", "Cancel"), the redirect
// with code and state or access_denied, and POST /login/oauth/access_token (form or JSON answers; single-use,
// expiring codes; GitHub's error codes), and Chromium going through it to an app on a loopback port.
import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { hiddenFields, WebClient } from '../helpers/web-client.js';
import { BrowserSession, seriousViolations } from '../web/browser.js';

const PASSWORD = 'correct horse battery staple 42';
let now = Date.parse('2026-11-28T10:00:00.000Z');
const clock = { now: () => new Date(now) };
let s: TestServer;
const CALLBACK = 'https://app.example.com/oauth/callback';
let app: { id: number; client_id: string; client_secret: string };
let loopbackApp: { id: number; client_id: string; client_secret: string };

async function registerApp(name: string, callback: string) {
  const r = await s.api('POST', '/admin/oauth-apps', { token: s.adminToken, body: { name, callback_url: callback } });
  expect(r.status).toBe(201);
  return r.body;
}

beforeAll(async () => {
  s = await startServer({ clock });
  await s.createUser('alice', { password: PASSWORD });
  await s.createUser('bob', { password: PASSWORD });
  app = await registerApp('Octo <Notes>', CALLBACK);
  loopbackApp = await registerApp('Desk tool', 'http://127.0.0.1/callback');
}, 60_000);
afterAll(() => s?.close());

function authorizePath(params: Record<string, string>): string {
  return `/login/oauth/authorize?${new URLSearchParams(params)}`;
}

async function signedIn(login: string): Promise<WebClient> {
  const web = new WebClient(s.url);
  expect((await web.signIn(login, PASSWORD)).status).toBe(303);
  return web;
}

/** Goes through the consent page and presses a button; answers the redirect's URL. */
async function decide(web: WebClient, params: Record<string, string>, authorize: '1' | '0'): Promise<URL> {
  const page = await web.get(authorizePath(params));
  expect(page.status).toBe(200);
  const r = await web.post('/login/oauth/authorize', { ...hiddenFields(page.text), authorize });
  expect(r.status).toBe(302);
  return new URL(r.location);
}

async function exchange(fields: Record<string, string>, accept?: string) {
  const res = await fetch(`${s.url}/login/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(accept ? { accept } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  return {
    status: res.status,
    type,
    values: (type.includes('json') ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text))) as Record<string, string>,
  };
}

describe('GET /login/oauth/authorize', () => {
  it('shows an error page for an unknown app, and sends a visitor to sign in first, back to the same request', async () => {
    const unknown = await new WebClient(s.url).get(authorizePath({ client_id: 'nope', redirect_uri: 'https://evil.example/' }));
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Application not found');
    expect(unknown.location).toBe('');

    const path = authorizePath({ client_id: app.client_id, scope: 'gist', state: 'abc' });
    const web = new WebClient(s.url);
    const visitor = await web.get(path);
    expect(visitor.status).toBe(303);
    expect(visitor.location).toBe(`${s.url}/login?return_to=${encodeURIComponent(path)}`);
    const back = await web.signIn('alice', PASSWORD, path);
    expect(back.location).toMatch(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
  });

  it('follows GitHub’s redirect_uri rules: same scheme, host (or a subdomain) and port, the callback’s path or below; loopback on any port', async () => {
    const web = await signedIn('bob');
    const good: [typeof app, string, string][] = [
      [app, '', CALLBACK],
      [app, CALLBACK, CALLBACK],
      [app, `${CALLBACK}/sub/dir?next=1`, `${CALLBACK}/sub/dir?next=1`],
      [app, 'HTTPS://APP.example.com:443/oauth/callback', CALLBACK],
      [app, 'https://eu.app.example.com/oauth/callback', 'https://eu.app.example.com/oauth/callback'],
      [loopbackApp, 'http://127.0.0.1:43210/callback', 'http://127.0.0.1:43210/callback'],
      [loopbackApp, 'http://localhost:1234/callback/x', 'http://localhost:1234/callback/x'],
      [loopbackApp, 'http://[::1]:9/callback', 'http://[::1]:9/callback'],
    ];
    for (const [which, given, used] of good) {
      const r = await web.get(authorizePath({ client_id: which.client_id, redirect_uri: given }));
      expect(r.status, given).toBe(200);
      expect(hiddenFields(r.text).redirect_uri).toBe(used);
    }
    const bad: [typeof app, string][] = [
      [app, 'https://app.example.com/oauth/callbackx'],
      [app, 'https://app.example.com/oauth'],
      [app, 'https://app.example.com/'],
      [app, 'https://app.example.com:8443/oauth/callback'],
      [app, 'http://app.example.com/oauth/callback'],
      [app, 'https://evil.example/oauth/callback'],
      [app, 'https://app.example.com.evil.example/oauth/callback'],
      [app, 'https://evilapp.example.com/oauth/callback'],
      [app, 'https://eu.app.example.com:8443/oauth/callback'],
      [app, 'https://app.example.com/oauth/callback/../../evil'],
      [app, 'https://app.example.com/oauth/callback/%2e%2e/%2e%2e/evil'],
      [app, 'https://user:pw@app.example.com/oauth/callback'],
      [app, `${CALLBACK}#frag`],
      [app, 'javascript:alert(1)//app.example.com/oauth/callback'],
      [app, '//evil.example/oauth/callback'],
      [loopbackApp, 'https://127.0.0.1:1/callback'],
      [loopbackApp, 'http://127.0.0.2:1/callback'],
      [loopbackApp, 'http://127.0.0.1:1/other'],
    ];
    for (const [which, given] of bad) {
      const r = await web.get(authorizePath({ client_id: which.client_id, redirect_uri: given, state: 's' }));
      expect([r.status, r.location], given).toEqual([400, '']);
      expect(r.text).toContain('Redirect URI mismatch');
      expect(r.text).not.toContain('evil.example');
    }
  });
});

describe('the consent page, the code and its exchange', () => {
  it('Authorize goes back with code and state; the code becomes an hlo_ token of the app with the scopes asked, workflow too', async () => {
    const web = await signedIn('alice');
    const page = await web.get(authorizePath({ client_id: app.client_id, scope: 'repo gist workflow nonsense', state: '"><b>x' }));
    expect(page.text).toContain('<h1>Authorize Octo &lt;Notes&gt;</h1>');
    expect(page.text).toContain('class="primary">Authorize Octo &lt;Notes&gt;</button>');
    expect(page.text).toContain('value="0">Cancel</button>');
    for (const scope of ['repo', 'gist', 'workflow']) expect(page.text).toContain(`<code>${scope}</code>`);
    expect(page.text).not.toContain('nonsense');
    expect(page.text).toContain('name="state" value="&quot;&gt;&lt;b&gt;x"');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://app.example.com;");

    const r = await web.post('/login/oauth/authorize', { ...hiddenFields(page.text), authorize: '1' });
    expect(r.status).toBe(302);
    const back = new URL(r.location);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get('state')).toBe('"><b>x');
    const code = back.searchParams.get('code') as string;
    expect(code).toMatch(/^[0-9a-f]{20}$/);
    const stored = await s.db.selectFrom('oauth_codes').selectAll().execute();
    expect(stored.map((c) => c.code_hash)).toContain(crypto.hash('sha256', code, 'hex'));
    expect(JSON.stringify(stored)).not.toContain(code);

    const token = await exchange({ client_id: app.client_id, client_secret: app.client_secret, code, redirect_uri: CALLBACK });
    expect(token.status).toBe(200);
    expect(token.type).toMatch(/^application\/x-www-form-urlencoded/);
    expect(token.values.access_token).toMatch(/^hlo_/);
    expect(token.values).toMatchObject({ scope: 'gist,repo,workflow', token_type: 'bearer' });
    const user = await s.api('GET', '/user', { token: token.values.access_token });
    expect([user.status, user.body.login, user.headers.get('x-oauth-scopes')]).toEqual([200, 'alice', 'gist, repo, workflow']);
    const row = await s.db
      .selectFrom('tokens')
      .selectAll()
      .where('token_hash', '=', crypto.hash('sha256', token.values.access_token, 'hex'))
      .executeTakeFirstOrThrow();
    expect([row.kind, row.app_id]).toEqual(['oauth', app.id]);

    // Client credentials may come with HTTP Basic instead of the body (RFC 6749 2.3.1), as GitHub accepts.
    // (alice granted gist a moment ago: the authorize page goes straight back with a code)
    const straight = await web.get(authorizePath({ client_id: app.client_id, scope: 'gist' }));
    expect(straight.status).toBe(302);
    const basicCode = new URL(straight.location).searchParams.get('code') as string;
    const basic = await fetch(`${s.url}/login/oauth/access_token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ code: basicCode }).toString(),
    });
    expect(basic.status).toBe(200);
    expect((await basic.json()).access_token).toMatch(/^hlo_/);

    // A code is good once: presented again it is refused, and the token it gave is revoked.
    const again = await exchange({ client_id: app.client_id, client_secret: app.client_secret, code });
    expect(again.values).toEqual({
      error: 'bad_verification_code',
      error_description: 'The code passed is incorrect or expired.',
      error_uri:
        'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code',
    });
    expect((await s.api('GET', '/user', { token: token.values.access_token })).status).toBe(401);
  });

  it('an app already granted those scopes goes straight back with a code; more scopes ask again, and the grant keeps them all', async () => {
    const web = await signedIn('alice');
    const straight = await web.get(authorizePath({ client_id: app.client_id, scope: 'public_repo', state: 'again' }));
    expect(straight.status).toBe(302);
    expect(new URL(straight.location).searchParams.get('state')).toBe('again');
    const asked = await decide(web, { client_id: app.client_id, scope: 'read:org' }, '1');
    const json = await exchange(
      { client_id: app.client_id, client_secret: app.client_secret, code: asked.searchParams.get('code') as string },
      'application/json',
    );
    expect(json.type).toMatch(/^application\/json/);
    expect(json.values).toMatchObject({ scope: 'read:org', token_type: 'bearer' });
    const grant = await s.db.selectFrom('oauth_authorizations').selectAll().where('app_id', '=', app.id).executeTakeFirstOrThrow();
    expect(JSON.parse(grant.scopes)).toEqual(['gist', 'public_repo', 'read:org', 'repo', 'workflow']);
  });

  it('Cancel goes back with access_denied and the state', async () => {
    const back = await decide(await signedIn('bob'), { client_id: app.client_id, scope: 'gist', state: 'st8' }, '0');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The user has denied your application access.',
      error_uri: 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#access-denied',
      state: 'st8',
    });
  });

  it('refuses forged and cross-site decisions, and a decision naming a redirect_uri the app does not have', async () => {
    const web = await signedIn('bob');
    const page = await web.get(authorizePath({ client_id: app.client_id, scope: 'gist' }));
    const fields = { ...hiddenFields(page.text), authorize: '1' };
    const forged = await web.post('/login/oauth/authorize', { ...fields, authenticity_token: 'x' });
    const crossSite = await web.post('/login/oauth/authorize', fields, { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' });
    const elsewhere = await web.post('/login/oauth/authorize', { ...fields, redirect_uri: 'https://evil.example/cb' });
    expect([forged.status, crossSite.status, elsewhere.status]).toEqual([403, 403, 400]);
    for (const r of [forged, crossSite, elsewhere]) expect(r.location).toBe('');
  });

  it('answers GitHub’s errors: client credentials, codes of other apps, expired codes, redirect_uri, grant type', async () => {
    const web = await signedIn('bob');
    const code = (scope: string) =>
      decide(web, { client_id: app.client_id, scope, redirect_uri: `${CALLBACK}/x` }, '1').then(
        (u) => u.searchParams.get('code') as string,
      );
    const first = await code('gist');
    const base = { client_id: app.client_id, client_secret: app.client_secret, code: first };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, client_secret: 'wrong' }, 'incorrect_client_credentials'],
      [{ ...base, client_secret: '' }, 'incorrect_client_credentials'],
      [{ ...base, client_id: 'unknown' }, 'incorrect_client_credentials'],
      [{ ...base, client_id: loopbackApp.client_id, client_secret: loopbackApp.client_secret }, 'bad_verification_code'],
      [{ ...base, redirect_uri: CALLBACK }, 'redirect_uri_mismatch'],
      [{ ...base, grant_type: 'refresh_token' }, 'unsupported_grant_type'],
      [{ ...base, code: '<script>' }, 'bad_verification_code'],
    ];
    for (const [fields, error] of cases) {
      const r = await exchange(fields);
      expect([r.status, r.values.error], JSON.stringify(fields)).toEqual([200, error]);
    }
    // None of those used the code up.
    expect((await exchange({ ...base, redirect_uri: `${CALLBACK}/x` })).values.access_token).toMatch(/^hlo_/);

    const late = await code('user');
    now += 10 * 60 * 1000;
    expect((await exchange({ ...base, code: late })).values.error).toBe('bad_verification_code');
  });
});

describe('in a browser', () => {
  it('Chromium signs in, reads the consent page and is sent on to the app’s loopback port with the code (the page lets its form go there)', async () => {
    await s.createUser('dave', { password: PASSWORD });
    const received: string[] = [];
    const appServer = http.createServer((req, res) => {
      // Chromium also asks the app for /favicon.ico.
      if (req.url?.startsWith('/callback')) received.push(req.url);
      res.end('signed in');
    });
    await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
    const port = (appServer.address() as { port: number }).port;
    const browser = await BrowserSession.start();
    try {
      const redirect = `http://localhost:${port}/callback`;
      const { page, problems } = await browser.visit(
        `${s.url}${authorizePath({ client_id: loopbackApp.client_id, redirect_uri: redirect, scope: 'gist', state: 'b1' })}`,
      );
      await page.getByLabel('Username or email address').fill('dave');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Authorize Desk tool' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Authorize Desk tool' }).click();
      await page.waitForURL(/^http:\/\/localhost:/);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatch(/^\/callback\?code=[0-9a-f]{20}&state=b1$/);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await new Promise((resolve) => appServer.close(resolve));
    }
  }, 60_000);
});
