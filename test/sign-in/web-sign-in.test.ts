// Signing in on the web as a person does: GET /login's form, POST /session (wrong passwords, unknown names, suspended
// users, throttling, return_to), the session cookie's attributes and what is stored of it, a new id at each sign-in,
// sign-out, forged and cross-site forms, what a signed-in person's pages show, and both lifetimes of a session.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS, SESSION_LIFETIME_MS } from '../../src/accounts/sessions.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
let now = Date.parse('2026-11-28T10:00:00.000Z');
const clock = { now: () => new Date(now) };
let s: TestServer;
let aliceToken: string;
let aliceRepoToken: string;
let secretGist: { id: string };

beforeAll(async () => {
  s = await startServer({ clock });
  await s.createUser('alice', { password: PASSWORD, email: 'alice@example.com' });
  aliceToken = await s.createToken('alice', { scopes: ['gist'] });
  aliceRepoToken = await s.createToken('alice', { scopes: ['repo'] });
  const r = await s.api('POST', '/gists', {
    token: aliceToken,
    body: { public: false, files: { 'secret.md': { content: 'hidden words' } } },
  });
  secretGist = r.body;
}, 60_000);
afterAll(() => s?.close());

function cookieOf(res: { headers: Headers }, name: string): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}

describe('GET /login and POST /session', () => {
  it('shows GitHub’s form, and a wrong password or an unknown name gets the same refusal, the name kept', async () => {
    const web = new WebClient(s.url);
    const page = await web.get('/login');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<label for="field-login">Username or email address</label>');
    expect(page.text).toContain('<label for="field-password">Password</label>');
    expect(page.text).toMatch(/<form class="form" method="post" action="[^"]*\/session">/);
    expect(page.text).toContain('>Sign in</button>');
    expect(web.token).not.toBe('');

    const wrong = await web.post('/session', { login: 'alice', password: 'not the password at all' });
    const unknown = await web.post('/session', { login: 'nobody-here', password: 'not the password at all' });
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.text).toContain('Incorrect username or password.');
      expect(cookieOf(r, 'hublet_session')).toBeUndefined();
    }
    expect(unknown.text).toContain('value="nobody-here"');
    expect(wrong.text).not.toContain('not the password at all');
  });

  it('signs in by login or email: a session cookie (HttpOnly, SameSite=Lax), only its hash stored, the header names the person', async () => {
    for (const name of ['alice', 'ALICE@example.com']) {
      const web = new WebClient(s.url);
      const r = await web.signIn(name, PASSWORD);
      expect(r.status).toBe(303);
      expect(r.location).toBe(`${s.url}/gist/alice`);
      const cookie = cookieOf(r, 'hublet_session') as string;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).not.toMatch(/Secure/);
      const id = web.cookies.get('hublet_session') as string;
      const rows = await s.db.selectFrom('web_sessions').selectAll().execute();
      expect(rows.some((row) => row.id_hash === crypto.hash('sha256', id, 'hex'))).toBe(true);
      expect(JSON.stringify(rows)).not.toContain(id);
      const home = await web.get('/gist/alice');
      expect(home.text).toContain('Signed in as');
      expect(home.text).toContain('>Sign out</button>');
      expect(home.headers.get('cache-control')).toBe('private, no-store');
    }
  });

  it('goes back to a local return_to only', async () => {
    const cases: [string, string][] = [
      ['/gist/discover?page=2', `${s.url}/gist/discover?page=2`],
      ['//evil.example/x', `${s.url}/gist/alice`],
      ['https://evil.example/', `${s.url}/gist/alice`],
      ['/\\evil.example', `${s.url}/gist/alice`],
      ['/%0d%0aSet-Cookie:x=1', `${s.url}/%0d%0aSet-Cookie:x=1`],
    ];
    for (const [returnTo, expected] of cases) {
      const web = new WebClient(s.url);
      const r = await web.signIn('alice', PASSWORD, returnTo);
      expect(r.status, returnTo).toBe(303);
      expect(r.location.startsWith(`${s.url}/`) || r.location.startsWith('/'), returnTo).toBe(true);
      expect(new URL(r.location, s.url).href, returnTo).toBe(new URL(expected).href);
    }
  });

  it('gives a new session id at every sign-in (a planted cookie is not kept)', async () => {
    const web = new WebClient(s.url);
    web.cookies.set('hublet_session', 'A'.repeat(43));
    await web.signIn('alice', PASSWORD);
    const first = web.cookies.get('hublet_session');
    expect(first).not.toBe('A'.repeat(43));
    // Signing in again from a signed-in page (its token bound to the session) starts another session and ends this one.
    await web.get('/gist/discover');
    expect((await web.post('/session', { login: 'alice', password: PASSWORD })).status).toBe(303);
    const second = web.cookies.get('hublet_session');
    expect(second).not.toBe(first);
    const old = new WebClient(s.url);
    old.cookies.set('hublet_session', first as string);
    expect((await old.get('/gist/discover')).text).not.toContain('Signed in as');
  });
});

