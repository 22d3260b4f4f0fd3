// The audit log's hash chain and its tools: `hublet admin audit verify` (local and remote mode) exits 0 on an intact
// chain and 1 naming the first changed entry after an UPDATE of a row (its hash recomputed or not), or the entries on
// both sides of a DELETE; `hublet admin audit export --since` prints JSON lines and nothing else, at the configured
// enterprise slug; retention prunes old entries and the chain still holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryHash } from '../../src/audit/chain.js';
import type { AuditEntryRow } from '../../src/db/tables/audit.js';
import { sandbox, type Env, type Sandbox } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-inprocess.js';
import { startServer, type TestServer } from '../helpers/server.js';

let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };
const DAY = 86_400_000;
let s: TestServer;
let sb: Sandbox;
let localEnv: Env;

const local = (args: string[]) => runInProcess(['--data', s.dataDir, '--database', s.databaseUrl, ...args], { env: localEnv });
const remote = (token: string, args: string[]) => runInProcess(['--server', s.url, '--token', token, ...args], { env: sb.env });

async function rows(): Promise<AuditEntryRow[]> {
  return s.db.selectFrom('audit_entries').selectAll().orderBy('id').execute();
}

beforeAll(async () => {
  s = await startServer({ clock, config: { enterprise: 'acme-corp', auditRetentionDays: 30, rateLimitAnonymous: 100_000 } });
  sb = sandbox();
  localEnv = { ...sb.env, HUBLET_BASE_URL: s.url, HUBLET_ENTERPRISE: 'acme-corp' };
  // Entries ten days ago, then today.
  offset = -10 * DAY;
  for (const login of ['alice', 'bob']) await s.createUser(login);
  await s.createOrg('acme', 'alice');
  offset = 0;
  await s.addMember('acme', 'bob');
  await s.api('POST', '/admin/users/bob/authorizations', { token: s.adminToken, body: { scopes: ['gist'], note: 'today' } });
}, 60_000);
afterAll(async () => {
  await s?.close();
  sb?.cleanup();
});

describe('hublet admin audit verify', () => {
  it('exits 0 on an intact chain, in local and in remote mode; others hear 404', async () => {
    const n = (await rows()).length;
    expect(n).toBeGreaterThanOrEqual(5);
    const here = await local(['admin', 'audit', 'verify']);
    expect(here.code, here.stderr).toBe(0);
    expect(here.stdout).toBe(`the audit log's chain holds: ${n} entries\n`);
    const there = await remote(s.adminToken, ['admin', 'audit', 'verify', '--json']);
    expect(there.code, there.stderr).toBe(0);
    expect(JSON.parse(there.stdout)).toEqual({ intact: true, entries: n });
    const alice = await s.createToken('alice', { scopes: ['admin:org', 'read:audit_log'] });
    expect((await remote(alice, ['admin', 'audit', 'verify'])).code).toBe(1);
    expect((await s.api('GET', '/admin/audit-log/verification', { token: alice })).status).toBe(404);
  });

  it('exits 1 naming the changed entry after an UPDATE of one row, its hash recomputed or not', async () => {
    const all = await rows();
    const victim = all[2];
    await s.db.updateTable('audit_entries').set({ actor: 'mallory' }).where('id', '=', victim.id).execute();
    const edited = await local(['admin', 'audit', 'verify']);
    expect(edited.code).toBe(1);
    expect(edited.stdout).toBe(`changed: ${victim.document_id}\n`);
    expect(edited.stderr).toContain("the audit log's chain is broken");

    // The row's own hash made to match its new columns: the next entry still names the old one.
    const { hash: _old, ...columns } = { ...victim, actor: 'mallory' };
    await s.db
      .updateTable('audit_entries')
      .set({ hash: entryHash(columns) })
      .where('id', '=', victim.id)
      .execute();
    const rehashed = await remote(s.adminToken, ['admin', 'audit', 'verify', '--json']);
    expect(rehashed.code).toBe(1);
    expect(JSON.parse(rehashed.stdout)).toMatchObject({ intact: false, changed: victim.document_id, entries: 3 });

    await s.db.updateTable('audit_entries').set({ actor: victim.actor, hash: victim.hash }).where('id', '=', victim.id).execute();
    expect((await local(['admin', 'audit', 'verify'])).code).toBe(0);
  });

  it('exits 1 naming the entries on both sides after a DELETE of one row (the start or the end of the log at either end)', async () => {
    const all = await rows();
    const gap = async (index: number) => {
      await s.db.deleteFrom('audit_entries').where('id', '=', all[index].id).execute();
      const r = await local(['admin', 'audit', 'verify']);
      await s.db.insertInto('audit_entries').values(all[index]).execute();
      return r;
    };
    const middle = await gap(3);
    expect(middle.code).toBe(1);
    expect(middle.stdout).toBe(`removed between: ${all[2].document_id} ${all[4].document_id}\n`);
    const first = await gap(0);
    expect(first.stdout).toBe(`removed between: (the start of the log) ${all[1].document_id}\n`);
    const last = await gap(all.length - 1);
    expect(last.stdout).toBe(`removed between: ${all.at(-2)!.document_id} (the end of the log)\n`);
    expect((await local(['admin', 'audit', 'verify'])).code).toBe(0);
  });
});

