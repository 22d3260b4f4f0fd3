// The SQLite dialect's read connections beside its writer, on one file: plain reads go on while a write transaction is
// open (this process's or another connection's), see what is committed, and never what is not.
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTables, scratchDatabase, type Scratch } from './support.js';

interface Tables {
  notes: { id: number; body: string };
}

let s: Scratch;
let db: Kysely<Tables>;

beforeEach(async () => {
  s = await scratchDatabase({ sqlite: true });
  db = s.open() as unknown as Kysely<Tables>;
  await createTables(db, 'create table notes (id integer primary key, body text not null)');
  await db.insertInto('notes').values({ id: 1, body: 'committed' }).execute();
});

afterEach(async () => {
  await s.close();
});

const ids = (q: Kysely<Tables>) => q.selectFrom('notes').select('id').orderBy('id').execute();

describe('the SQLite dialect: readers beside the writer on one file', () => {
  it("plain reads go on while this process's write transaction is open, and see the committed rows, not its own uncommitted one", async () => {
    const seen = await db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 2, body: 'uncommitted' }).execute();
      // The transaction holds the writer: a read that needed it would wait for this transaction, which waits for it.
      const outside = await Promise.all(Array.from({ length: 12 }, () => ids(db)));
      const inside = await ids(trx);
      return { outside, inside };
    });
    expect(seen.outside).toEqual(Array.from({ length: 12 }, () => [{ id: 1 }]));
    expect(seen.inside).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await ids(db)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('reads go on while another connection holds the write lock, and see its rows once it commits', async () => {
    const other = s.open() as unknown as Kysely<Tables>;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    const writer = other.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 3, body: 'other, uncommitted' }).execute();
      holding();
      await released;
    });
    await held;
    try {
      expect(await Promise.all([ids(db), ids(db), ids(db), ids(db)])).toEqual(Array.from({ length: 4 }, () => [{ id: 1 }]));
    } finally {
      release();
    }
    await writer;
    expect(await ids(db)).toEqual([{ id: 1 }, { id: 3 }]);
  });

  it('a read right after a committed write sees it, while other reads run at the same time', async () => {
    for (let i = 2; i <= 40; i++) {
      await db
        .insertInto('notes')
        .values({ id: i, body: `n${i}` })
        .execute();
      const [count, ...others] = await Promise.all([
        db
          .selectFrom('notes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        ids(db),
        ids(db),
      ]);
      expect(Number(count.n)).toBe(i);
      for (const rows of others) expect(rows).toHaveLength(i);
    }
  });
});
