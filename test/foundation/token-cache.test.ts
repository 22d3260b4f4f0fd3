// The token lookup's cache never outlives a committed change: this server's own, or another process's on the same database.
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import { countRouted } from '../helpers/routed-count.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2026-11-22T10:00:00.000Z')) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

describe('token lookups through the cache', () => {
  it('a token revoked through the API is refused by the very next request', async () => {
    s = await startServer();
    const { token } = await s.userWithToken('rita', ['gist']);
    for (let i = 0; i < 3; i++) expect((await s.api('GET', '/user', { token })).status).toBe(200);
    expect((await s.api('DELETE', '/admin/users/rita/authorizations', { token: s.adminToken })).status).toBe(204);
    const refused = await s.api('GET', '/user', { token });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Bad credentials');
  });

  it('a user deleted through the API takes their tokens along at once', async () => {
    s = await startServer();
    const { token } = await s.userWithToken('dora', ['gist']);
    expect((await s.api('GET', '/user', { token })).body.login).toBe('dora');
    expect((await s.api('DELETE', '/admin/users/dora', { token: s.adminToken })).status).toBe(204);
    expect((await s.api('GET', '/user', { token })).status).toBe(401);
  });

  it('a change this server writes to the user is in the next response', async () => {
    s = await startServer();
    const { token, id } = await s.userWithToken('sam', ['gist']);
    expect((await s.api('GET', '/user', { token })).body.site_admin).toBe(false);
    await s.db.updateTable('users').set({ site_admin: 1 }).where('id', '=', id).execute();
    expect((await s.api('GET', '/user', { token })).body.site_admin).toBe(true);
  });

  it('a revocation or suspension written by another process is seen by the very next request', async () => {
    s = await startServer();
    const { token, id } = await s.userWithToken('otto', ['gist']);
    expect((await s.api('GET', '/user', { token })).status).toBe(200);

    // Another process on the same database (a second connection: its writes are not this server's).
    const other = connect(s.databaseUrl);
    try {
      await other.updateTable('tokens').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', id).execute();
      expect((await s.api('GET', '/user', { token })).status).toBe(401);
      const second = await s.createToken('otto', { scopes: ['gist'] });
      for (let i = 0; i < 3; i++) expect((await s.api('GET', '/user', { token: second })).status).toBe(200);
      await other.updateTable('users').set({ suspended_at: new Date().toISOString() }).where('id', '=', id).execute();
      expect((await s.api('GET', '/user', { token: second })).status).toBe(403);
    } finally {
      await other.destroy();
    }
  });

  it('a cached read (the fast path) refuses at once a user another process suspended, or a token it revoked', async () => {
    s = await startServer();
    const { token, id } = await s.userWithToken('fay', ['gist']);
    const gist = await s.api('POST', '/gists', { token, body: { public: true, files: { 'a.txt': { content: 'a' } } } });
    const path = `/gists/${gist.body.id}`;
    // Read until the answer and the token are both cached: then the fast path answers, before any route.
    for (let i = 0; i < 2; i++) expect((await s.api('GET', path, { token })).status).toBe(200);
    const routed = countRouted(s);
    for (let i = 0; i < 3; i++) expect((await s.api('GET', path, { token })).status).toBe(200);
    expect(routed()).toBe(0);
    const other = connect(s.databaseUrl);
    try {
      await other.updateTable('users').set({ suspended_at: new Date().toISOString() }).where('id', '=', id).execute();
      expect((await s.api('GET', path, { token })).status).toBe(403);
      await other.updateTable('users').set({ suspended_at: null }).where('id', '=', id).execute();
      for (let i = 0; i < 3; i++) expect((await s.api('GET', path, { token })).status).toBe(200);
      // One route answer builds the entry again at the new stamp; the token, judged by the same stamp, lets the next
      // reads be fast-path answers again.
      expect(routed()).toBe(1);
      await other.updateTable('tokens').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', id).execute();
      const refused = await s.api('GET', path, { token });
      expect(refused.status).toBe(401);
      expect(refused.body.message).toBe('Bad credentials');
    } finally {
      await other.destroy();
    }
  });

  it('an expired token is refused even while its lookup is cached', async () => {
    const clock = manualClock();
    s = await startServer({ clock });
    await s.createUser('exa');
    const token = await s.createToken('exa', { scopes: ['gist'], expires_at: new Date(clock.now().getTime() + 500).toISOString() });
    expect((await s.api('GET', '/user', { token })).status).toBe(200);
    clock.advance(600);
    expect((await s.api('GET', '/user', { token })).status).toBe(401);
  });
});
