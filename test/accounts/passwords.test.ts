// Passwords: scrypt hashes (OWASP's parameters) kept apart from users and checked in constant time, NIST's rules for a
// new one (minimum length, not a common password, not the login), and setting one as a site admin: over the API
// (PUT /admin/users/{username}/password, POST /admin/users with `password`) and from the CLI with --password-stdin, in
// local mode beside a running server and in remote mode.
import { dictionary } from '@zxcvbn-ts/language-common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, MIN_PASSWORD_LENGTH, passwordProblem, verifyPassword } from '../../src/accounts/passwords.js';
import { ok } from '../helpers/cli.js';
import { startInProcessCliServer, type InProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';

const GOOD = 'correct horse battery staple';
/** A password from the common list long enough to pass the length rule (so only the list refuses it). */
const COMMON = dictionary['passwords-common'].find((p) => p.length >= MIN_PASSWORD_LENGTH)!;

let cli: InProcessCliServer;
let s: TestServer;
beforeAll(async () => {
  cli = await startInProcessCliServer();
  s = cli.server;
  await s.createUser('alice');
});
afterAll(async () => cli?.close());

async function storedHash(login: string): Promise<string | undefined> {
  const row = await s.db
    .selectFrom('user_passwords')
    .innerJoin('users', 'users.id', 'user_passwords.user_id')
    .select('user_passwords.hash')
    .where('users.login', '=', login)
    .executeTakeFirst();
  return row?.hash;
}

describe('hashing', () => {
  it('stores scrypt with its parameters and a salt of its own; verifies the right password only', async () => {
    const [a, b] = await Promise.all([hashPassword(GOOD, 17), hashPassword(GOOD, 17)]);
    expect(a).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('horse');
    expect(await verifyPassword(GOOD, a)).toBe(true);
    expect(await verifyPassword(GOOD, b)).toBe(true);
    expect(await verifyPassword(`${GOOD}!`, a)).toBe(false);
    expect(await verifyPassword(GOOD.toUpperCase(), a)).toBe(false);
    // The same text in another Unicode form (NFKC) is the same password.
    const composed = await hashPassword('café au lait, sans sucre', 17);
    expect(await verifyPassword('cafe\u0301 au lait, sans sucre', composed)).toBe(true);
    for (const broken of ['', 'plain', a.replace('ln=17', 'ln=99'), `${a}x`.replace(/\$[^$]*$/, '$AAAA')])
      expect(await verifyPassword(GOOD, broken)).toBe(false);
  });

  it('refuses what NIST SP 800-63B refuses: too short, too long, common, the login; nothing else', async () => {
    expect(COMMON).toBeDefined();
    expect(await passwordProblem('x'.repeat(MIN_PASSWORD_LENGTH - 1), 'alice')).toMatch(/too short \(minimum is 15 characters\)/);
    expect(await passwordProblem('x'.repeat(257), 'alice')).toMatch(/too long/);
    expect(await passwordProblem(COMMON, 'alice')).toMatch(/commonly used/);
    expect(await passwordProblem(COMMON.toUpperCase(), 'alice')).toMatch(/commonly used/);
    expect(await passwordProblem('Alice-In-Wonderland', 'alice-in-wonderland')).toMatch(/commonly used/);
    // No composition rules: lower case letters and spaces alone are fine once long enough.
    expect(await passwordProblem(GOOD, 'alice')).toBeNull();
    expect(await passwordProblem('x'.repeat(MIN_PASSWORD_LENGTH), 'alice')).toBeNull();
  });
});

describe('PUT /admin/users/{username}/password and POST /admin/users with a password', () => {
  it('a site admin sets it (204): only its scrypt hash is kept, and the answer never carries it', async () => {
    const r = await s.api('PUT', '/admin/users/alice/password', { token: s.adminToken, body: { password: GOOD } });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const hash = (await storedHash('alice'))!;
    expect(hash).toMatch(/^\$scrypt\$/);
    expect(await verifyPassword(GOOD, hash)).toBe(true);
    const user = await s.api('GET', '/users/alice', { token: s.adminToken });
    expect(JSON.stringify(user.body)).not.toMatch(/scrypt|password/);
  });

  it('refuses a weak password with GitHub 422s and keeps the old one; anyone but a site admin gets 404', async () => {
    const before = await storedHash('alice');
    for (const [password, message] of [
      ['short', 'Password is too short (minimum is 15 characters)'],
      [COMMON, 'Password is in a list of passwords commonly used on other websites'],
    ]) {
      const r = await s.api('PUT', '/admin/users/alice/password', { token: s.adminToken, body: { password } });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual([{ resource: 'User', field: 'password', code: 'invalid', message }]);
    }
    expect((await s.api('PUT', '/admin/users/alice/password', { token: s.adminToken, body: { password: 5 } })).status).toBe(422);
    const bob = await s.userWithToken('bob', ['site_admin', 'user']);
    expect((await s.api('PUT', '/admin/users/alice/password', { token: bob.token, body: { password: GOOD } })).status).toBe(404);
    expect((await s.api('PUT', '/admin/users/alice/password', { body: { password: GOOD } })).status).toBe(401);
    expect((await s.api('PUT', '/admin/users/nobody/password', { token: s.adminToken, body: { password: GOOD } })).status).toBe(404);
    expect(await storedHash('alice')).toBe(before);
  });

  it('POST /admin/users with a password makes the user and its hash together; a refused password makes nothing', async () => {
    const made = await s.api('POST', '/admin/users', { token: s.adminToken, body: { login: 'carol', password: GOOD } });
    expect(made.status).toBe(201);
    expect(JSON.stringify(made.body)).not.toContain('horse');
    expect(await verifyPassword(GOOD, (await storedHash('carol'))!)).toBe(true);
    const refused = await s.api('POST', '/admin/users', { token: s.adminToken, body: { login: 'dora', password: 'dora' } });
    expect(refused.status).toBe(422);
    expect((await s.api('GET', '/users/dora')).status).toBe(404);
  });
});

describe('hublet admin user … --password-stdin', () => {
  it('create and set-password read the first line of stdin, in local mode beside the server and in remote mode', async () => {
    ok(await cli.local(['admin', 'user', 'create', 'erin', '--password-stdin'], { stdin: `${GOOD}\nignored\n` }));
    expect(await verifyPassword(GOOD, (await storedHash('erin'))!)).toBe(true);
    const changed = await cli.local(['admin', 'user', 'set-password', 'erin', '--password-stdin'], { stdin: 'a brand new passphrase\r\n' });
    expect(ok(changed).stdout).toBe('set the password of erin\n');
    expect(await verifyPassword('a brand new passphrase', (await storedHash('erin'))!)).toBe(true);
    const remote = await cli.remote(s.adminToken, ['admin', 'user', 'set-password', 'erin', '--password-stdin'], { stdin: `${GOOD}\n` });
    expect(ok(remote).stdout).toBe('set the password of erin\n');
    expect(await verifyPassword(GOOD, (await storedHash('erin'))!)).toBe(true);
  });

  it('refuses an empty stdin (exit 2), a weak password (exit 1, the API message), and set-password without the flag', async () => {
    const empty = await cli.local(['admin', 'user', 'set-password', 'erin', '--password-stdin'], { stdin: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--password-stdin: standard input held no password');
    const weak = await cli.local(['admin', 'user', 'set-password', 'erin', '--password-stdin'], { stdin: 'short\n' });
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('Password is too short');
    const noFlag = await cli.local(['admin', 'user', 'set-password', 'erin'], { stdin: `${GOOD}\n` });
    expect(noFlag.code).toBe(2);
    expect(`${noFlag.stdout}${noFlag.stderr}`).not.toContain(GOOD);
    expect(await verifyPassword(GOOD, (await storedHash('erin'))!)).toBe(true);
  });
});
