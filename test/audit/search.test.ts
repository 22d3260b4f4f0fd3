// Reading the audit log as GitHub's API reads it: the phrase's qualifiers (action and its category, actor, user, org,
// repo, operation, created with its comparisons and ranges; `-` to leave out; one qualifier given twice matches either),
// GitHub's three months by default, include (web, git, all), order, per_page and the Link header's cursors both ways;
// who may read an organization's log and the site's; and that a change which fails records nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import type { AuditEvent } from './helpers.js';

let now = Date.parse('2026-01-05T10:00:00.000Z');
const clock = { now: () => new Date(now) };
let s: TestServer;
let alice: string;
const hookIds: number[] = [];

const at = (iso: string) => {
  now = Date.parse(iso);
};

async function ok<T = any>(r: Promise<{ status: number; body: T; text: string }>, status: number): Promise<T> {
  const res = await r;
  expect(res.status, res.text).toBe(status);
  return res.body;
}

beforeAll(async () => {
  s = await startServer({ clock });
  for (const login of ['alice', 'bob', 'carol']) await s.createUser(login);
  await s.createUser('dave', { siteAdmin: true });
  alice = await s.createToken('alice', { scopes: ['admin:org', 'admin:org_hook', 'repo'] });
  await s.createOrg('acme', 'alice');
  await s.createOrg('other', 'bob');
  at('2026-02-10T10:00:00.000Z');
  for (const n of [1, 2, 3]) {
    const hook = await ok(
      s.api('POST', '/orgs/acme/hooks', { token: alice, body: { name: 'web', active: false, config: { url: `http://127.0.0.1:9/${n}` } } }),
      201,
    );
    hookIds.push(hook.id);
  }
  at('2026-04-01T10:00:00.000Z');
  await ok(s.api('PUT', '/orgs/acme/memberships/bob', { token: alice, body: { role: 'member' } }), 200);
  await ok(s.api('PUT', '/orgs/acme/memberships/carol', { token: s.adminToken, body: { role: 'member' } }), 200);
  at('2026-04-02T10:00:00.000Z');
  await ok(s.api('POST', '/orgs/acme/repos', { token: alice, body: { name: 'widgets' } }), 201);
  await ok(s.api('POST', '/orgs/acme/repos', { token: alice, body: { name: 'gears' } }), 201);
  at('2026-06-20T10:00:00.000Z');
  await ok(s.api('DELETE', `/orgs/acme/hooks/${hookIds[0]}`, { token: alice }), 204);
}, 60_000);
afterAll(() => s?.close());

/** The organization's log for a query: its entries' actions (with the user or repository they name, when any). */
async function acme(params: Record<string, string>, token = alice): Promise<string[]> {
  const r = await s.api('GET', `/orgs/acme/audit-log?${new URLSearchParams(params)}`, { token });
  expect(r.status, r.text).toBe(200);
  return (r.body as AuditEvent[]).map((e) => [e.action, e.user ?? e.repo].filter(Boolean).join(' '));
}

const ALL = 'created:>=2026-01-01';
const EVERYTHING_ASC = [
  'org.create alice',
  'hook.create',
  'hook.create',
  'hook.create',
  'org.add_member bob',
  'org.add_member carol',
  'repo.create acme/widgets',
  'repo.create acme/gears',
  'hook.destroy',
];

