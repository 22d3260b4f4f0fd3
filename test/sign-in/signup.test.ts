// Sign-up at /signup: off by default (404); HUBLET_SIGNUP=open lets anyone make an account by the API's login and email
// rules ("Username", "Email address", "Password", "Create account"), signed in at once and throttled per address;
// HUBLET_SIGNUP=invite only with a single-use, expiring invitation that a site admin makes (POST /admin/invitations,
// `hublet admin invite create` in local and remote mode), stored as its hash only.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/accounts/passwords.js';
import { ok, sandbox, type Sandbox } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-inprocess.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
// The CLI's local mode stamps invitations with the real time: the servers' clocks start there.
let now = Date.now();
const clock = { now: () => new Date(now) };

async function userRow(s: TestServer, login: string) {
  return s.db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst();
}

async function storedHash(s: TestServer, userId: number): Promise<string | undefined> {
  return (await s.db.selectFrom('user_passwords').select('hash').where('user_id', '=', userId).executeTakeFirst())?.hash;
}

/** A visitor on the sign-up form, ready to post it. */
async function onSignupForm(s: TestServer, path = '/signup'): Promise<WebClient> {
  const web = new WebClient(s.url);
  expect((await web.get(path)).status).toBe(200);
  return web;
}

describe('sign-up off (the default)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ clock });
  }, 60_000);
  afterAll(() => s?.close());

  it('GET and POST /signup are 404, and no page offers it', async () => {
    const web = new WebClient(s.url);
    const page = await web.get('/signup');
    expect(page.status).toBe(404);
    const login = await web.get('/login');
    expect(login.text).not.toContain('/signup');
    const post = await web.post('/signup', { login: 'mallory', email: 'm@example.com', password: PASSWORD });
    expect(post.status).toBe(404);
    expect(await userRow(s, 'mallory')).toBeUndefined();
  });
});