describe('hublet admin audit export --since', () => {
  it('writes the site-wide log from that day as JSON lines, oldest first, and nothing else', async () => {
    const since = new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10);
    const today = (await rows()).filter((r) => r.created_at >= `${since}T00:00:00.000Z`);
    expect(today.length).toBeGreaterThanOrEqual(2);
    const r = await local(['admin', 'audit', 'export', '--since', since]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.endsWith('\n')).toBe(true);
    const lines = r.stdout.trimEnd().split('\n');
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries.map((e) => e._document_id)).toEqual(today.map((t) => t.document_id));
    expect(entries[0]).toMatchObject({ action: 'org.add_member', org: 'acme', user: 'bob' });
    expect(entries[1]).toMatchObject({ action: 'personal_access_token.create', user: 'bob', note: 'today', token_scopes: 'gist' });
    expect(entries.some((e) => e.action === 'org.create')).toBe(false);

    const everything = await remote(s.adminToken, ['admin', 'audit', 'export', '--since', '2000-01-01', '--enterprise', 'acme-corp']);
    expect(everything.code, everything.stderr).toBe(0);
    expect(
      everything.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)._document_id),
    ).toEqual((await rows()).map((x) => x.document_id));
    const wrongSlug = await remote(s.adminToken, ['admin', 'audit', 'export', '--since', '2000-01-01']);
    expect(wrongSlug.code).toBe(1);
    expect(wrongSlug.stdout).toBe('');
    const badDay = await local(['admin', 'audit', 'export', '--since', '2026-02-30']);
    expect(badDay.code).toBe(2);
    expect(badDay.stdout).toBe('');
  });
});

describe('appending', () => {
  it('chains changes made at the same moment one after another, ids without gaps', async () => {
    const before = (await rows()).length;
    const made = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        s.api('POST', '/admin/users/bob/authorizations', { token: s.adminToken, body: { scopes: ['gist'], note: `parallel ${i}` } }),
      ),
    );
    expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
    const all = await rows();
    expect(all).toHaveLength(before + 24);
    expect(all.map((r) => r.id)).toEqual(all.map((_, i) => all[0].id + i));
    expect((await local(['admin', 'audit', 'verify'])).code).toBe(0);
  });
});

describe('retention', () => {
  it('prunes entries older than HUBLET_AUDIT_RETENTION_DAYS hourly; the chain starts after them and still holds', async () => {
    const before = await rows();
    // Thirty-five days on: the entries of ten days ago are past thirty days, today's are not yet.
    offset = 25 * DAY;
    const deadline = Date.now() + 15_000;
    while ((await rows()).length === before.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const after = await rows();
    const kept = before.filter((r) => Date.parse(r.created_at) >= Date.now() + offset - 30 * DAY);
    expect(after.map((r) => r.id)).toEqual(kept.map((r) => r.id));
    expect(after.length).toBeLessThan(before.length);
    const chain = await s.db.selectFrom('audit_chain').selectAll().executeTakeFirstOrThrow();
    expect(chain.pruned_id).toBe(after[0].id - 1);
    const verified = await local(['admin', 'audit', 'verify']);
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toBe(`the audit log's chain holds: ${after.length} entries\n`);
  });
});
