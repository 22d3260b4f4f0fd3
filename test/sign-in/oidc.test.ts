// Single sign-on with OpenID Connect against a real provider (oidc-provider over HTTPS on loopback, its certificate
// from a test CA): hublet runs as `hublet serve` child processes, trusting that CA only through NODE_EXTRA_CA_CERTS,
// and a person's browser goes back and forth between the two (helpers/oidc-provider.ts). First sign-in with
// auto-create, the same account after, a taken or invalid username refused, auto-create off, a suspended user, the
// provider's refusals, forged, missing, replayed and expired state, password sign-in off, a provider that is down,
// untrusted, or whose keys did not sign; and no single sign-on at all when it is not set up.
import { beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/secrets/secret-box.js';
import { type SsoHublet as Hublet, singleSignOnHarness, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { startServer } from '../helpers/server.js';
import { WebClient, type WebResponse } from '../helpers/web-client.js';

const sso = singleSignOnHarness();
const { startHublet, api, startAt, throughProvider, signInAs } = sso;
let op: TestOidcProvider;
beforeAll(() => {
  op = sso.op;
});

const identities = (h: Hublet) => h.db.selectFrom('oidc_identities').selectAll().orderBy('created_at').execute();
const userNamed = (h: Hublet, login: string) => h.db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst();
const userCount = async (h: Hublet) => (await h.db.selectFrom('users').select('id').execute()).length;

/** The page header's words for a signed-in person. */
const signedInAs = (_h: Hublet, login: string) => `Signed in as <strong>${login}</strong>`;

/** A refusal page: its status, its words (HTML-escaped as the page shows them), and no session started. */
function expectRefused(r: WebResponse, status: number, words: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^text\/html/);
  expect(r.text).toContain(words);
  expect(r.text).toContain('Back to sign in');
  expect(r.text).not.toMatch(/\bat \S+ \(|Error:|stack/);
  expect(r.headers.getSetCookie().some((c) => c.startsWith('hublet_session='))).toBe(false);
}

describe('with auto-create, trusting the provider through NODE_EXTRA_CA_CERTS', () => {
  let h: Hublet;
  beforeAll(async () => {
    h = await startHublet('auto', { autoCreate: true });
    op.accounts.set('sub-carol', { preferred_username: 'carol', email: 'carol@example.com', email_verified: true, name: 'Carol' });
  }, 60_000);

  it('the sign-in page’s button starts the code flow: S256 PKCE, state, nonce, the callback, in a sealed HttpOnly cookie', async () => {
    const web = new WebClient(h.url);
    const login = await web.get('/login?return_to=/gist/discover');
    expect(login.text).toContain('Sign in with Team &lt;b&gt;SSO&lt;/b&gt;');
    expect(login.text).toContain(`href="${h.url}/login/oidc?return_to=%2Fgist%2Fdiscover"`);
    const start = await startAt(web, '/gist/discover');
    const auth = new URL(start.location);
    expect(auth.searchParams.get('client_id')).toBe(op.clientId);
    expect(auth.searchParams.get('response_type')).toBe('code');
    expect(auth.searchParams.get('redirect_uri')).toBe(`${h.url}/login/oidc/callback`);
    expect(auth.searchParams.get('scope')).toBe('openid profile email');
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const state = auth.searchParams.get('state') as string;
    const nonce = auth.searchParams.get('nonce') as string;
    expect(state.length).toBeGreaterThanOrEqual(22);
    expect(nonce.length).toBeGreaterThanOrEqual(22);
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith('hublet_oidc=')) as string;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=600/);
    // Sealed: neither the state nor the nonce can be read from it.
    expect(cookie).not.toContain(state);
    expect(cookie).not.toContain(nonce);
    expect(start.headers.get('cache-control')).toBe('no-store');
  });

  it('a first sign-in makes the account (login from preferred_username, the verified email), links it and signs in', async () => {
    const { web, callback } = await signInAs(h, 'sub-carol', { returnTo: '/gist/discover?page=2' });
    expect(callback.status, callback.text).toBe(303);
    expect(callback.location).toBe('/gist/discover?page=2');
    const session = callback.headers.getSetCookie().find((c) => c.startsWith('hublet_session=')) as string;
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(callback.headers.getSetCookie().some((c) => /^hublet_oidc=;/.test(c))).toBe(true);

    const carol = await userNamed(h, 'carol');
    expect(carol).toMatchObject({ type: 'User', email: 'carol@example.com' });
    expect(Boolean(carol!.site_admin)).toBe(false);
    expect(await identities(h)).toEqual([{ issuer: op.issuer, subject: 'sub-carol', user_id: carol!.id, created_at: expect.any(String) }]);
    const sessions = await h.db.selectFrom('web_sessions').selectAll().where('user_id', '=', carol!.id).execute();
    expect(sessions.map((s) => s.method)).toEqual(['oidc']);
    // Made through the account service: the site's `user` `created` event, and the API knows the user.
    const events = await h.db.selectFrom('events').selectAll().where('name', '=', 'user').where('action', '=', 'created').execute();
    expect(events.map((e) => JSON.parse(e.payload).user.login)).toContain('carol');
    expect((await api(h, 'GET', '/users/carol')).body).toMatchObject({ login: 'carol', type: 'User' });

    const page = await web.get('/gist/carol');
    expect(page.text).toContain(signedInAs(h, 'carol'));
    expect(page.text).toContain('>Sign out</button>');
  });

  it('the next sign-in finds the same account by sub, whatever the username at the provider says now', async () => {
    op.accounts.set('sub-carol', { preferred_username: 'carol-renamed', email: 'other@example.com', email_verified: true });
    const before = await userCount(h);
    const { web, callback } = await signInAs(h, 'sub-carol');
    expect(callback.status, callback.text).toBe(303);
    expect(callback.location).toBe(`${h.url}/gist/carol`);
    expect(await userCount(h)).toBe(before);
    expect(await userNamed(h, 'carol-renamed')).toBeUndefined();
    expect((await identities(h)).filter((i) => i.subject === 'sub-carol')).toHaveLength(1);
    expect((await web.get('/gist/carol')).text).toContain(signedInAs(h, 'carol'));
  });

  it('keeps no email the provider does not say is verified', async () => {
    op.accounts.set('sub-erin', { preferred_username: 'erin', email: 'erin@example.com', email_verified: false });
    const { callback } = await signInAs(h, 'sub-erin');
    expect(callback.status, callback.text).toBe(303);
    expect(await userNamed(h, 'erin')).toMatchObject({ email: null });
  });

  it('a person signed in with a password connects their provider account on /settings/security, then signs in with it', async () => {
    const password = 'correct horse battery staple 42';
    expect((await api(h, 'POST', '/admin/users', { login: 'paula', password })).status).toBe(201);
    op.accounts.set('sub-paula', { preferred_username: 'pc-4711', email: 'p@example.com', email_verified: true });
    const web = new WebClient(h.url);
    expect((await web.signIn('paula', password)).status).toBe(303);
    const settings = await web.get('/settings/security');
    expect(settings.text).toContain('Connect your ');
    // Only with the form's token (a forged post starts nothing).
    expect((await web.post('/login/oidc/connect', { authenticity_token: 'forged' })).status).toBe(403);
    const start = await web.post('/login/oidc/connect', {});
    expect(start.status, start.text).toBe(303);
    expect(start.location.startsWith(`${op.issuer}/`)).toBe(true);
    const back = await throughProvider(start.location, 'sub-paula');
    const connected = await web.get(back);
    expect(connected.status, connected.text).toBe(303);
    expect(connected.location).toBe(`${h.url}/settings/security`);
    const paula = await userNamed(h, 'paula');
    expect((await identities(h)).filter((i) => i.subject === 'sub-paula').map((i) => i.user_id)).toEqual([paula!.id]);
    expect(await userNamed(h, 'pc-4711')).toBeUndefined();
    expect((await web.get('/settings/security')).text).toContain('account is connected');

    // Signed out, "Sign in with …" now brings paula back.
    const again = await signInAs(h, 'sub-paula');
    expect(again.callback.location).toBe(`${h.url}/gist/paula`);
    expect((await again.web.get('/gist/paula')).text).toContain(signedInAs(h, 'paula'));

    // A provider account connected to someone else is not taken over; a callback in a signed-out browser connects nothing.
    expect((await api(h, 'POST', '/admin/users', { login: 'quinn', password })).status).toBe(201);
    const quinn = new WebClient(h.url);
    await quinn.signIn('quinn', password);
    await quinn.get('/settings/security');
    const taken = await quinn.get(await throughProvider((await quinn.post('/login/oidc/connect', {})).location, 'sub-paula'));
    expectRefused(taken, 409, 'already connected to another hublet account');
    const stray = new WebClient(h.url);
    await stray.signIn('quinn', password);
    await stray.get('/settings/security');
    const started = await stray.post('/login/oidc/connect', {});
    await stray.post('/logout', {});
    op.accounts.set('sub-quinn', { preferred_username: 'quinn-x', email: 'q@example.com', email_verified: true });
    expectRefused(await stray.get(await throughProvider(started.location, 'sub-quinn')), 403, 'Sign in to hublet first');
    expect((await identities(h)).filter((i) => i.subject === 'sub-quinn')).toEqual([]);
  });

  it('refuses a username that is someone else’s login, and neither signs into nor links their account', async () => {
    expect((await api(h, 'POST', '/admin/users', { login: 'dave', email: 'dave@example.com' })).status).toBe(201);
    op.accounts.set('sub-mallory', { preferred_username: 'DAVE', email: 'dave@example.com', email_verified: true });
    for (let attempt = 0; attempt < 2; attempt++) {
      const { web, callback } = await signInAs(h, 'sub-mallory');
      expectRefused(callback, 409, 'The login “DAVE” belongs to another hublet account');
      expect((await web.get('/gist/dave')).text).not.toContain('Signed in as');
    }
    const dave = await userNamed(h, 'dave');
    expect((await identities(h)).filter((i) => i.subject === 'sub-mallory' || i.user_id === dave!.id)).toEqual([]);
    expect(await h.db.selectFrom('web_sessions').selectAll().where('user_id', '=', dave!.id).execute()).toEqual([]);
  });

  it('refuses a username the login rules refuse, or none, showing it escaped; no account is made', async () => {
    const before = await userCount(h);
    op.accounts.set('sub-odd', { preferred_username: '<script>alert(1)</script>' });
    const odd = (await signInAs(h, 'sub-odd')).callback;
    expectRefused(
      odd,
      422,
      'Your username at Team &lt;b&gt;SSO&lt;/b&gt;, “&lt;script&gt;alert(1)&lt;/script&gt;”, cannot be a hublet login',
    );
    expect(odd.text).not.toContain('<script>alert');
    op.accounts.set('sub-reserved', { preferred_username: 'admin' });
    expectRefused(
      (await signInAs(h, 'sub-reserved')).callback,
      422,
      '“admin”, cannot be a hublet login: login &#39;admin&#39; is reserved',
    );
    op.accounts.set('sub-nameless', { email: 'x@example.com', email_verified: true });
    expectRefused((await signInAs(h, 'sub-nameless')).callback, 422, 'did not send a username (preferred_username)');
    op.accounts.set('sub-array', { preferred_username: ['frank', 'grace'] });
    expectRefused((await signInAs(h, 'sub-array')).callback, 422, 'did not send a username');
    expect(await userCount(h)).toBe(before);
    expect((await identities(h)).map((i) => i.subject)).not.toEqual(expect.arrayContaining(['sub-odd']));
  });

  it('refuses a suspended user', async () => {
    expect((await api(h, 'PUT', '/users/carol/suspended', { reason: 'test' })).status).toBe(204);
    const { web, callback } = await signInAs(h, 'sub-carol');
    expectRefused(callback, 403, 'Your account is suspended. Ask a site administrator.');
    expect((await web.get('/gist/carol')).text).not.toContain('Signed in as');
    expect((await api(h, 'DELETE', '/users/carol/suspended')).status).toBe(204);
    expect((await signInAs(h, 'sub-carol')).callback.status).toBe(303);
  });

  it('cancelling at the provider (error=access_denied) is a page, not a sign-in; its words are escaped', async () => {
    const web = new WebClient(h.url);
    const start = await startAt(web);
    const back = await throughProvider(start.location, 'sub-carol', { cancel: true });
    expect(new URL(back).searchParams.get('error')).toBe('access_denied');
    expectRefused(
      await web.get(back),
      403,
      'Team &lt;b&gt;SSO&lt;/b&gt; did not sign you in (access_denied: End-User aborted interaction)',
    );

    // The same error with the right state, its description written by someone hostile.
    const state = new URL((await startAt(web)).location).searchParams.get('state') as string;
    const forged = new URLSearchParams({
      error: 'access_denied',
      error_description: '<img src=x onerror=alert(1)>',
      state,
      iss: op.issuer,
    });
    const r = await web.get(`/login/oidc/callback?${forged}`);
    expectRefused(r, 403, '(access_denied: &lt;img src=x onerror=alert(1)&gt;)');
    expect(r.text).not.toContain('<img src=x');
  });

  it('refuses a tampered or missing state, and a callback from another browser’s sign-in (login CSRF)', async () => {
    const cases: [(q: URLSearchParams) => void, string][] = [
      [(q) => q.set('state', 'forged-state-value'), 'unexpected &quot;state&quot; response parameter value'],
      [(q) => q.delete('state'), 'response parameter &quot;state&quot; missing'],
      [(q) => q.append('state', q.get('state') as string), '&quot;state&quot; parameter must be provided only once'],
      [(q) => q.append('code', 'second-code'), '&quot;code&quot; parameter must be provided only once'],
    ];
    for (const [change, reason] of cases) {
      const web = new WebClient(h.url);
      const start = await startAt(web);
      const back = new URL(await throughProvider(start.location, 'sub-carol'));
      change(back.searchParams);
      expectRefused(await web.get(back.href), 400, `could not be verified (${reason})`);
    }
    // The attacker's own callback (their code, their state) opened in the victim's browser, which has a sign-in pending.
    const attacker = await throughProvider((await startAt(new WebClient(h.url))).location, 'sub-erin');
    const victim = new WebClient(h.url);
    await startAt(victim);
    expectRefused(await victim.get(attacker), 400, 'could not be verified (unexpected &quot;state&quot; response parameter value)');
  });

  it('refuses a callback without its cookie, with a forged or expired one, and a replayed one', async () => {
    const web = new WebClient(h.url);
    const start = await startAt(web);
    const sealed = web.cookies.get('hublet_oidc') as string;
    const back = await throughProvider(start.location, 'sub-carol');
    web.cookies.delete('hublet_oidc');
    expectRefused(await web.get(back), 400, 'This sign-in was not started in this browser, or took longer than 10 minutes.');
    web.cookies.set('hublet_oidc', `${sealed.slice(0, -4)}AAAA`);
    expectRefused(await web.get(back), 400, 'Sign-in expired');
    web.cookies.set('hublet_oidc', 'hsb1:0000000000000000:AAAA');
    expectRefused(await web.get(back), 400, 'Sign-in expired');
    // Sealed with the server's own key, but 10 minutes old: the state is right, the time is not.
    const state = new URL(start.location).searchParams.get('state');
    const old = { state, nonce: 'n', codeVerifier: 'v', issuer: op.issuer, returnTo: null, expiresAt: Date.now() - 1000 };
    const box = new SecretBox(Buffer.from(h.secretKey, 'hex'));
    web.cookies.set('hublet_oidc', box.seal(JSON.stringify(old), 'oidc sign-in'));
    expectRefused(await web.get(back), 400, 'Sign-in expired');

    // The server's own cookie with another nonce (state and PKCE verifier right): the ID token's nonce does not match.
    const fresh = new WebClient(h.url);
    const next = await startAt(fresh);
    const pending = JSON.parse(box.open(fresh.cookies.get('hublet_oidc') as string, 'oidc sign-in'));
    fresh.cookies.set('hublet_oidc', box.seal(JSON.stringify({ ...pending, nonce: 'another-nonce-entirely' }), 'oidc sign-in'));
    expectRefused(
      await fresh.get(await throughProvider(next.location, 'sub-carol')),
      400,
      'could not be verified (unexpected ID Token &quot;nonce&quot;',
    );

    // A finished sign-in's callback, again: without the cookie (it was cleared), and with the old cookie put back.
    const done = await signInAs(h, 'sub-carol');
    expect(done.callback.status).toBe(303);
    const replay = new WebClient(h.url);
    expectRefused(await replay.get(done.back), 400, 'Sign-in expired');
    const first = done.start.headers.getSetCookie().find((c) => c.startsWith('hublet_oidc=')) as string;
    replay.cookies.set('hublet_oidc', first.split(';')[0].slice('hublet_oidc='.length));
    expectRefused(await replay.get(done.back), 400, 'did not accept this sign-in (invalid_grant');
  });

  it('goes back to a local return_to only, and a signed-in person’s /login/oidc goes straight there', async () => {
    const { web, callback } = await signInAs(h, 'sub-carol', { returnTo: 'https://evil.example/' });
    expect(callback.location).toBe(`${h.url}/gist/carol`);
    const again = await web.get('/login/oidc?return_to=//evil.example/x');
    expect(again.status).toBe(303);
    expect(again.location).toBe(`${h.url}/gist/carol`);
  });
});

