// Hook secrets at rest and on show: secret, password and URL password only ever stored sealed (grep of the SQLite file,
// its WAL, pg_dump), gone with the hook, masked wherever the hook is shown; deliveries still sign and authenticate;
// jobs carry no config; key rotation; rows in the clear from before are sealed (and scrubbed) at start.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdminToken } from '../../src/accounts/site-admin.js';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { schemaMigrationProvider } from '../../src/db/schema-migrations/index.js';
import * as sqlite3 from '../../src/db/sqlite3-module.js';
import { createTestDatabase, onPostgres } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildApp } from '../../src/server/app.js';
import { keyIdOf } from '../../src/secrets/secret-box.js';
import { expectSqliteFiles, foundAtRest } from './at-rest.js';
import { signaturesValid, startReceiver, type Received, type Receiver } from './receiver.js';

let s: TestServer;
let rcv: Receiver;
let owner: { login: string; id: number; token: string };
const KEY_A = crypto.randomBytes(32);
const KEY_B = crypto.randomBytes(32);

beforeAll(async () => {
  s = await startServer({ config: { secretKey: KEY_A.toString('base64') } });
  rcv = await startReceiver();
  owner = await s.userWithToken('octo');
  await s.createOrg('Acme', 'octo');
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
});

let n = 0;
const unique = (what: string) => `${what}-${crypto.randomBytes(6).toString('hex')}`;
const onPath = (p: string) => (r: Received) => r.path === p;
/** The receiver's URL with credentials in its userinfo. */
const withUserinfo = (userinfo: string, p: string) => `http://${userinfo}@127.0.0.1:${rcv.port}${p}`;
const shown = (userinfo: string, p: string) => `http://${userinfo}@127.0.0.1:${rcv.port}${p}`;

async function createHook(config: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const r = await s.api('POST', '/orgs/acme/hooks', { token: owner.token, body: { name: 'web', config, ...extra } });
  if (r.status !== 201) throw new Error(`create hook: ${r.status} ${r.text}`);
  return r.body as { id: number; config: Record<string, string> };
}

const hookRow = (id: number) => s.db.selectFrom('hooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('hook secrets at rest', () => {
  it('stores the secret, the password and the URL password only sealed, and none of them (nor their ciphertexts) outlives the hook', async () => {
    const p = `/rest/${++n}`;
    const [secret, password, urlPassword] = [unique('Secr3t'), unique('Passw0rd'), unique('UrlS3cr3t')];
    const hook = await createHook({
      url: withUserinfo(`hookuser:${urlPassword}`, p),
      content_type: 'json',
      secret,
      username: 'basic-user',
      password,
    });
    const [ping] = await rcv.waitFor(1, onPath(p));
    expect(signaturesValid(ping, secret)).toBe(true);
    await s.app.hublet.jobs.idle();

    const row = await hookRow(hook.id);
    const sealed = [row.secret!, row.password!, row.url_sealed!];
    for (const v of sealed) expect(v).toMatch(/^hsb1:[0-9a-f]{16}:[A-Za-z0-9_-]+$/);
    expect(row.url).toBe(shown('hookuser:********', p));
    expectSqliteFiles(s);
    expect(await foundAtRest(s, [secret, password, urlPassword])).toEqual([]);
    // The grep sees what is there: the shown URL and the sealed values.
    const present = await foundAtRest(s, [row.url, ...sealed]);
    for (const v of [row.url, ...sealed])
      expect(
        present.some((f) => f.startsWith(`${v} in `)),
        v,
      ).toBe(true);

    expect((await s.api('DELETE', `/orgs/acme/hooks/${hook.id}`, { token: owner.token })).status).toBe(204);
    const [, meta] = await rcv.waitFor(2, onPath(p));
    expect(meta.headers['x-service-event']).toBe('meta');
    expect(signaturesValid(meta, secret)).toBe(true);
    await s.app.hublet.jobs.idle();
    expect(await foundAtRest(s, [secret, password, urlPassword, ...sealed])).toEqual([]);
    expect(await s.db.selectFrom('hook_farewells').selectAll().execute()).toEqual([]);
  });

  it('names the hook in delivery jobs and never carries its config', async () => {
    const p = `/jobs/${++n}`;
    const secret = unique('JobSecret');
    const hook = await createHook({ url: withUserinfo('u:JobUrlPass', p), content_type: 'json', secret });
    await rcv.waitFor(1, onPath(p));
    expect((await s.api('DELETE', `/orgs/acme/hooks/${hook.id}`, { token: owner.token })).status).toBe(204);
    await rcv.waitFor(2, onPath(p));
    await s.app.hublet.jobs.idle();
    const jobs = await s.db.selectFrom('jobs').select('payload').where('queue', '=', 'hooks.deliver').execute();
    const mine = jobs.map((j) => JSON.parse(j.payload) as Record<string, unknown>).filter((j) => j.hookId === hook.id);
    expect(mine).toHaveLength(2); // the ping and the meta
    for (const j of mine) expect(Object.keys(j).sort()).toEqual(['eventId', 'hookId']);
    const events = await s.db.selectFrom('events').select('payload').where('name', 'in', ['ping', 'meta']).execute();
    for (const e of events) expect(e.payload).not.toMatch(/JobSecret|JobUrlPass/);
  });
});

