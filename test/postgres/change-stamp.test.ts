// PostgreSQL only: the change stamp counts commits per table (src/db/change-counters.ts). A commit to a counted table
// moves it once it is visible, and never before; a rollback, another database of the cluster, the shared rate counts'
// flush and the job queue's claims leave it alone, so a cached GET /gists/{id} stays a fast-path answer through them.
import os from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNCOUNTED_TABLES } from '../../src/db/change-counters.js';
import { changeStamp } from '../../src/db/change-stamp.js';
import { connect, type Db } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { addSharedCounts } from '../../src/http/shared-rate-counts.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';

let database: TestDatabase;
let other: TestDatabase;
let db: Db;
let otherDb: Db;
beforeAll(async () => {
  [database, other] = await Promise.all([createTestDatabase(os.tmpdir()), createTestDatabase(os.tmpdir())]);
  db = connect(database.url);
  otherDb = connect(other.url);
  await Promise.all([migrateToLatest(db), migrateToLatest(otherDb)]);
});
afterAll(async () => {
  await db?.destroy();
  await otherDb?.destroy();
  await Promise.all([database?.drop(), other?.drop()]);
});

async function tables(of: Db, counted: boolean): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
      and ${counted ? sql`exists` : sql`not exists`}
        (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'hublet_count_change')
    order by 1`.execute(of);
  return rows.rows.map((r) => r.name);
}

describe('the per-table change stamp on PostgreSQL', () => {
  it('counts every table but the named few, and a second migration run adds nothing', async () => {
    expect(await tables(db, false)).toEqual([...UNCOUNTED_TABLES].sort());
    const counted = await tables(db, true);
    expect(counted).toEqual(expect.arrayContaining(['gists', 'gist_files', 'users', 'tokens', 'hooks', 'hook_deliveries', 'repositories']));
    await migrateToLatest(db);
    expect(await tables(db, true)).toEqual(counted);
  });

  it('moves with a commit to a counted table, once it commits; a rollback leaves it', async () => {
    const before = await changeStamp(db);
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('users').values(userRow('rolled-back')).execute();
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await changeStamp(db)).toBe(before);

    let seenInside = '';
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(userRow('kept')).execute();
      await trx.updateTable('users').set({ bio: 'twice in one transaction' }).where('login', '=', 'kept').execute();
      seenInside = await changeStamp(db); // another connection, before the commit
    });
    expect(seenInside).toBe(before);
    const after = await changeStamp(db);
    expect(after).not.toBe(before);
    expect(BigInt(after) - BigInt(before)).toBe(1n); // one transaction, one count, however many rows and statements
  });

  it('stays still through another database of the cluster, the rate counts flush and job claims', async () => {
    const before = await changeStamp(db);
    await otherDb.insertInto('users').values(userRow('elsewhere')).execute();
    await addSharedCounts(db, [{ key: 'token:1', resetAt: Date.now() + 60_000, add: 3 }], Date.now());
    const at = new Date().toISOString();
    await db
      .insertInto('jobs')
      .values({
        queue: 'test',
        payload: '{}',
        run_at: at,
        locked_until: null,
        locked_by: null,
        last_error: null,
        created_at: at,
        finished_at: null,
      })
      .execute();
    await db.updateTable('jobs').set({ locked_until: at, locked_by: 'worker' }).execute();
    expect(await changeStamp(db)).toBe(before);
    // A raw client sees the same: the sum of the counters.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      expect((await client.query('select coalesce(sum(version), 0)::text as v from change_counters')).rows[0].v).toBe(before);
    } finally {
      await client.end();
    }
  });
});

describe('a cached read through writes elsewhere', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it('GET /gists/{id} keeps its stamp through a commit in another database and a rate-count flush, and a change to the gist is in the next answer', async () => {
    const { token } = await server.userWithToken('kim', ['gist']);
    const created = await server.api('POST', '/gists', { token, body: { public: true, files: { 'a.txt': { content: 'a' } } } });
    const path = `/gists/${created.body.id}`;
    const first = await server.api('GET', path, { token });
    expect(first.status).toBe(200);
    const stamp = await changeStamp(server.db);
    await otherDb.insertInto('users').values(userRow('noise')).execute();
    await sql`update rate_limit_counts set used = used + 1`.execute(server.db);
    expect(await changeStamp(server.db)).toBe(stamp);
    // A real change to the gist is in the next answer.
    await server.api('PATCH', path, { token, body: { description: 'changed' } });
    expect((await server.api('GET', path, { token })).body.description).toBe('changed');
  });
});

describe("the stamp's own connection", () => {
  it('is replaced after the server drops it: a read fails at most once, the next answers the current stamp', async () => {
    const before = await changeStamp(db);
    const killed = await sql<{ killed: boolean }>`
      select pg_terminate_backend(pid) as killed from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query like '%from change_counters%'`.execute(db);
    expect(killed.rows.map((r) => r.killed)).toEqual([true]); // one connection read the stamp, and it is gone
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++)
      outcomes.push(
        await changeStamp(db).then(
          (s) => `stamp ${s}`,
          () => 'failed',
        ),
      );
    expect(outcomes.filter((o) => o === 'failed').length).toBeLessThanOrEqual(1);
    expect(outcomes.at(-1)).toBe(`stamp ${before}`);
    await db.insertInto('users').values(userRow('after-drop')).execute();
    expect(BigInt(await changeStamp(db)) - BigInt(before)).toBe(1n);
  });
});

function userRow(login: string) {
  const at = new Date().toISOString();
  const none = { name: null, email: null, company: null, blog: null, location: null, bio: null, suspended_at: null };
  return { login, login_lower: login, type: 'User' as const, ...none, created_at: at, updated_at: at };
}
