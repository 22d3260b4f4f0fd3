// dialect.ts on the database this run tests: row locks hold off who they should (and only them), claimers skip each
// other's rows, the violation detectors read each driver's real errors, the commit stamp moves with commits.
import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureChangeCounting } from '../../src/db/change-counters.js';
import type { Db } from '../../src/db/connect.js';
import {
  claimSkippingLocked,
  commitStampQuery,
  isForeignKeyViolation,
  isUniqueViolation,
  lockAgainstChanges,
  lockForWriting,
  lockRows,
  scrubDeletedCopies,
} from '../../src/db/dialect.js';
import { createTables, onPostgres, scratchDatabase, waitingOrSettled, type Scratch } from './support.js';

interface Tables {
  users: { id: number; name: string | null };
  notes: { id: number; user_id: number; body: string | null };
  work: { id: number; taken_by: string | null };
}

let s: Scratch;
let db: Kysely<Tables>;
/** The same database as `db`, typed as the app's (what lockRows takes); `users` here has only id and name. */
let appDb: Db;

beforeEach(async () => {
  s = await scratchDatabase();
  appDb = s.open();
  db = appDb as unknown as Kysely<Tables>;
  await createTables(
    db,
    'create table users (id integer primary key, name text not null unique)',
    'create table notes (id integer primary key, user_id integer not null references users (id), body text)',
    'create table work (id integer primary key, taken_by text)',
  );
  await db
    .insertInto('users')
    .values([1, 2, 3].map((id) => ({ id, name: `u${id}` })))
    .execute();
  await db
    .insertInto('work')
    .values([1, 2, 3].map((id) => ({ id, taken_by: null })))
    .execute();
});

/** Gates not yet opened: a failed test opens them, so the transactions waiting at them end and the database closes. */
const gates: (() => void)[] = [];

afterEach(async () => {
  for (const open of gates.splice(0)) open();
  await s.close();
});

async function failure(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error('the statement succeeded');
    },
    (err: unknown) => err,
  );
}

/** A gate a transaction waits at until the test opens it. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  gates.push(open);
  return { wait, open };
}

/**
 * Whether `work`, started while another transaction holds what it needs, is held back: on PostgreSQL it shows as
 * waiting for a lock; on SQLite its transaction waits for the one writer (it cannot progress until the holder ends).
 */
async function heldBack(work: Promise<unknown>): Promise<boolean> {
  if (onPostgres) return (await waitingOrSettled(s.open(), work)) === 'waiting';
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
  return !settled;
}

