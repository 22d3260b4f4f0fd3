// Invariants that span rows, raced over HTTP: an organization keeps an owner, hooks stay within their per-event limit,
// logins stay unique (422, never 500), servers starting together make one admin, whatever order concurrent requests land in (PostgreSQL runs them truly at once).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdminToken } from '../../src/accounts/site-admin.js';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ config: { hookLimitPerEvent: 3 } });
});
afterAll(async () => s?.close());

const ROUNDS = 6;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Two owners of a fresh organization `${prefix}${i}`, each with an admin:org token. */
async function ownerPairs(
  prefix: string,
): Promise<{ org: string; a: { login: string; token: string }; b: { login: string; token: string } }[]> {
  const pairs = [];
  for (const i of range(ROUNDS)) {
    const a = await s.userWithToken(`${prefix}a${i}`, ['admin:org']);
    const b = await s.userWithToken(`${prefix}b${i}`, ['admin:org']);
    const org = `${prefix}org${i}`;
    await s.createOrg(org, a.login);
    await s.addMember(org, b.login, 'admin');
    pairs.push({ org, a, b });
  }
  return pairs;
}

/** The role each of these users holds in `org`, as they see it themselves (GET of their own membership). */
async function roles(org: string, users: { login: string; token: string }[]): Promise<(string | undefined)[]> {
  return Promise.all(
    users.map(async (u) => {
      const r = await s.api('GET', `/orgs/${org}/memberships/${u.login}`, { token: u.token });
      return r.status === 200 ? (r.body.role as string) : undefined;
    }),
  );
}

describe('the last owner, under concurrent requests', () => {
  it('survives two owners demoting each other at the same moment (one 200, one refusal)', async () => {
    const pairs = await ownerPairs('dm');
    const results = await Promise.all(
      pairs.map(({ org, a, b }) =>
        Promise.all([
          s.api('PUT', `/orgs/${org}/memberships/${b.login}`, { token: a.token, body: { role: 'member' } }),
          s.api('PUT', `/orgs/${org}/memberships/${a.login}`, { token: b.token, body: { role: 'member' } }),
        ]),
      ),
    );
    for (const [i, { org, a, b }] of pairs.entries()) {
      const statuses = results[i].map((r) => r.status).sort();
      // The loser is either refused as the last owner (422) or, once demoted, no longer allowed to manage (403).
      expect([
        [200, 403],
        [200, 422],
      ]).toContainEqual(statuses);
      const now = await roles(org, [a, b]);
      expect(
        now.filter((role) => role === 'admin'),
        `${org}: ${now.join(', ')}`,
      ).toHaveLength(1);
    }
  });

  it('survives two owners removing each other at the same moment (one 204, one refusal)', async () => {
    const pairs = await ownerPairs('rm');
    const results = await Promise.all(
      pairs.map(({ org, a, b }) =>
        Promise.all([
          s.api('DELETE', `/orgs/${org}/memberships/${b.login}`, { token: a.token }),
          s.api('DELETE', `/orgs/${org}/memberships/${a.login}`, { token: b.token }),
        ]),
      ),
    );
    for (const [i, { org, a, b }] of pairs.entries()) {
      const statuses = results[i].map((r) => r.status).sort();
      // The loser is refused as the last owner (422) or, once removed, finds the organization hidden from it (404).
      expect([
        [204, 404],
        [204, 422],
      ]).toContainEqual(statuses);
      const now = await roles(org, [a, b]);
      expect(
        now.filter((role) => role === 'admin'),
        `${org}: ${now.join(', ')}`,
      ).toHaveLength(1);
    }
  });

  it('survives a site admin deleting both owners at the same moment (one 204, one 422)', async () => {
    const pairs = await ownerPairs('du');
    const results = await Promise.all(
      pairs.map(({ a, b }) =>
        Promise.all([
          s.api('DELETE', `/admin/users/${a.login}`, { token: s.adminToken }),
          s.api('DELETE', `/admin/users/${b.login}`, { token: s.adminToken }),
        ]),
      ),
    );
    for (const [i, { org, a, b }] of pairs.entries()) {
      const [ra, rb] = results[i];
      expect([ra.status, rb.status].sort()).toEqual([204, 422]);
      expect((ra.status === 422 ? ra : rb).body.message).toMatch(/only owner of/);
      const survivor = ra.status === 422 ? a : b;
      expect(await roles(org, [survivor])).toEqual(['admin']);
    }
  });

  it('survives one owner demoting themself while the other is deleted (one success, one refusal)', async () => {
    const pairs = await ownerPairs('mx');
    const results = await Promise.all(
      pairs.map(({ org, a, b }) =>
        Promise.all([
          s.api('PUT', `/orgs/${org}/memberships/${a.login}`, { token: a.token, body: { role: 'member' } }),
          s.api('DELETE', `/admin/users/${b.login}`, { token: s.adminToken }),
        ]),
      ),
    );
    for (const [i, { org, a, b }] of pairs.entries()) {
      const [demote, del] = results[i];
      expect([
        [200, 422],
        [422, 204],
      ]).toContainEqual([demote.status, del.status]);
      const now = await roles(org, [a, b]);
      expect(
        now.filter((role) => role === 'admin'),
        `${org}: ${now.join(', ')}`,
      ).toHaveLength(1);
    }
  });
});