describe('without auto-create, password sign-in off (single sign-on the only way in)', () => {
  let h: Hublet;
  beforeAll(async () => {
    h = await startHublet('manual', { passwordSignIn: false });
  }, 60_000);

  it('the sign-in page offers single sign-on only', async () => {
    const page = await new WebClient(h.url).get('/login');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a class="button" href="${h.url}/login/oidc?return_to=">Sign in with Team &lt;b&gt;SSO&lt;/b&gt;</a>`);
    expect(page.text).not.toContain('name="password"');
  });

  it('someone without a linked account is told to ask a site admin; nothing is made', async () => {
    op.accounts.set('sub-henry', { preferred_username: 'henry', email: 'henry@example.com', email_verified: true });
    const before = await userCount(h);
    const { callback } = await signInAs(h, 'sub-henry');
    expectRefused(callback, 403, 'There is no hublet account for your Team &lt;b&gt;SSO&lt;/b&gt; account. Ask a site administrator');
    expect(await userCount(h)).toBe(before);
    expect(await identities(h)).toEqual([]);
  });

  it('the account linked to the sub signs in, the only way in', async () => {
    expect((await api(h, 'POST', '/admin/users', { login: 'henry-h' })).status).toBe(201);
    const henry = await userNamed(h, 'henry-h');
    await h.db
      .insertInto('oidc_identities')
      .values({ issuer: op.issuer, subject: 'sub-henry', user_id: henry!.id, created_at: new Date().toISOString() })
      .execute();
    const { web, callback } = await signInAs(h, 'sub-henry');
    expect(callback.status, callback.text).toBe(303);
    expect(callback.location).toBe(`${h.url}/gist/henry-h`);
    expect((await web.get('/gist/henry-h')).text).toContain(signedInAs(h, 'henry-h'));

    // A right password, posted with a valid form token (the signed-in page's), still signs no one in.
    const password = 'correct horse battery staple 42';
    expect((await api(h, 'POST', '/admin/users', { login: 'jill', password })).status).toBe(201);
    expect(web.token).not.toBe('');
    const refused = await web.post('/session', { login: 'jill', password });
    expect(refused.status).toBe(404);
    expect(refused.headers.getSetCookie().some((c) => c.startsWith('hublet_session='))).toBe(false);
    expect((await web.get('/gist/jill')).text).toContain(signedInAs(h, 'henry-h'));
  });
});

describe('a provider hublet cannot trust or reach', () => {
  it('an untrusted certificate (no NODE_EXTRA_CA_CERTS for its CA) is a clear page, and no sign-in starts', async () => {
    const h = await startHublet('untrusted', { autoCreate: true, trustProvider: false });
    const r = await new WebClient(h.url).get('/login/oidc');
    expect(r.status).toBe(502);
    expect(r.text).toContain('Cannot reach Team &lt;b&gt;SSO&lt;/b&gt;');
    expect(r.text).toMatch(
      /its TLS certificate is not trusted by this server \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)\)/,
    );
    expect(r.headers.getSetCookie().some((c) => c.startsWith('hublet_oidc='))).toBe(false);
  });

  it('a provider that is down is a clear page and is asked again later; tokens its published keys did not sign are refused', async () => {
    const h = await startHublet('flaky', { autoCreate: true });
    op.down = true;
    try {
      const r = await new WebClient(h.url).get('/login/oidc');
      expect(r.status).toBe(502);
      expect(r.text).toContain('hublet could not reach Team &lt;b&gt;SSO&lt;/b&gt; to sign you in: it answered HTTP 503.');
    } finally {
      op.down = false;
    }
    op.publishWrongKeys = true;
    op.accounts.set('sub-ivan', { preferred_username: 'ivan' });
    try {
      const { callback } = await signInAs(h, 'sub-ivan');
      expectRefused(callback, 400, 'could not be verified (JWT signature verification failed)');
    } finally {
      op.publishWrongKeys = false;
    }
    expect(await userNamed(h, 'ivan')).toBeUndefined();
  });
});

describe('without single sign-on set up', () => {
  it('its addresses are not found, and the sign-in page has no button', async () => {
    const s = await startServer();
    try {
      const web = new WebClient(s.url);
      for (const address of ['/login/oidc', '/login/oidc/callback?code=x&state=y']) {
        const r = await web.get(address);
        expect(r.status, address).toBe(404);
        expect(r.text).toContain('Page not found');
      }
      expect((await web.get('/login')).text).not.toContain('Sign in with');
    } finally {
      await s.close();
    }
  });
});