describe('forms are checked', () => {
  it('refuses a form without its token, with another visitor’s token, and any cross-site post', async () => {
    const web = new WebClient(s.url);
    await web.get('/login');
    const missing = await web.post('/session', { authenticity_token: '', login: 'alice', password: PASSWORD });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('This form has expired');
    const other = new WebClient(s.url);
    await other.get('/login');
    const stolen = await web.post('/session', { authenticity_token: other.token, login: 'alice', password: PASSWORD });
    expect(stolen.status).toBe(403);
    const crossSite = await web.post('/session', { login: 'alice', password: PASSWORD }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const evilOrigin = await web.post('/session', { login: 'alice', password: PASSWORD }, { origin: 'https://evil.example' });
    expect(evilOrigin.status).toBe(403);
    for (const r of [missing, stolen, crossSite, evilOrigin]) expect(cookieOf(r, 'hublet_session')).toBeUndefined();
    // A program that asks for JSON gets the API's shape.
    const json = await web.post(
      '/session',
      { login: 'alice', password: PASSWORD },
      { accept: 'application/json', origin: 'https://evil.example' },
    );
    expect(json.status).toBe(403);
    expect(JSON.parse(json.text).message).toMatch(/Cross-site/);
  });

  it('signs out only with the session’s own token; the cookie then signs nobody in', async () => {
    const web = new WebClient(s.url);
    await web.signIn('alice', PASSWORD);
    const id = web.cookies.get('hublet_session') as string;
    await web.get('/gist/discover');
    const forged = await web.post('/logout', { authenticity_token: 'x'.repeat(43) });
    expect(forged.status).toBe(403);
    const out = await web.post('/logout', {});
    expect(out.status).toBe(303);
    expect(web.cookies.has('hublet_session')).toBe(false);
    const replay = new WebClient(s.url);
    replay.cookies.set('hublet_session', id);
    expect((await replay.get('/gist/discover')).text).toContain('>Sign in</a>');
  });
});

describe('what a signed-in person sees', () => {
  it('shows the owner their secret gists on /gist/LOGIN, never to a visitor, never from the visitor’s cached page', async () => {
    const visitor = new WebClient(s.url);
    const before = await visitor.get('/gist/alice');
    expect(before.text).not.toContain('secret.md');
    const web = new WebClient(s.url);
    await web.signIn('alice', PASSWORD);
    const own = await web.get('/gist/alice');
    expect(own.text).toContain('secret.md');
    const after = await visitor.get('/gist/alice');
    expect(after.text).not.toContain('secret.md');
    expect(after.headers.get('vary')).toMatch(/Cookie/i);
    expect((await visitor.get(`/gist/${secretGist.id}`)).text).toContain('hidden words');
  });

  it('shows a private repository to those who can read it, a not-found page to everyone else', async () => {
    const made = await s.api('POST', '/user/repos', { token: aliceRepoToken, body: { name: 'plans', private: true, auto_init: true } });
    expect(made.status).toBe(201);
    const visitor = new WebClient(s.url);
    expect((await visitor.get('/alice/plans')).status).toBe(404);
    const web = new WebClient(s.url);
    await web.signIn('alice', PASSWORD);
    const own = await web.get('/alice/plans');
    expect(own.status).toBe(200);
    expect(own.text).toContain('plans');
    expect((await visitor.get('/alice/plans')).status).toBe(404);
    const profile = await web.get('/alice');
    expect(profile.text).toContain('plans');
    expect((await visitor.get('/alice')).text).not.toContain('/alice/plans');
  });
});

describe('throttling and refusals', () => {
  it('refuses every password after 10 wrong ones for one name in 15 minutes, known or not, then lets it in again', async () => {
    for (const name of ['alice', 'ghost-user']) {
      const web = new WebClient(s.url);
      await web.get('/login');
      for (let i = 0; i < 10; i++) expect((await web.post('/session', { login: name, password: `wrong password ${i}` })).status).toBe(401);
      const refused = await web.post('/session', { login: name, password: PASSWORD });
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('Too many sign-in attempts');
    }
    now += 15 * 60 * 1000 + 1000;
    const web = new WebClient(s.url);
    expect((await web.signIn('alice', PASSWORD)).status).toBe(303);
  }, 120_000);

  it('a suspended user cannot sign in, and their open sessions end', async () => {
    await s.createUser('carol', { password: PASSWORD });
    const web = new WebClient(s.url);
    await web.signIn('carol', PASSWORD);
    expect((await web.get('/gist/discover')).text).toContain('Signed in as');
    expect((await s.api('PUT', '/users/carol/suspended', { token: s.adminToken })).status).toBe(204);
    expect((await web.get('/gist/discover')).text).not.toContain('Signed in as');
    const again = await new WebClient(s.url).signIn('carol', PASSWORD);
    expect(again.status).toBe(403);
    expect(again.text).toContain('suspended');
  });

  it('ends a session after 7 idle days, and 30 days after sign-in however active', async () => {
    const web = new WebClient(s.url);
    await web.signIn('alice', PASSWORD);
    now += SESSION_IDLE_MS - 60_000;
    expect((await web.get('/gist/discover')).text).toContain('Signed in as');
    now += SESSION_IDLE_MS + 1000;
    expect((await web.get('/gist/discover')).text).not.toContain('Signed in as');

    const active = new WebClient(s.url);
    await active.signIn('alice', PASSWORD);
    const start = now;
    while (now - start < SESSION_LIFETIME_MS - 2 * 24 * 3600 * 1000) {
      now += 2 * 24 * 3600 * 1000;
      expect((await active.get('/gist/discover')).text).toContain('Signed in as');
    }
    now = start + SESSION_LIFETIME_MS + 1000;
    expect((await active.get('/gist/discover')).text).not.toContain('Signed in as');
  });
});

describe('over HTTPS', () => {
  it('names the cookie __Host-hublet_session, Secure', async () => {
    const tls = await startServer({ config: { baseUrl: 'https://hublet.test' } });
    try {
      await tls.createUser('dave', { password: PASSWORD });
      const web = new WebClient(
        tls.url.replace('https://hublet.test', `http://127.0.0.1:${(tls.app.server.address() as { port: number }).port}`),
      );
      await web.get('/login');
      const r = await web.post('/session', { login: 'dave', password: PASSWORD }, { origin: 'https://hublet.test' });
      expect(r.status).toBe(303);
      const cookie = cookieOf(r, '__Host-hublet_session') as string;
      expect(cookie).toMatch(/Secure/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Domain=/);
    } finally {
      await tls.close();
    }
  });
});