describe('GET /orgs/{org}/audit-log: the phrase', () => {
  it('shows the last three months, newest first, unless created: says otherwise', async () => {
    expect(await acme({})).toEqual(EVERYTHING_ASC.slice(4).reverse());
    expect(await acme({ phrase: ALL })).toEqual([...EVERYTHING_ASC].reverse());
    expect(await acme({ phrase: ALL, order: 'asc' })).toEqual(EVERYTHING_ASC);
    expect(await acme({ phrase: ALL, order: 'desc' })).toEqual([...EVERYTHING_ASC].reverse());
  });

  it('action: an action, or its category; -action: leaves them out', async () => {
    expect(await acme({ phrase: `action:hook.create ${ALL}` })).toEqual(['hook.create', 'hook.create', 'hook.create']);
    expect(await acme({ phrase: `action:hook ${ALL}`, order: 'asc' })).toEqual([
      'hook.create',
      'hook.create',
      'hook.create',
      'hook.destroy',
    ]);
    expect(await acme({ phrase: `-action:hook ${ALL}`, order: 'asc' })).toEqual(EVERYTHING_ASC.filter((a) => !a.startsWith('hook.')));
    expect(await acme({ phrase: `-action:hook -action:repo.create ${ALL}`, order: 'asc' })).toEqual([
      'org.create alice',
      'org.add_member bob',
      'org.add_member carol',
    ]);
    expect(await acme({ phrase: `action:HOOK.DESTROY ${ALL}` })).toEqual(['hook.destroy']);
  });

  it('actor:, user:, repo: (not case sensitive), one qualifier twice matching either, negations keeping entries without the field', async () => {
    expect(await acme({ phrase: `actor:admin ${ALL}`, order: 'asc' })).toEqual(['org.create alice', 'org.add_member carol']);
    expect(await acme({ phrase: `actor:Alice actor:admin ${ALL}`, order: 'asc' })).toEqual(EVERYTHING_ASC);
    expect(await acme({ phrase: `-actor:alice ${ALL}`, order: 'asc' })).toEqual(['org.create alice', 'org.add_member carol']);
    expect(await acme({ phrase: 'user:bob' })).toEqual(['org.add_member bob']);
    expect(await acme({ phrase: 'repo:ACME/Widgets' })).toEqual(['repo.create acme/widgets']);
    expect(await acme({ phrase: 'repo:"acme/gears"' })).toEqual(['repo.create acme/gears']);
    expect(await acme({ phrase: '-repo:acme/widgets', order: 'asc' })).toEqual(
      EVERYTHING_ASC.slice(4).filter((a) => !a.includes('widgets')),
    );
    expect(await acme({ phrase: `operation:remove ${ALL}` })).toEqual(['hook.destroy']);
  });

  it('created: a day, >, >=, <, <= and ranges (open with *), combined with the other qualifiers', async () => {
    expect(await acme({ phrase: 'created:2026-02-10' })).toEqual(['hook.create', 'hook.create', 'hook.create']);
    expect(await acme({ phrase: 'created:<2026-02-10' })).toEqual(['org.create alice']);
    expect(await acme({ phrase: 'created:<=2026-02-10' })).toHaveLength(4);
    expect(await acme({ phrase: 'created:>2026-02-10', order: 'asc' })).toEqual(EVERYTHING_ASC.slice(4));
    expect(await acme({ phrase: 'created:2026-04-01..2026-04-02', order: 'asc' })).toEqual(EVERYTHING_ASC.slice(4, 8));
    expect(await acme({ phrase: 'created:2026-04-02..*', order: 'asc' })).toEqual(EVERYTHING_ASC.slice(6));
    expect(await acme({ phrase: 'created:>=2026-04-01T10:00:00Z created:<2026-04-02' })).toHaveLength(2);
    expect(await acme({ phrase: `-created:2026-02-10 ${ALL}` })).toHaveLength(6);
    expect(await acme({ phrase: `action:org.add_member actor:admin ${ALL}` })).toEqual(['org.add_member carol']);
  });

  it('include: web (the default), git or all', async () => {
    expect(await acme({ phrase: ALL, include: 'git' })).toEqual([]);
    expect(await acme({ phrase: ALL, include: 'all' })).toHaveLength(9);
    expect(await acme({ phrase: ALL, include: 'web' })).toHaveLength(9);
  });

  it('refuses words, unknown qualifiers, impossible dates and unknown include, order or cursor values', async () => {
    for (const phrase of ['hello', 'color:blue', 'created:>=2026-02-30', 'created:yesterday', 'operation:explode', 'actor:']) {
      const r = await s.api('GET', `/orgs/acme/audit-log?${new URLSearchParams({ phrase })}`, { token: alice });
      expect(r.status, phrase).toBe(422);
      expect(r.body.errors[0]).toMatchObject({ resource: 'AuditLog', field: 'phrase', code: 'invalid' });
    }
    expect((await s.api('GET', '/orgs/acme/audit-log?include=everything', { token: alice })).status).toBe(422);
    expect((await s.api('GET', '/orgs/acme/audit-log?order=sideways', { token: alice })).status).toBe(422);
    const cursor = await s.api('GET', '/orgs/acme/audit-log?after=not-a-cursor', { token: alice });
    expect(cursor.status).toBe(400);
    expect(cursor.body.message).toBe('Invalid cursor');
  });
});

describe('GET /orgs/{org}/audit-log: pages', () => {
  type Page = { items: string[]; links: Record<string, string> };
  async function page(path: string): Promise<Page> {
    const r = await s.api('GET', path, { token: alice });
    expect(r.status, r.text).toBe(200);
    const links: Record<string, string> = {};
    for (const m of (r.headers.get('link') ?? '').matchAll(/<([^>]+)>; rel="(\w+)"/g)) {
      const u = new URL(m[1]);
      links[m[2]] = u.pathname + u.search;
    }
    return { items: (r.body as AuditEvent[]).map((e) => e._document_id), links };
  }

  for (const order of ['desc', 'asc'] as const) {
    it(`follows the Link header's next (after=) to the end and prev (before=) back to the start, ${order}`, async () => {
      const whole = (await page(`/orgs/acme/audit-log?${new URLSearchParams({ phrase: ALL, order, per_page: '100' })}`)).items;
      expect(whole).toHaveLength(9);
      const forward: Page[] = [await page(`/orgs/acme/audit-log?${new URLSearchParams({ phrase: ALL, order, per_page: '2' })}`)];
      expect(forward[0].links.prev).toBeUndefined();
      expect(forward[0].links.first).toBeUndefined();
      while (forward.at(-1)!.links.next) {
        const next = forward.at(-1)!.links.next;
        expect(next).toMatch(/[?&]after=[^&]+/);
        expect(next).toContain(`order=${order}`);
        forward.push(await page(next));
        expect(forward.at(-1)!.links.first).toBeDefined();
      }
      expect(forward.map((p) => p.items.length)).toEqual([2, 2, 2, 2, 1]);
      expect(forward.flatMap((p) => p.items)).toEqual(whole);
      const back: Page[] = [forward.at(-1)!];
      while (back.at(-1)!.links.prev) back.push(await page(back.at(-1)!.links.prev));
      expect(back.map((p) => p.items.length)).toEqual([1, 2, 2, 2, 2]);
      expect(back.reverse().flatMap((p) => p.items)).toEqual(whole);
    });
  }

  it('takes per_page (30 by default, at most 100)', async () => {
    expect(await acme({ phrase: ALL, per_page: '1' })).toEqual(['hook.destroy']);
    expect(await acme({ phrase: ALL, per_page: '1000' })).toHaveLength(9);
  });
});

