// Access tokens over HTTP: how they are sent, their kinds and prefixes, hashed storage, expiry, revocation, scope headers.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** The server's clock, moved forward by tests that need a token to expire. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

let s: TestServer;
let alice: { login: string; id: number; token: string };
beforeAll(async () => {
  s = await startServer({ clock });
  alice = await s.userWithToken('alice', ['gist', 'read:org']);
});
afterAll(async () => s?.close());

const badCredentials = { message: 'Bad credentials', documentation_url: expect.any(String), status: '401' };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('sending a token', () => {
  it.each([
    ['Bearer', () => `Bearer ${alice.token}`],
    ['bearer (any case)', () => `bearer ${alice.token}`],
    ['token', () => `token ${alice.token}`],
    ['Basic, the token as password (git style)', () => basic('alice', alice.token)],
    ['Basic, x-access-token as user', () => basic('x-access-token', alice.token)],
    ['Basic, the token as user with an empty password', () => basic(alice.token, '')],
  ])('accepts %s', async (_name, header) => {
    const r = await s.api('GET', '/user', { headers: { authorization: header() } });
    expect(r.status).toBe(200);
    expect(r.body.login).toBe('alice');
  });

  it('works with Octokit', async () => {
    const { data } = await s.octokit(alice.token).users.getAuthenticated();
    expect(data.login).toBe('alice');
  });

  it('refuses an unknown token with 401 Bad credentials, in every transport and even on public routes', async () => {
    const unknown = `hlp_${'x'.repeat(36)}`;
    for (const authorization of [`Bearer ${unknown}`, `token ${unknown}`, basic('alice', unknown), basic('alice', `${alice.token}x`)]) {
      for (const p of ['/user', '/users/admin']) {
        const r = await s.api('GET', p, { headers: { authorization } });
        expect(r.status, `${authorization} ${p}`).toBe(401);
        expect(r.body).toEqual(badCredentials);
      }
    }
  });

  it('refuses an Authorization header with no usable credential with 401 Bad credentials, never serving it anonymously', async () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    for (const authorization of [
      'Basic !!!!', // not base64
      'Basic ====',
      `Basic ${b64(':')}`, // neither user name nor password
      'Basic',
      'Digest username="alice"', // a scheme hublet does not take
      'Negotiate abc',
      ' ',
    ]) {
      // Public routes too: an anonymous caller would get 200 from each of them.
      for (const p of ['/users/admin', '/gists/public', '/user']) {
        const r = await s.api('GET', p, { headers: { authorization } });
        expect(r.status, `${JSON.stringify(authorization)} ${p}`).toBe(401);
        expect(r.body).toEqual(badCredentials);
      }
    }
    expect((await s.api('GET', '/users/admin')).status).toBe(200);
    // The same header with a real credential in it is accepted.
    expect((await s.api('GET', '/user', { headers: { authorization: `Basic ${b64(`:${alice.token}`)}` } })).status).toBe(200);
  });

  it('answers a route that needs a user with 401 Requires authentication when no token is sent', async () => {
    const r = await s.api('GET', '/user');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ message: 'Requires authentication', documentation_url: expect.any(String), status: '401' });
  });
});

describe('token kinds', () => {
  const kinds = [
    { kind: 'classic', prefix: 'hlp_', body: { scopes: ['gist'] } },
    { kind: 'fine_grained', prefix: 'hublet_pat_', body: { permissions: { gists: 'write' } } },
    { kind: 'oauth', prefix: 'hlo_', body: { scopes: ['gist'], app_id: 42 } },
    { kind: 'app_user', prefix: 'hlu_', body: {} },
    { kind: 'installation', prefix: 'hls_', body: {} },
  ];

  it.each(kinds)('issues $kind tokens as $prefix… and accepts them', async ({ kind, prefix, body }) => {
    const r = await s.api('POST', '/admin/users/alice/authorizations', { token: s.adminToken, body: { kind, ...body } });
    expect(r.status).toBe(201);
    expect(r.body.kind).toBe(kind);
    expect(r.body.token.startsWith(prefix)).toBe(true);
    expect(r.body.token.slice(prefix.length)).toMatch(/^[A-Za-z0-9]{36}$/);
    expect(r.body.token_last_eight).toBe(r.body.token.slice(-8));
    const me = await s.api('GET', '/user', { token: r.body.token });
    if (kind === 'installation') {
      // Accepted (not 401), but an installation acts as its app: GitHub has no signed-in user for it.
      expect(me.status).toBe(403);
      expect(me.body.message).toBe('Resource not accessible by integration');
    } else {
      expect(me.status).toBe(200);
      expect(me.body.login).toBe('alice');
    }
    expect((await s.api('GET', '/users/alice', { token: r.body.token })).status).toBe(200);
  });

  it('gives every token a different secret', async () => {
    const a = await s.createToken('alice', { scopes: ['gist'] });
    const b = await s.createToken('alice', { scopes: ['gist'] });
    expect(a).not.toBe(b);
  });
});

describe('storage', () => {
  it('stores only the SHA-256 hash of a token: the token itself is nowhere in the database', async () => {
    const r = await s.api('POST', '/admin/users/alice/authorizations', {
      token: s.adminToken,
      body: { scopes: ['gist'], note: 'storage check' },
    });
    expect(r.status).toBe(201);
    const token: string = r.body.token;
    const hash = crypto.createHash('sha256').update(token).digest('hex');
    expect(r.body.hashed_token).toBe(hash);

    const row = await s.db.selectFrom('tokens').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hash);
    const rows = await s.db.selectFrom('tokens').selectAll().execute();
    expect(rows.length).toBeGreaterThan(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token.slice(4, 30));

    if (!onPostgres) {
      // Every byte SQLite wrote: the main file, the write-ahead log and its index.
      const files = fs.readdirSync(s.dataDir).filter((f) => f.startsWith('hublet.sqlite'));
      expect(files).toContain('hublet.sqlite');
      const bytes = Buffer.concat(files.map((f) => fs.readFileSync(path.join(s.dataDir, f))));
      expect(bytes.includes(Buffer.from(hash))).toBe(true); // the search does find what is stored…
      expect(bytes.includes(Buffer.from(token))).toBe(false); // …and the token is not
      expect(bytes.includes(Buffer.from(token.slice(4, 30)))).toBe(false);
    }
  });
});