describe('PUT /orgs/{org}/memberships/{username}, at the same moment', () => {
  it('adds the same new member from several requests at once: every answer 200, one membership', async () => {
    const owner = await s.userWithToken('addowner', ['admin:org']);
    await s.createOrg('addorg', owner.login);
    const newcomers = [];
    for (const i of range(ROUNDS)) newcomers.push(await s.userWithToken(`newcomer${i}`, ['admin:org']));
    const results = await Promise.all(
      newcomers.flatMap((u) =>
        range(3).map(() => s.api('PUT', `/orgs/addorg/memberships/${u.login}`, { token: owner.token, body: { role: 'member' } })),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(await roles('addorg', newcomers)).toEqual(newcomers.map(() => 'member'));
  });
});

describe('POST /orgs/{org}/hooks, at the same moment', () => {
  it('creates exactly as many hooks as the per-event limit allows (3 of 10), refusing the rest with the limit error', async () => {
    const owner = await s.userWithToken('hookowner', ['admin:org_hook']);
    await s.createOrg('hookorg', owner.login);
    const results = await Promise.all(
      range(10).map((i) =>
        s.api('POST', '/orgs/hookorg/hooks', {
          token: owner.token,
          body: { name: 'web', active: false, events: ['push'], config: { url: `http://127.0.0.1:9/race/${i}` } },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual(range(7).map(() => 422));
    for (const r of refused)
      expect(r.body.errors).toEqual([{ resource: 'Hook', code: 'custom', message: 'The "push" event cannot have more than 3 hooks' }]);
    const list = await s.api('GET', '/orgs/hookorg/hooks', { token: owner.token });
    expect(list.body).toHaveLength(3);
  });

  it('keeps the limit when hooks are moved onto an event at the same moment (PATCH events)', async () => {
    const owner = await s.userWithToken('hookmover', ['admin:org_hook']);
    await s.createOrg('hookmove', owner.login);
    const ids: number[] = [];
    const events = ['issues', 'fork', 'release', 'star', 'watch', 'label', 'create', 'delete'];
    for (const [i, event] of events.entries()) {
      const r = await s.api('POST', '/orgs/hookmove/hooks', {
        token: owner.token,
        body: { name: 'web', active: false, events: [event], config: { url: `http://127.0.0.1:9/move/${i}` } },
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id as number);
    }
    const results = await Promise.all(
      ids.map((id) => s.api('PATCH', `/orgs/hookmove/hooks/${id}`, { token: owner.token, body: { events: ['push'] } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 422)).toHaveLength(5);
    const list = await s.api('GET', '/orgs/hookmove/hooks', { token: owner.token });
    expect(list.body.filter((h: { events: string[] }) => h.events.includes('push'))).toHaveLength(3);
  });
});

describe('logins, at the same moment', () => {
  it('creates a user once when the same login is asked for several times at once; the others get 422 already_exists', async () => {
    for (const i of range(ROUNDS)) {
      const results = await Promise.all(
        range(4).map(() => s.api('POST', '/admin/users', { token: s.adminToken, body: { login: `twin${i}` } })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
      for (const r of results.filter((x) => x.status === 422))
        expect(r.body.errors).toEqual([expect.objectContaining({ resource: 'User', field: 'login', code: 'already_exists' })]);
    }
  });

  it('creates an organization once when the same login is asked for several times at once; the others get 422 already_exists', async () => {
    await s.createUser('orgfounder');
    for (const i of range(ROUNDS)) {
      const results = await Promise.all(
        range(4).map(() =>
          s.api('POST', '/admin/organizations', { token: s.adminToken, body: { login: `twinorg${i}`, admin: 'orgfounder' } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
      for (const r of results.filter((x) => x.status === 422))
        expect(r.body.errors).toEqual([expect.objectContaining({ resource: 'Organization', field: 'login', code: 'already_exists' })]);
    }
  });

  it('refuses an organization whose first owner is deleted at the same moment (422, never 500), or refuses the delete', async () => {
    for (const i of range(ROUNDS)) {
      await s.createUser(`founder${i}`);
      const [org, del] = await Promise.all([
        s.api('POST', '/admin/organizations', { token: s.adminToken, body: { login: `orphan${i}`, admin: `founder${i}` } }),
        s.api('DELETE', `/admin/users/founder${i}`, { token: s.adminToken }),
      ]);
      expect([
        [201, 422],
        [422, 204],
      ]).toContainEqual([org.status, del.status]);
    }
  });
});

describe('servers starting on one fresh database at the same moment', () => {
  /** A fresh, migrated database; each start below is what `serve` does before it listens. */
  async function freshDatabase() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-race-'));
    const database = await createTestDatabase(dir);
    const db = connect(database.url);
    await migrateToLatest(db);
    return {
      db,
      close: async () => {
        await db.destroy();
        await database.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  it('print one first-start token between them, and each registers HUBLET_ADMIN_TOKEN without failing', async () => {
    const first = await freshDatabase();
    try {
      const printed = await Promise.all(range(4).map(() => bootstrapAdminToken(first.db, new Date())));
      expect(printed.filter((t) => t !== undefined)).toHaveLength(1);
    } finally {
      await first.close();
    }
    const fixed = await freshDatabase();
    try {
      const token = `hlp_race${Date.now().toString(36)}`;
      expect(await Promise.all(range(4).map(() => bootstrapAdminToken(fixed.db, new Date(), token)))).toEqual(
        range(4).map(() => undefined),
      );
      const rows = await fixed.db.selectFrom('tokens').select('note').execute();
      expect(rows).toEqual([{ note: 'HUBLET_ADMIN_TOKEN' }]);
    } finally {
      await fixed.close();
    }
  });
});