describe(`dialect.ts on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('tells unique and primary-key violations from foreign-key ones, on the errors the driver really raises', async () => {
    await db.insertInto('notes').values({ id: 1, user_id: 1, body: null }).execute();
    const duplicateName = await failure(db.insertInto('users').values({ id: 10, name: 'u1' }).execute());
    const duplicateId = await failure(db.insertInto('users').values({ id: 1, name: 'other' }).execute());
    const missingParent = await failure(db.insertInto('notes').values({ id: 2, user_id: 99, body: null }).execute());
    const parentInUse = await failure(db.deleteFrom('users').where('id', '=', 1).execute());
    const missingValue = await failure(db.insertInto('users').values({ id: 11, name: null }).execute());
    const badSyntax = await failure(sql`selec 1`.execute(db));
    const inTransaction = await failure(
      db.transaction().execute((trx) => trx.insertInto('users').values({ id: 12, name: 'u2' }).execute()),
    );

    for (const err of [duplicateName, duplicateId, inTransaction]) {
      expect(isUniqueViolation(err)).toBe(true);
      expect(isForeignKeyViolation(err)).toBe(false);
    }
    for (const err of [missingParent, parentInUse]) {
      expect(isForeignKeyViolation(err)).toBe(true);
      expect(isUniqueViolation(err)).toBe(false);
    }
    for (const err of [missingValue, badSyntax, new Error('UNIQUE'), undefined, null, 'UNIQUE constraint failed']) {
      expect(isUniqueViolation(err)).toBe(false);
      expect(isForeignKeyViolation(err)).toBe(false);
    }
  });

  it('lockRows returns the ids that exist, and a second transaction locking one of them waits until the first ends', async () => {
    expect(await appDb.transaction().execute((trx) => lockRows(trx, 'users', [3, 1, 3, 99]))).toEqual(new Set([1, 3]));
    expect(await appDb.transaction().execute((trx) => lockRows(trx, 'users', []))).toEqual(new Set());

    const order: string[] = [];
    const release = gate();
    const holding = gate();
    const first = appDb.transaction().execute(async (trx) => {
      await lockRows(trx, 'users', [2]);
      holding.open();
      await release.wait;
      await trx.updateTable('users').set({ name: 'first' }).where('id', '=', 2).execute();
      order.push('first commits');
    });
    await holding.wait;
    const second = appDb.transaction().execute(async (trx) => {
      const alive = await lockRows(trx, 'users', [2]);
      const row = await trx.selectFrom('users').select('name').where('id', '=', 2).executeTakeFirstOrThrow();
      order.push(`second locked ${[...alive].join()} and read ${row.name}`);
    });
    expect(await heldBack(second)).toBe(true);
    release.open();
    await Promise.all([first, second]);
    expect(order).toEqual(['first commits', 'second locked 2 and read first']);
  });

  it('lockRows (PostgreSQL: FOR NO KEY UPDATE) lets an insert that merely references the locked row go ahead', async () => {
    const release = gate();
    const holding = gate();
    const first = appDb.transaction().execute(async (trx) => {
      await lockRows(trx, 'users', [1]);
      holding.open();
      await release.wait;
    });
    await holding.wait;
    // On SQLite every write waits for the one writer; on PostgreSQL the insert's key-share lock does not conflict.
    const insert = db.insertInto('notes').values({ id: 7, user_id: 1, body: 'x' }).execute();
    expect(await heldBack(insert)).toBe(!onPostgres);
    release.open();
    await Promise.all([first, insert]);
    expect(await db.selectFrom('notes').select('id').execute()).toEqual([{ id: 7 }]);
  });

  it('lockForWriting holds off another transaction writing the selected row until the first ends', async () => {
    const release = gate();
    const holding = gate();
    const first = db.transaction().execute(async (trx) => {
      const row = await lockForWriting(trx, trx.selectFrom('users').select(['id', 'name']).where('id', '=', 1)).executeTakeFirstOrThrow();
      holding.open();
      await release.wait;
      await trx
        .updateTable('users')
        .set({ name: `${row.name}+first` })
        .where('id', '=', 1)
        .execute();
    });
    await holding.wait;
    const second = db.transaction().execute(async (trx) => {
      const row = await lockForWriting(trx, trx.selectFrom('users').select(['id', 'name']).where('id', '=', 1)).executeTakeFirstOrThrow();
      await trx
        .updateTable('users')
        .set({ name: `${row.name}+second` })
        .where('id', '=', 1)
        .execute();
    });
    expect(await heldBack(second)).toBe(true);
    release.open();
    await Promise.all([first, second]);
    // Neither update was lost: the second read the row after the first's write.
    expect((await db.selectFrom('users').select('name').where('id', '=', 1).executeTakeFirstOrThrow()).name).toBe('u1+first+second');
  });

  it('lockAgainstChanges holds off a delete of the selected row until the transaction ends, not another reader', async () => {
    const release = gate();
    const holding = gate();
    const first = db.transaction().execute(async (trx) => {
      const rows = await lockAgainstChanges(trx, trx.selectFrom('users').select('id').where('id', 'in', [1, 2])).execute();
      holding.open();
      await release.wait;
      await trx
        .insertInto('notes')
        .values(rows.map((r) => ({ id: r.id, user_id: r.id, body: 'kept' })))
        .execute();
    });
    await holding.wait;
    // A plain read goes on (SQLite: on a reader connection; PostgreSQL: FOR SHARE blocks no reader).
    expect(await db.selectFrom('users').select('id').where('id', '=', 1).execute()).toEqual([{ id: 1 }]);
    const remove = db.deleteFrom('users').where('id', '=', 2).execute();
    expect(await heldBack(remove)).toBe(true);
    release.open();
    await first;
    // The delete ran after the note referencing the row was in: it fails as any delete of a parent in use does.
    expect(isForeignKeyViolation(await failure(remove))).toBe(true);
  });

  it('claimSkippingLocked: claimers at the same moment take different rows, none waiting for another', async () => {
    const claimOne = (q: Kysely<Tables>, who: string) =>
      q
        .updateTable('work')
        .set({ taken_by: who })
        .where('id', 'in', claimSkippingLocked(q, q.selectFrom('work').select('id').where('taken_by', 'is', null).orderBy('id').limit(1)))
        .returning('id')
        .execute();
    if (onPostgres) {
      // One claim stays open in a transaction (its row locked); another claimer passes over that row at once.
      const release = gate();
      const holding = gate();
      const first = db.transaction().execute(async (trx) => {
        const got = await claimOne(trx, 'a');
        holding.open();
        await release.wait;
        return got;
      });
      await holding.wait;
      const second = claimOne(db, 'b');
      expect(await waitingOrSettled(s.open(), second)).toBe('settled');
      release.open();
      expect([await first, await second]).toEqual([[{ id: 1 }], [{ id: 2 }]]);
    } else {
      // SQLite runs each claim statement alone under the write lock.
      expect(await Promise.all([claimOne(db, 'a'), claimOne(db, 'b')])).toEqual([[{ id: 1 }], [{ id: 2 }]]);
    }
    expect(await claimOne(db, 'c')).toEqual([{ id: 3 }]);
    expect(await claimOne(db, 'd')).toEqual([]);
  });

  it('the commit stamp query changes once another connection commits a write', async () => {
    // PostgreSQL counts commits per table (change-counters.ts): the scratch tables get their triggers here, as
    // migrateToLatest gives every table of hublet's schema.
    if (onPostgres) await ensureChangeCounting(appDb);
    const stamp = async () => JSON.stringify((await commitStampQuery(db).execute(db)).rows);
    const before = await stamp();
    expect(await stamp()).toBe(before);
    const other = s.open() as unknown as Kysely<Tables>;
    await other.insertInto('users').values({ id: 20, name: 'elsewhere' }).execute();
    expect(await stamp()).not.toBe(before);
  });

  it('scrubDeletedCopies leaves no copy of a deleted value in the database files', async () => {
    const secret = `S3cr3t-${'x'.repeat(40)}`;
    await db.insertInto('users').values({ id: 30, name: secret }).execute();
    await db.deleteFrom('users').where('id', '=', 30).execute();
    await scrubDeletedCopies(db);
    if (!onPostgres) {
      for (const file of [s.url, `${s.url}-wal`]) {
        const bytes = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
        expect(bytes.includes(secret), file).toBe(false);
      }
    }
  });
});