describe('expiry', () => {
  it('accepts a token until it expires, then answers 401 Bad credentials', async () => {
    const expiresAt = new Date(clock.now().getTime() + 3_600_000).toISOString();
    const r = await s.api('POST', '/admin/users/alice/authorizations', {
      token: s.adminToken,
      body: { scopes: ['gist'], expires_at: expiresAt },
    });
    expect(r.status).toBe(201);
    expect(r.body.expires_at).toBe(expiresAt.replace(/\.\d{3}Z$/, 'Z'));
    const token: string = r.body.token;
    expect((await s.api('GET', '/user', { token })).status).toBe(200);
    offsetMs += 2 * 3_600_000;
    try {
      const late = await s.api('GET', '/user', { token });
      expect(late.status).toBe(401);
      expect(late.body).toEqual(badCredentials);
      // A token without an expiry still works.
      expect((await s.api('GET', '/user', { token: alice.token })).status).toBe(200);
    } finally {
      offsetMs = 0;
    }
  });

  it('refuses to issue a token that is already expired, or with an unreadable expiry', async () => {
    for (const expires_at of [
      new Date(Date.now() - 60_000).toISOString(),
      'next tuesday',
      '2030-02-30',
      '2030-02-28T24:00:00Z',
      '2030-13-01',
      '99999-01-01',
    ]) {
      const r = await s.api('POST', '/admin/users/alice/authorizations', { token: s.adminToken, body: { scopes: ['gist'], expires_at } });
      expect(r.status, expires_at).toBe(422);
      expect(r.body.errors).toEqual([expect.objectContaining({ resource: 'OauthAccess', field: 'expires_at', code: 'invalid' })]);
    }
  });
});

describe('revocation', () => {
  it('DELETE /admin/users/{username}/authorizations revokes every token of that user, and only theirs', async () => {
    const bob = await s.userWithToken('bob', ['gist']);
    const second = await s.createToken('bob', { kind: 'fine_grained', permissions: { gists: 'read' } });
    const third = await s.createToken('bob', { kind: 'installation' });
    for (const t of [bob.token, second, third]) expect((await s.api('GET', '/users/bob', { token: t })).status).toBe(200);

    const del = await s.api('DELETE', '/admin/users/bob/authorizations', { token: s.adminToken });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    for (const t of [bob.token, second, third]) {
      const r = await s.api('GET', '/users/bob', { token: t });
      expect(r.status).toBe(401);
      expect(r.body).toEqual(badCredentials);
    }
    expect((await s.api('GET', '/user', { token: alice.token })).status).toBe(200);
    // A token issued afterwards works.
    const fresh = await s.createToken('bob', { scopes: [] });
    expect((await s.api('GET', '/user', { token: fresh })).body.login).toBe('bob');
  });
});

describe('scope headers', () => {
  it('names the scopes of a classic token and the scopes a route accepts, as GitHub does', async () => {
    const me = await s.api('GET', '/user', { token: alice.token });
    expect(me.headers.get('x-oauth-scopes')).toBe('gist, read:org');
    expect(me.headers.get('x-accepted-oauth-scopes')).toBe('');

    await s.createOrg('acme', 'alice');
    const m = await s.api('GET', '/orgs/acme/memberships/alice', { token: alice.token });
    expect(m.status).toBe(200);
    expect(m.headers.get('x-oauth-scopes')).toBe('gist, read:org');
    expect(m.headers.get('x-accepted-oauth-scopes')).toBe('read:org, admin:org');

    // Also on a refusal, so a client can see what was missing.
    const put = await s.api('PUT', '/orgs/acme/memberships/alice', { token: alice.token, body: { role: 'admin' } });
    expect(put.status).toBe(403);
    expect(put.headers.get('x-oauth-scopes')).toBe('gist, read:org');
    expect(put.headers.get('x-accepted-oauth-scopes')).toBe('admin:org');
  });

  it('sends the same headers for OAuth app tokens, an empty list for a token without scopes', async () => {
    const oauth = await s.createToken('alice', { kind: 'oauth', app_id: 7, scopes: ['read:org', 'user'] });
    const r = await s.api('GET', '/orgs/acme/memberships/alice', { token: oauth });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-oauth-scopes')).toBe('read:org, user');
    expect(r.headers.get('x-accepted-oauth-scopes')).toBe('read:org, admin:org');
    const none = await s.createToken('alice', { scopes: [] });
    const n = await s.api('GET', '/user', { token: none });
    expect(n.headers.get('x-oauth-scopes')).toBe('');
  });

  it('sends no OAuth scope headers for fine-grained tokens or anonymous calls; names the accepted permission instead', async () => {
    const fine = await s.createToken('alice', { kind: 'fine_grained', permissions: { members: 'read' } });
    const r = await s.api('GET', '/orgs/acme/memberships/alice', { token: fine });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-oauth-scopes')).toBeNull();
    expect(r.headers.get('x-accepted-oauth-scopes')).toBeNull();
    expect(r.headers.get('x-accepted-service-permissions')).toBe('members=read');
    const anon = await s.api('GET', '/users/alice');
    expect(anon.headers.get('x-oauth-scopes')).toBeNull();
  });
});