describe('URL credentials are masked wherever a hook is shown', () => {
  let hook: { id: number; config: Record<string, string> };
  const p = '/masked';
  const URL_PASSWORD = 'S3cr3t-in-the-url';

  beforeAll(async () => {
    hook = await createHook({ url: withUserinfo(`u:${URL_PASSWORD}`, p), content_type: 'json', secret: 'sign-me' }, { events: ['*'] });
    await rcv.waitFor(1, onPath(p));
    await s.app.hublet.jobs.idle();
  });

  it('in the hook as created, read, listed, and in its config (read and patched)', async () => {
    const masked = shown('u:********', p);
    expect(hook.config).toEqual({ url: masked, content_type: 'json', insecure_ssl: '0', secret: '********' });
    const read = await s.api('GET', `/orgs/acme/hooks/${hook.id}`, { token: owner.token });
    expect(read.body.config.url).toBe(masked);
    const list = await s.api('GET', '/orgs/acme/hooks', { token: owner.token });
    expect(list.body.find((h: { id: number }) => h.id === hook.id).config.url).toBe(masked);
    const config = await s.api('GET', `/orgs/acme/hooks/${hook.id}/config`, { token: owner.token });
    expect(config.body.url).toBe(masked);
    const patched = await s.api('PATCH', `/orgs/acme/hooks/${hook.id}/config`, {
      token: owner.token,
      body: { url: withUserinfo(`u:${URL_PASSWORD}-2`, p) },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.url).toBe(masked);
    const whole = await s.api('PATCH', `/orgs/acme/hooks/${hook.id}`, {
      token: owner.token,
      body: { config: { url: withUserinfo(`u:${URL_PASSWORD}`, p), content_type: 'json', secret: 'sign-me' } },
    });
    expect(whole.body.config.url).toBe(masked);
    for (const r of [read, list, config, patched, whole]) expect(r.text).not.toContain(URL_PASSWORD);
  });

  it('in ping payloads and delivery records (request payload and headers), while the delivery signs and sends Basic auth', async () => {
    const before = rcv.received.filter(onPath(p)).length;
    expect((await s.api('POST', `/orgs/acme/hooks/${hook.id}/pings`, { token: owner.token })).status).toBe(204);
    const got = (await rcv.waitFor(before + 1, onPath(p))).at(-1)!;
    expect(got.payload.hook.config.url).toBe(shown('u:********', p));
    expect(got.body.toString('utf8')).not.toContain(URL_PASSWORD);
    expect(signaturesValid(got, 'sign-me')).toBe(true);
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from(`u:${URL_PASSWORD}`).toString('base64')}`);

    await s.app.hublet.jobs.idle();
    const list = await s.api('GET', `/orgs/acme/hooks/${hook.id}/deliveries`, { token: owner.token });
    const record = await s.api('GET', `/orgs/acme/hooks/${hook.id}/deliveries/${list.body[0].id}`, { token: owner.token });
    expect(record.status).toBe(200);
    expect(record.body.request.payload.hook.config.url).toBe(shown('u:********', p));
    expect(record.text).not.toContain(URL_PASSWORD);
    expect(JSON.stringify(record.body.request.headers)).not.toMatch(/authorization|S3cr3t/i);
    expect(record.body.url).not.toContain(URL_PASSWORD);
  });

  it('in the meta payload on deletion', async () => {
    const before = rcv.received.filter(onPath(p)).length;
    expect((await s.api('DELETE', `/orgs/acme/hooks/${hook.id}`, { token: owner.token })).status).toBe(204);
    const meta = (await rcv.waitFor(before + 1, onPath(p))).at(-1)!;
    expect(meta.headers['x-service-event']).toBe('meta');
    expect(meta.payload.hook.config).toEqual({ url: shown('u:********', p), content_type: 'json', insecure_ssl: '0', secret: '********' });
    expect(meta.body.toString('utf8')).not.toContain(URL_PASSWORD);
    expect(meta.headers.authorization).toBe(`Basic ${Buffer.from(`u:${URL_PASSWORD}`).toString('base64')}`);
  });

  it('a user name standing alone in the URL (often a token) is masked too, and still sent as Basic auth', async () => {
    const q = `/token/${++n}`;
    const h = await createHook({ url: withUserinfo('tok-123456', q), content_type: 'json' });
    expect(h.config.url).toBe(shown('********', q));
    const [got] = await rcv.waitFor(1, onPath(q));
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from('tok-123456:').toString('base64')}`);
    expect(got.body.toString('utf8')).not.toContain('tok-123456');
  });

  it('config.password stays masked and is sent with config.username', async () => {
    const q = `/basic/${++n}`;
    const h = await createHook({ url: `${rcv.url}${q}`, content_type: 'json', username: 'alice', password: 'pa55word' });
    expect(h.config).toEqual({ url: `${rcv.url}${q}`, content_type: 'json', insecure_ssl: '0', username: 'alice', password: '********' });
    const [got] = await rcv.waitFor(1, onPath(q));
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from('alice:pa55word').toString('base64')}`);
  });

  it('one hook per shown URL: a second hook differing only in the URL password is the same hook (422)', async () => {
    const q = `/dup/${++n}`;
    await createHook({ url: withUserinfo('u:one', q) }, { active: false });
    const r = await s.api('POST', '/orgs/acme/hooks', {
      token: owner.token,
      body: { name: 'web', active: false, config: { url: withUserinfo('u:two', q) } },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].message).toBe('Hook already exists on this organization');
  });
});

describe('DELETE /orgs/{org}/hooks/{hook_id} with a delivery pending', () => {
  it('delivers nothing to an inactive hook deleted before its pending ping ran', async () => {
    const p = `/pending/${++n}`;
    await s.app.hublet.jobs.stop();
    try {
      const hook = await createHook({ url: `${rcv.url}${p}`, content_type: 'json', secret: 'pending' });
      expect((await s.api('PATCH', `/orgs/acme/hooks/${hook.id}`, { token: owner.token, body: { active: false } })).status).toBe(200);
      expect((await s.api('DELETE', `/orgs/acme/hooks/${hook.id}`, { token: owner.token })).status).toBe(204);
    } finally {
      s.app.hublet.jobs.start();
    }
    await s.app.hublet.jobs.idle();
    expect(rcv.received.filter(onPath(p))).toEqual([]);
  });

  it('an active hook deleted before its pending ping ran gets its meta event only', async () => {
    const p = `/pending/${++n}`;
    await s.app.hublet.jobs.stop();
    try {
      const hook = await createHook({ url: `${rcv.url}${p}`, content_type: 'json', secret: 'pending' });
      expect((await s.api('DELETE', `/orgs/acme/hooks/${hook.id}`, { token: owner.token })).status).toBe(204);
    } finally {
      s.app.hublet.jobs.start();
    }
    await s.app.hublet.jobs.idle();
    const got = rcv.received.filter(onPath(p));
    expect(got.map((r) => r.headers['x-service-event'])).toEqual(['meta']);
    expect(signaturesValid(got[0], 'pending')).toBe(true);
  });
});

describe('key rotation', () => {
  it('seals every hook with the new key at start when the old one is given as previous, and refuses a start without the key', async () => {
    const p = `/rotate/${++n}`;
    const hook = await createHook({
      url: withUserinfo('u:RotUrlPass', p),
      content_type: 'json',
      secret: 'rotate-me',
      password: 'rot-pass',
      username: 'ru',
    });
    await rcv.waitFor(1, onPath(p));
    await s.app.hublet.jobs.idle();
    const before = await hookRow(hook.id);
    expect(before.sealed_with).toBe(keyIdOf(KEY_A));

    const base = s.app.hublet.config;
    // Starts with key B and A as previous: every config sealed with B, the values unchanged.
    const rotated = await buildApp({
      config: {
        ...base,
        secretKey: KEY_B.toString('hex'),
        secretKeyPrevious: `${crypto.randomBytes(32).toString('base64')}, ${KEY_A.toString('base64')}`,
      },
      db: s.db,
    });
    try {
      await rotated.ready();
    } finally {
      await rotated.close();
    }
    const after = await hookRow(hook.id);
    expect(after.sealed_with).toBe(keyIdOf(KEY_B));
    for (const v of [after.secret!, after.password!, after.url_sealed!]) expect(v.startsWith(`hsb1:${keyIdOf(KEY_B)}:`)).toBe(true);
    expect(after.url).toBe(before.url);
    expect(await foundAtRest(s, ['RotUrlPass', 'rotate-me', 'rot-pass', before.secret!, before.password!, before.url_sealed!])).toEqual([]);

    // Key A alone no longer opens them: the start is refused, saying which key is missing.
    const stale = await buildApp({ config: { ...base, secretKey: KEY_A.toString('base64') }, db: s.db });
    await expect(stale.ready()).rejects.toThrow(new RegExp(`sealed with secret key ${keyIdOf(KEY_B)}, which this server does not have`));
    await stale.close();

    // A server with key B delivers with the resealed config: signed with the secret, Basic auth from the URL.
    const current = await buildApp({ config: { ...base, secretKey: KEY_B.toString('base64') }, db: s.db });
    await s.app.hublet.jobs.stop();
    try {
      await current.ready();
      current.hublet.jobs.start();
      const r = await current.inject({
        method: 'POST',
        url: `/orgs/acme/hooks/${hook.id}/pings`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(r.statusCode).toBe(204);
      const [, got] = await rcv.waitFor(2, onPath(p));
      expect(signaturesValid(got, 'rotate-me')).toBe(true);
      expect(got.headers.authorization).toBe(`Basic ${Buffer.from('u:RotUrlPass').toString('base64')}`);
      await current.hublet.jobs.idle();
    } finally {
      await current.close();
      // Back to key A for the other tests' server.
      const back = await buildApp({
        config: { ...base, secretKey: KEY_A.toString('base64'), secretKeyPrevious: KEY_B.toString('base64') },
        db: s.db,
      });
      await back.ready();
      await back.close();
      s.app.hublet.jobs.start();
    }
    expect((await hookRow(hook.id)).sealed_with).toBe(keyIdOf(KEY_A));
  });
});

describe('upgrading a database whose hooks were stored in the clear', () => {
  it('seals them at start, masks their ping payloads, takes configs out of jobs, and (SQLite) leaves no free page with what was deleted', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-upgrade-'));
    const database = await createTestDatabase(dir);
    const db = connect(database.url);
    try {
      // The schema as the previous version left it, with what that version wrote.
      const { error } = await new Migrator({ db, provider: schemaMigrationProvider }).migrateTo('2026-11-22T01-30-migrations');
      expect(error).toBeUndefined();
      const p = `/upgrade/${++n}`;
      const legacyUrl = withUserinfo('old:LegacyUrlPass', p);
      const now = new Date().toISOString();
      const old = db as unknown as Kysely<any>;
      const org = await old
        .insertInto('users')
        .values({ login: 'Legacy', login_lower: 'legacy', type: 'Organization', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const hook = await old
        .insertInto('hooks')
        .values({
          org_id: org.id,
          name: 'web',
          events: '["push"]',
          active: 1,
          url: legacyUrl,
          content_type: 'json',
          insecure_ssl: '0',
          secret: 'LegacySecret',
          username: null,
          password: 'LegacyPassword',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const ping = JSON.stringify({
        zen: 'Design for failure.',
        hook_id: hook.id,
        hook: { config: { url: legacyUrl, content_type: 'json', secret: '********' } },
      });
      const event = await old
        .insertInto('events')
        .values({ guid: crypto.randomUUID(), name: 'ping', org_id: org.id, payload: ping, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const target = {
        url: withUserinfo('gone:GoneUrlPass', '/gone'),
        contentType: 'json',
        insecureSsl: '0',
        secret: 'GoneSecret',
        username: null,
        password: null,
      };
      await old
        .insertInto('jobs')
        .values({
          queue: 'hooks.deliver',
          payload: JSON.stringify({ hookId: 999, eventId: event.id, target }),
          state: 'done',
          run_at: now,
          created_at: now,
          finished_at: now,
        })
        .execute();
      if (!onPostgres) {
        // That version deleted rows without secure_delete: their bytes stayed in the file's free pages.
        const raw = await new Promise<sqlite3.Database>((resolve, reject) => {
          const conn = new sqlite3.Database(database.url, (err) => (err ? reject(err) : resolve(conn)));
        });
        const run = (q: string) => new Promise<void>((resolve, reject) => raw.exec(q, (err) => (err ? reject(err) : resolve())));
        // Many pages' worth, every page holding the text: more than the migration's new tables take back from the free list.
        await run(
          `pragma secure_delete = off; create table scratch (v text);
           with recursive i(n) as (select 1 union all select n + 1 from i where n < 4000) insert into scratch select 'DeletedLegacySecret-' || n || '-' || printf('%.80c', 'x') from i;
           drop table scratch; pragma wal_checkpoint(truncate);`,
        );
        await new Promise<void>((resolve) => raw.close(() => resolve()));
      }
      const upgrade = { dataDir: dir, databaseUrl: database.url };
      const clear = [
        'LegacyUrlPass',
        'LegacySecret',
        'LegacyPassword',
        'GoneUrlPass',
        'GoneSecret',
        ...(onPostgres ? [] : ['DeletedLegacySecret']),
      ];
      expect((await foundAtRest(upgrade, clear)).map((f) => f.split(' in ')[0]).sort()).toEqual([...new Set(clear)].sort());

      // The new version: its migration, then its first start.
      await migrateToLatest(db);
      const admin = await bootstrapAdminToken(db, new Date());
      const adminId = (await db.selectFrom('users').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow()).id;
      await db.insertInto('memberships').values({ org_id: org.id, user_id: adminId, role: 'admin', created_at: now }).execute();
      const config = loadConfig({ dataDir: dir, databaseUrl: database.url, logLevel: 'silent', secretKey: KEY_A.toString('base64') }, {});
      const app = await buildApp({ config, db });
      try {
        await app.ready();
        const row = await db.selectFrom('hooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
        expect(row.sealed_with).toBe(keyIdOf(KEY_A));
        expect(row.url).toBe(shown('old:********', p));
        const shownPing = await db.selectFrom('events').select('payload').where('id', '=', event.id).executeTakeFirstOrThrow();
        expect(JSON.parse(shownPing.payload).hook.config.url).toBe(shown('old:********', p));
        const jobs = await db.selectFrom('jobs').select('payload').where('queue', '=', 'hooks.deliver').execute();
        expect(jobs.map((j) => JSON.parse(j.payload))).toEqual([{ hookId: 999, eventId: event.id }]);
        expect(await db.selectFrom('hook_secrets_scrub').selectAll().execute()).toEqual([]);
        expect(await foundAtRest(upgrade, clear)).toEqual([]);

        // The sealed hook still delivers: signed with its secret, Basic auth from its URL.
        app.hublet.jobs.start();
        const r = await app.inject({
          method: 'POST',
          url: `/orgs/legacy/hooks/${hook.id}/pings`,
          headers: { authorization: `Bearer ${admin}` },
        });
        expect(r.statusCode).toBe(204);
        const [got] = await rcv.waitFor(1, onPath(p));
        expect(signaturesValid(got, 'LegacySecret')).toBe(true);
        expect(got.headers.authorization).toBe(`Basic ${Buffer.from('old:LegacyUrlPass').toString('base64')}`);
        await app.hublet.jobs.idle();
      } finally {
        await app.close();
      }
    } finally {
      await db.destroy();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
