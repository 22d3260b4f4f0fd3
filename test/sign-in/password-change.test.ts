// Changing one's own password at /settings/security, as GitHub's page has it ("Old password", "New password", "Confirm
// new password", "Update password"): the old password checked and throttled, the new one by NIST's rules, every problem
// next to its field, every other session ended and this one kept; a user without a password sets a first one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/accounts/sessions.js';
import { verifyPassword } from '../../src/accounts/passwords.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
const NEW_PASSWORD = 'a whole new passphrase for erin';
let now = Date.parse('2026-11-28T10:00:00.000Z');
const clock = { now: () => new Date(now) };
let s: TestServer;

beforeAll(async () => {
  s = await startServer({ clock });
}, 60_000);
afterAll(() => s?.close());

async function storedHash(login: string): Promise<string | undefined> {
  const row = await s.db
    .selectFrom('user_passwords')
    .innerJoin('users', 'users.id', 'user_passwords.user_id')
    .select('user_passwords.hash')
    .where('users.login', '=', login)
    .executeTakeFirst();
  return row?.hash;
}

async function signedIn(login: string, password = PASSWORD): Promise<WebClient> {
  const web = new WebClient(s.url);
  expect((await web.signIn(login, password)).status).toBe(303);
  return web;
}

async function isSignedIn(web: WebClient): Promise<boolean> {
  return (await web.get('/settings/security')).status === 200;
}

describe('GET /settings/security', () => {
  it('sends a visitor to sign in first; shows the signed-in person GitHub’s form', async () => {
    const visitor = await new WebClient(s.url).get('/settings/security');
    expect(visitor.status).toBe(303);
    expect(visitor.location).toBe(`${s.url}/login?return_to=${encodeURIComponent('/settings/security')}`);

    await s.createUser('dana', { password: PASSWORD });
    const page = await (await signedIn('dana')).get('/settings/security');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.text).toContain('<label for="field-old_password">Old password</label>');
    expect(page.text).toContain('<label for="field-password">New password</label>');
    expect(page.text).toContain('<label for="field-password_confirmation">Confirm new password</label>');
    expect(page.text).toMatch(/<form class="form" method="post" action="[^"]*\/settings\/security">/);
    expect(page.text).toContain('>Update password</button>');
  });
});

