// The SQLite dialect's one writer after a transaction fails: whether the callback throws, a statement in it fails, its
// BEGIN IMMEDIATE times out or its COMMIT is refused, it is rolled back and the writer is free for the next write.
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTables, scratchDatabase, type Scratch } from './support.js';

interface Tables {
  parents: { id: number };
  kids: { id: number; parent_id: number };
}

let s: Scratch;
let db: Kysely<Tables>;

beforeEach(async () => {
  s = await scratchDatabase({ sqlite: true });
  db = s.open() as unknown as Kysely<Tables>;
  await createTables(
    db,
    'create table parents (id integer primary key)',
    'create table kids (id integer primary key, parent_id integer not null references parents (id))',
  );
  await db.insertInto('parents').values({ id: 1 }).execute();
});

afterEach(async () => {
  await s.close();
});

const kidIds = async (q: Kysely<Tables> = db) => (await q.selectFrom('kids').select('id').orderBy('id').execute()).map((r) => r.id);

/** The writer is free: an autocommit write and a transaction both go through, and their rows are there. */
async function expectWriterFree(id: number): Promise<void> {
  await db.insertInto('kids').values({ id, parent_id: 1 }).execute();
  await db.transaction().execute((trx) =>
    trx
      .insertInto('kids')
      .values({ id: id + 1, parent_id: 1 })
      .execute(),
  );
  expect((await kidIds()).slice(-2)).toEqual([id, id + 1]);
}

describe('the SQLite dialect: a failed transaction releases the writer', () => {
  it('a transaction whose callback throws is rolled back, and the next writes proceed', async () => {
    const boom = new Error('boom');
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('kids').values({ id: 1, parent_id: 1 }).execute();
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await kidIds()).toEqual([]);
    await expectWriterFree(10);
  });

  it('a transaction whose statement fails is rolled back, and the next writes proceed', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('kids').values({ id: 1, parent_id: 1 }).execute();
        await trx.insertInto('kids').values({ id: 2, parent_id: 99 }).execute();
      }),
    ).rejects.toThrow(/FOREIGN KEY constraint failed/);
    expect(await kidIds()).toEqual([]);
    await expectWriterFree(10);
  });

  it('failing and succeeding transactions queued at once: each failure rolls back only itself', async () => {
    const runs = Array.from({ length: 20 }, (_, i) =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('kids')
          .values({ id: i + 1, parent_id: 1 })
          .execute();
        if (i % 3 === 0) throw new Error(`fail ${i}`);
      }),
    );
    const outcomes = await Promise.allSettled(runs);
    expect(outcomes.map((o) => o.status)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? 'rejected' : 'fulfilled')));
    expect(await kidIds()).toEqual(Array.from({ length: 20 }, (_, i) => i + 1).filter((id) => (id - 1) % 3 !== 0));
    await expectWriterFree(100);
  });

  it('a BEGIN IMMEDIATE that times out (another connection holds the lock) fails, and the writer is free afterwards', async () => {
    const other = s.open() as unknown as Kysely<Tables>;
    const impatient = s.openSqlite({ busyTimeoutMs: 20 }) as Kysely<Tables>;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    const holder = other.transaction().execute(async (trx) => {
      await trx.insertInto('kids').values({ id: 1, parent_id: 1 }).execute();
      holding();
      await released;
    });
    await held;
    try {
      await expect(
        impatient.transaction().execute((trx) => trx.insertInto('kids').values({ id: 2, parent_id: 1 }).execute()),
      ).rejects.toThrow(/SQLITE_BUSY/);
    } finally {
      release();
    }
    await holder;
    await impatient.transaction().execute((trx) => trx.insertInto('kids').values({ id: 3, parent_id: 1 }).execute());
    await impatient.insertInto('kids').values({ id: 4, parent_id: 1 }).execute();
    expect(await kidIds()).toEqual([1, 3, 4]);
  });

  it('a refused COMMIT (a deferred foreign key) rolls the transaction back; a write queued meanwhile lands on its own', async () => {
    const queued: Promise<unknown>[] = [];
    const failing = db.transaction().execute(async (trx) => {
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      await trx.insertInto('kids').values({ id: 1, parent_id: 1 }).execute();
      await trx.insertInto('kids').values({ id: 2, parent_id: 99 }).execute(); // checked only at COMMIT
      // These wait for the writer: none may run inside the transaction whose COMMIT fails (and be rolled back with it).
      for (let id = 3; id < 13; id++) {
        queued.push(db.insertInto('kids').values({ id, parent_id: 1 }).execute());
        queued.push(
          db.transaction().execute((t) =>
            t
              .insertInto('kids')
              .values({ id: id + 100, parent_id: 1 })
              .execute(),
          ),
        );
      }
    });
    await expect(failing).rejects.toThrow(/FOREIGN KEY constraint failed/);
    await Promise.all(queued);
    const ids = Array.from({ length: 10 }, (_, i) => i + 3);
    expect(await kidIds()).toEqual([...ids, ...ids.map((id) => id + 100)]);
    await expectWriterFree(200);
  });
});