describe('who may read', () => {
  it('an organization’s log: its owners with admin:org, read:audit_log or the Administration permission; anyone else 404', async () => {
    const get = async (token?: string) => (await s.api('GET', '/orgs/acme/audit-log', { token })).status;
    expect(await get(await s.createToken('alice', { scopes: ['read:audit_log'] }))).toBe(200);
    expect(await get(await s.createToken('alice', { kind: 'fine_grained', permissions: { organization_administration: 'read' } }))).toBe(
      200,
    );
    expect(await get(await s.createToken('alice', { kind: 'fine_grained', permissions: { gists: 'write' } }))).toBe(403);
    expect(await get(await s.createToken('alice', { scopes: ['read:org', 'repo'] }))).toBe(404);
    expect(await get(await s.createToken('bob', { scopes: ['admin:org'] }))).toBe(404); // a member
    expect(await get(await s.createToken('dave', { scopes: ['admin:org', 'site_admin'] }))).toBe(404); // a site admin, not an owner
    expect(await get(await s.createToken('carol', { scopes: ['read:audit_log'] }))).toBe(404);
    expect(await get()).toBe(401);
    expect((await s.api('GET', '/orgs/nothing-here/audit-log', { token: alice })).status).toBe(404);
  });

  it('the site’s log: site admins with site_admin, admin:enterprise or read:audit_log; anyone else 404; only at the enterprise’s slug', async () => {
    const get = async (token?: string, slug = 'hublet') => await s.api('GET', `/enterprises/${slug}/audit-log?phrase=${ALL}`, { token });
    const admin = await get(s.adminToken);
    expect(admin.status).toBe(200);
    expect(admin.body.map((e: AuditEvent) => e.org)).toContain('other');
    for (const scopes of [['read:audit_log'], ['admin:enterprise'], ['site_admin']])
      expect((await get(await s.createToken('dave', { scopes }))).status, scopes[0]).toBe(200);
    expect((await get(await s.createToken('dave', { scopes: ['gist'] }))).status).toBe(403);
    expect((await get(await s.createToken('alice', { scopes: ['read:audit_log', 'admin:org'] }))).status).toBe(404);
    expect(
      (await get(await s.createToken('dave', { kind: 'fine_grained', permissions: { organization_administration: 'read' } }))).status,
    ).toBe(403);
    expect((await get()).status).toBe(401);
    expect((await get(s.adminToken, 'acme')).status).toBe(404);
    expect((await get(s.adminToken, 'HUBLET')).status).toBe(200);
    const orgOnly = await s.api('GET', `/enterprises/hublet/audit-log?phrase=${encodeURIComponent(`org:other ${ALL}`)}`, {
      token: s.adminToken,
    });
    expect(orgOnly.body.map((e: AuditEvent) => e.action)).toEqual(['org.create']);
  });
});

describe('one transaction', () => {
  it('records nothing for a change that fails, and no change stands without its entry', async () => {
    const count = async () => (await s.db.selectFrom('audit_entries').select('id').execute()).length;
    const before = await count();
    const chain = await s.db.selectFrom('audit_chain').selectAll().executeTakeFirstOrThrow();
    // Refused: the name is taken.
    expect((await s.api('POST', '/orgs/acme/repos', { token: alice, body: { name: 'widgets' } })).status).toBe(422);
    // Failing after its entry was written: the entry goes with the change.
    const audit = s.app.hublet.audit;
    s.app.hublet.audit = {
      async record(trx, source, entry) {
        await audit.record(trx, source, entry);
        if (entry.action === 'repo.create' || entry.action === 'org.add_member') throw new Error('failing after the entry');
      },
    };
    try {
      expect((await s.api('POST', '/orgs/acme/repos', { token: alice, body: { name: 'doomed' } })).status).toBe(500);
      expect((await s.api('PUT', '/orgs/acme/memberships/dave', { token: alice, body: { role: 'member' } })).status).toBe(500);
    } finally {
      s.app.hublet.audit = audit;
    }
    expect((await s.api('GET', '/repos/acme/doomed', { token: alice })).status).toBe(404);
    expect((await s.api('GET', '/orgs/acme/memberships/dave', { token: alice })).status).toBe(404);
    expect(await count()).toBe(before);
    expect(await s.db.selectFrom('audit_chain').selectAll().executeTakeFirstOrThrow()).toEqual(chain);
  });
});