describe('POST /settings/security', () => {
  it('shows every problem next to its field, never echoes a password, and changes nothing', async () => {
    await s.createUser('erin', { password: PASSWORD });
    const web = await signedIn('erin');
    const before = await storedHash('erin');
    await web.get('/settings/security');
    const refused = await web.post('/settings/security', {
      old_password: 'not my old password at all',
      password: 'short',
      password_confirmation: 'shorter',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('<p class="field-error" id="field-old_password-error">Old password isn’t valid</p>');
    expect(refused.text).toContain('<p class="field-error" id="field-password-error">Password is too short (minimum is 15 characters)</p>');
    expect(refused.text).toContain(
      '<p class="field-error" id="field-password_confirmation-error">Password confirmation doesn’t match the password</p>',
    );
    for (const secret of ['not my old password at all', 'short"', 'shorter']) expect(refused.text).not.toContain(secret);

    // The right old password, but the login as the new one, or mismatched fields: still refused.
    const sameAsLogin = await web.post('/settings/security', { old_password: PASSWORD, password: 'erin', password_confirmation: 'erin' });
    expect(sameAsLogin.status).toBe(422);
    expect(sameAsLogin.text).not.toContain('field-old_password-error');
    const hostile = await web.post('/settings/security', {
      old_password: [PASSWORD, '<b>x</b>'],
      password: '<script>alert(1)</script> long enough',
      password_confirmation: 'other',
    });
    expect(hostile.status).toBe(422);
    expect(hostile.text).not.toContain('<script>alert(1)');
    expect(hostile.text).not.toContain('<b>x</b>');
    expect(await storedHash('erin')).toBe(before);
  });

  it('changes it: every other session of the user ends, this one stays; the old password no longer signs in', async () => {
    const here = await signedIn('erin');
    const elsewhere = await signedIn('erin');
    const otherUser = await signedIn('dana');
    await here.get('/settings/security');
    const changed = await here.post('/settings/security', {
      old_password: PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('Password changed successfully.');
    expect(changed.text).not.toContain(NEW_PASSWORD);
    expect(await verifyPassword(NEW_PASSWORD, (await storedHash('erin'))!)).toBe(true);

    expect(await isSignedIn(here)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(false);
    expect(await isSignedIn(otherUser)).toBe(true);
    const erinId = (await s.db.selectFrom('users').select('id').where('login', '=', 'erin').executeTakeFirstOrThrow()).id;
    expect(await s.db.selectFrom('web_sessions').select('id').where('user_id', '=', erinId).execute()).toHaveLength(1);

    const old = new WebClient(s.url);
    expect((await old.signIn('erin', PASSWORD)).status).toBe(401);
    expect((await old.signIn('erin', NEW_PASSWORD)).status).toBe(303);
  });

  it('throttles wrong old passwords per account (10 in 15 minutes), then lets the right one through again', async () => {
    await s.createUser('fred', { password: PASSWORD });
    const web = await signedIn('fred');
    await web.get('/settings/security');
    for (let i = 0; i < 10; i++) {
      const r = await web.post('/settings/security', {
        old_password: `wrong ${i}`,
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      });
      expect(r.status).toBe(422);
    }
    const throttled = await web.post('/settings/security', {
      old_password: PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(throttled.status).toBe(429);
    expect(throttled.text).toContain('Too many wrong passwords. Wait a few minutes, then try again.');
    expect(await verifyPassword(PASSWORD, (await storedHash('fred'))!)).toBe(true);
    // Another session of the same account is throttled too (the count is the account's).
    const other = await signedIn('fred');
    await other.get('/settings/security');
    expect(
      (await other.post('/settings/security', { old_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD }))
        .status,
    ).toBe(429);

    now += 16 * 60 * 1000;
    const later = await web.post('/settings/security', {
      old_password: PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(later.status).toBe(200);
    expect(await verifyPassword(NEW_PASSWORD, (await storedHash('fred'))!)).toBe(true);
  }, 120_000); // a dozen scrypt hashes (N=2^17): slow on a loaded machine, never timed here

  it('a user without a password (single sign-on) sets a first one without an old one; then the old one is asked for', async () => {
    const gina = await s.createUser('gina');
    const web = new WebClient(s.url);
    web.cookies.set('hublet_session', await startSession(s.db, gina.id, 'oidc', clock.now()));
    const page = await web.get('/settings/security');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Old password');
    expect(page.text).toContain('You have no password yet');
    const set = await web.post('/settings/security', { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(set.status).toBe(200);
    expect(set.text).toContain('Password changed successfully.');
    expect(set.text).toContain('<label for="field-old_password">Old password</label>');
    expect((await new WebClient(s.url).signIn('gina', NEW_PASSWORD)).status).toBe(303);
    // Now that there is one, a change without it is refused.
    const without = await web.post('/settings/security', { password: PASSWORD, password_confirmation: PASSWORD });
    expect(without.status).toBe(422);
    expect(without.text).toContain('Old password isn’t valid');
  });

  it('refuses a forged or cross-site form, and a visitor, without changing anything', async () => {
    const web = await signedIn('dana');
    const before = await storedHash('dana');
    await web.get('/settings/security');
    const fields = { old_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    expect((await web.post('/settings/security', { ...fields, authenticity_token: 'forged' })).status).toBe(403);
    expect((await web.post('/settings/security', fields, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const visitor = new WebClient(s.url);
    await visitor.get('/login');
    const anonymous = await visitor.post('/settings/security', fields);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe(`${s.url}/login?return_to=${encodeURIComponent('/settings/security')}`);
    expect(await storedHash('dana')).toBe(before);
  });
});