describe('HUBLET_SIGNUP=open', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ clock, config: { signup: 'open' } });
    await s.createUser('taken');
  }, 60_000);
  afterAll(() => s?.close());

  it('shows GitHub’s form, linked from the header and the sign-in page', async () => {
    const web = new WebClient(s.url);
    const page = await web.get('/signup');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<label for="field-login">Username</label>');
    expect(page.text).toContain('<label for="field-email">Email address</label>');
    expect(page.text).toContain('<label for="field-password">Password</label>');
    expect(page.text).toMatch(/<form class="form" method="post" action="[^"]*\/signup">/);
    expect(page.text).toContain('>Create account</button>');
    expect(page.text).not.toContain('name="invitation"');
    expect((await web.get('/login')).text).toContain(`href="${s.url}/signup"`);
  });

  it('makes the account with its password and the `user` `created` event, signs the person in, on to /gist/LOGIN', async () => {
    now += HOUR;
    const web = await onSignupForm(s);
    const r = await web.post('/signup', { login: 'Hanna', email: 'hanna@example.com', password: PASSWORD });
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}/gist/Hanna`);
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('hublet_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect((await web.get('/gist/Hanna')).text).toMatch(/Signed in as[\s\S]*Hanna/);

    const user = (await userRow(s, 'Hanna'))!;
    expect(user).toMatchObject({ type: 'User', email: 'hanna@example.com' });
    expect(Boolean(user.site_admin)).toBe(false);
    expect(await verifyPassword(PASSWORD, (await storedHash(s, user.id))!)).toBe(true);
    const events = await s.db.selectFrom('events').selectAll().where('name', '=', 'user').where('action', '=', 'created').execute();
    const mine = events.map((e) => JSON.parse(e.payload)).find((p) => p.user.login === 'Hanna');
    expect(mine.sender.login).toBe('Hanna');
    expect((await s.api('GET', '/users/Hanna')).body).toMatchObject({ login: 'Hanna', type: 'User' });
    expect((await new WebClient(s.url).signIn('hanna@example.com', PASSWORD)).status).toBe(303);
  });

  it('refuses a taken login (any case) next to "Username", and every other problem at once, keeping what was typed', async () => {
    now += HOUR;
    const web = await onSignupForm(s);
    const taken = await web.post('/signup', { login: 'TAKEN', email: 'other@example.com', password: PASSWORD });
    expect(taken.status).toBe(422);
    expect(taken.text).toContain('<p class="field-error" id="field-login-error">Username is already taken</p>');
    expect(taken.text).toContain('value="TAKEN"');
    expect(taken.text).toContain('value="other@example.com"');
    expect(taken.text).not.toContain(PASSWORD);

    const all = await web.post('/signup', { login: '<b>-bad-</b>', email: 'not an address', password: 'short' });
    expect(all.status).toBe(422);
    expect(all.text).toContain('id="field-login-error">Username may only contain alphanumeric characters or single hyphens');
    expect(all.text).toContain('id="field-email-error">Email address is not a valid address</p>');
    expect(all.text).toContain('id="field-password-error">Password is too short (minimum is 15 characters)</p>');
    expect(all.text).toContain('value="&lt;b&gt;-bad-&lt;/b&gt;"');
    expect(all.text).not.toContain('<b>-bad-</b>');

    const reserved = await web.post('/signup', { login: 'settings', email: 's@example.com', password: PASSWORD });
    expect(reserved.status).toBe(422);
    expect(reserved.text).toContain('id="field-login-error">Username &#39;settings&#39; is reserved</p>');
    // Arrays where strings are expected: the last value counts.
    const arrays = await web.post('/signup', { login: ['x', 'taken'], email: ['a@example.com'], password: [PASSWORD] });
    expect(arrays.status).toBe(422);
    expect(arrays.text).toContain('Username is already taken');
    expect(await userRow(s, 'settings')).toBeUndefined();
    expect((await s.db.selectFrom('users').select('login').where('login', '=', 'x').execute()).length).toBe(0);
  });

  it('refuses a form without its authenticity token or from another site, making nothing', async () => {
    now += HOUR;
    const web = await onSignupForm(s);
    const fields = { login: 'forged', email: 'f@example.com', password: PASSWORD };
    expect((await web.post('/signup', { ...fields, authenticity_token: '' })).status).toBe(403);
    expect((await web.post('/signup', fields, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await userRow(s, 'forged')).toBeUndefined();
  });

  it('throttles sign-ups per client address: 10 an hour, made or refused, then again an hour later', async () => {
    now += HOUR;
    const web = await onSignupForm(s);
    for (let i = 0; i < 10; i++) {
      const r = await web.post('/signup', { login: 'taken', email: 'x@example.com', password: PASSWORD });
      expect(r.status).toBe(422);
    }
    const throttled = await web.post('/signup', { login: 'ivan', email: 'ivan@example.com', password: PASSWORD });
    expect(throttled.status).toBe(429);
    expect(throttled.text).toContain('Too many sign-ups from your network. Try again in an hour.');
    expect(throttled.text).toContain('value="ivan"');
    expect(await userRow(s, 'ivan')).toBeUndefined();
    now += HOUR;
    expect((await web.post('/signup', { login: 'ivan', email: 'ivan@example.com', password: PASSWORD })).status).toBe(303);
  }, 120_000); // eleven scrypt hashes (N=2^17): slow on a loaded machine, never timed here
});

describe('HUBLET_SIGNUP=invite', () => {
  let s: TestServer;
  let sb: Sandbox;
  beforeAll(async () => {
    s = await startServer({ clock, config: { signup: 'invite' } });
    sb = sandbox();
    await s.createUser('plain');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    sb?.cleanup();
  });

  async function invite(body: Record<string, unknown> = {}): Promise<{ token: string; invitation_url: string; id: number }> {
    const r = await s.api('POST', '/admin/invitations', { token: s.adminToken, body });
    expect(r.status, r.text).toBe(201);
    return r.body;
  }

  it('without a good invitation, /signup says one is needed (403) and makes nothing', async () => {
    for (const path of [
      '/signup',
      '/signup?invitation=nope',
      `/signup?invitation=${'A'.repeat(43)}`,
      '/signup?invitation=a&invitation=b',
    ]) {
      const page = await new WebClient(s.url).get(path);
      expect(page.status, path).toBe(403);
      expect(page.text).toContain('An invitation is needed');
      expect(page.text).not.toContain('Create account');
    }
    const web = new WebClient(s.url);
    await web.get('/login');
    const post = await web.post('/signup', { login: 'nobody', email: 'n@example.com', password: PASSWORD, invitation: 'A'.repeat(43) });
    expect(post.status).toBe(403);
    expect(await userRow(s, 'nobody')).toBeUndefined();
  });

  it('POST /admin/invitations (site admins only) answers the link once; only its SHA-256 is stored; 7 days by default', async () => {
    const made = await s.api('POST', '/admin/invitations', { token: s.adminToken, body: { note: 'for <Jo>' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ note: 'for <Jo>', inviter: { login: 'admin' } });
    expect(made.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.body.invitation_url).toBe(`${s.url}/signup?invitation=${made.body.token}`);
    expect(Date.parse(made.body.expires_at) - Date.parse(made.body.created_at)).toBe(7 * DAY);
    const row = await s.db.selectFrom('invitations').selectAll().where('id', '=', made.body.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(crypto.hash('sha256', made.body.token, 'hex'));
    expect(JSON.stringify(row)).not.toContain(made.body.token);

    const plainToken = await s.createToken('plain', { scopes: ['site_admin', 'user'] });
    expect((await s.api('POST', '/admin/invitations', { token: plainToken, body: {} })).status).toBe(404);
    expect((await s.api('POST', '/admin/invitations', { body: {} })).status).toBe(401);
    for (const body of [{ expires_in_days: 0 }, { expires_in_days: 366 }, { note: 'x'.repeat(1001) }, { note: 'nul\0' }]) {
      const r = await s.api('POST', '/admin/invitations', { token: s.adminToken, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
    }
    expect((await s.api('POST', '/admin/invitations', { token: s.adminToken, body: { expires_in_days: 'soon' } })).status).toBe(422);
  });

  it('an invitation link shows the form, makes one account and is used up with it; a second use is refused', async () => {
    const { token, invitation_url, id } = await invite();
    const web = await onSignupForm(s, new URL(invitation_url).pathname + new URL(invitation_url).search);
    expect(web.token).not.toBe('');
    const made = await web.post('/signup', { login: 'jo', email: 'jo@example.com', password: PASSWORD, invitation: token });
    expect(made.status).toBe(303);
    expect(made.location).toBe(`${s.url}/gist/jo`);
    const jo = (await userRow(s, 'jo'))!;
    const row = await s.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.used_by).toBe(jo.id);
    expect(row.used_at).not.toBeNull();

    expect((await new WebClient(s.url).get(`/signup?invitation=${token}`)).status).toBe(403);
    const again = new WebClient(s.url);
    await again.get('/login');
    const second = await again.post('/signup', { login: 'jo2', email: 'jo2@example.com', password: PASSWORD, invitation: token });
    expect(second.status).toBe(403);
    expect(await userRow(s, 'jo2')).toBeUndefined();
  });

  it('a refused form keeps the invitation unused and carries it along; two sign-ups at once make one account', async () => {
    const { token, id } = await invite();
    const web = await onSignupForm(s, `/signup?invitation=${token}`);
    const refused = await web.post('/signup', { login: 'plain', email: 'k@example.com', password: PASSWORD, invitation: token });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(`<input type="hidden" name="invitation" value="${token}">`);
    expect((await s.db.selectFrom('invitations').select('used_at').where('id', '=', id).executeTakeFirstOrThrow()).used_at).toBeNull();

    const racers = await Promise.all(
      ['kim', 'lee'].map(async (login) => {
        const racer = await onSignupForm(s, `/signup?invitation=${token}`);
        return racer.post('/signup', { login, email: `${login}@example.com`, password: PASSWORD, invitation: token });
      }),
    );
    expect(racers.map((r) => r.status).sort()).toEqual([303, 403]);
    const made = (await Promise.all(['kim', 'lee'].map((l) => userRow(s, l)))).filter(Boolean);
    expect(made).toHaveLength(1);
    const row = await s.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.used_by).toBe(made[0]!.id);
  });

  it('an expired invitation is refused', async () => {
    const { token } = await invite({ expires_in_days: 1 });
    const web = await onSignupForm(s, `/signup?invitation=${token}`);
    now += DAY + 1000;
    const r = await web.post('/signup', { login: 'late', email: 'late@example.com', password: PASSWORD, invitation: token });
    expect(r.status).toBe(403);
    expect(r.text).toContain('An invitation is needed');
    expect(await userRow(s, 'late')).toBeUndefined();
    now -= DAY + 1000;
  });

  it('hublet admin invite create prints the link, in local mode beside the server and in remote mode; --json the record', async () => {
    const env = { ...sb.env, HUBLET_BASE_URL: s.url };
    const local = ok(
      await runInProcess(['--data', s.dataDir, '--database', s.databaseUrl, 'admin', 'invite', 'create', '--note', 'for Max'], { env }),
    );
    const link = local.stdout.trim();
    expect(link).toMatch(new RegExp(`^${s.url.replace(/[.]/g, '\\.')}/signup\\?invitation=[A-Za-z0-9_-]{43}$`));
    const row = await s.db.selectFrom('invitations').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.note).toBe('for Max');
    expect(row.token_hash).toBe(crypto.hash('sha256', new URL(link).searchParams.get('invitation')!, 'hex'));
    const web = await onSignupForm(s, new URL(link).pathname + new URL(link).search);
    const made = await web.post('/signup', {
      login: 'max',
      email: 'max@example.com',
      password: PASSWORD,
      invitation: new URL(link).searchParams.get('invitation')!,
    });
    expect(made.status).toBe(303);

    const remote = ok(
      await runInProcess(['--server', s.url, '--token', s.adminToken, '--json', 'admin', 'invite', 'create', '--expires-in', '2'], {
        env: sb.env,
      }),
    );
    const record = JSON.parse(remote.stdout);
    expect(record.invitation_url).toBe(`${s.url}/signup?invitation=${record.token}`);
    expect(Date.parse(record.expires_at) - Date.parse(record.created_at)).toBe(2 * DAY);
    expect((await new WebClient(s.url).get(new URL(record.invitation_url).pathname + new URL(record.invitation_url).search)).status).toBe(
      200,
    );

    const refused = await runInProcess(['--server', s.url, '--token', s.adminToken, 'admin', 'invite', 'create', '--expires-in', '0'], {
      env: sb.env,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
  });
});
