// The write observer (write-observer.ts) on the database this run tests: committed writes are counted per table they
// wrote, once per statement outside a transaction and once per table per committed transaction; rolled-back
// transactions and reads count nothing; a write it cannot attribute counts for every table.
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/connect.js';
import { writeVersions, type WriteVersions } from '../../src/db/write-observer.js';
import { createTables, onPostgres, scratchDatabase, type Scratch } from './support.js';

interface Tables {
  notes: { id: number; body: string };
  tags: { id: number; name: string };
}

let s: Scratch;
let db: Kysely<Tables>;
let versions: WriteVersions;

beforeEach(async () => {
  s = await scratchDatabase();
  const opened: Db = s.open();
  versions = writeVersions(opened)!;
  db = opened as unknown as Kysely<Tables>;
  await createTables(
    db,
    'create table notes (id integer primary key, body text not null)',
    'create table tags (id integer primary key, name text not null unique)',
  );
});

afterEach(async () => {
  await s.close();
});

/** The counters now: notes, tags, a table never written, and the total. */
const counts = () => ({
  notes: versions.version('notes'),
  tags: versions.version('tags'),
  other: versions.version('other'),
  total: versions.total(),
});

/** How the counters moved while `work` ran. */
async function moved(work: () => Promise<unknown>): Promise<ReturnType<typeof counts>> {
  const before = counts();
  await work();
  const after = counts();
  return {
    notes: after.notes - before.notes,
    tags: after.tags - before.tags,
    other: after.other - before.other,
    total: after.total - before.total,
  };
}

describe(`the write observer on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('counts each committed statement outside a transaction for the table it wrote, and nothing for reads', async () => {
    expect(await moved(() => db.insertInto('notes').values({ id: 1, body: 'a' }).execute())).toEqual({
      notes: 1,
      tags: 0,
      other: 0,
      total: 1,
    });
    expect(await moved(() => db.updateTable('notes').set({ body: 'b' }).where('id', '=', 1).execute())).toEqual({
      notes: 1,
      tags: 0,
      other: 0,
      total: 1,
    });
    expect(await moved(() => db.insertInto('tags').values({ id: 1, name: 't' }).execute())).toEqual({
      notes: 0,
      tags: 1,
      other: 0,
      total: 1,
    });
    expect(await moved(() => db.deleteFrom('tags').where('id', '=', 1).execute())).toEqual({ notes: 0, tags: 1, other: 0, total: 1 });
    expect(
      await moved(async () => {
        await db.selectFrom('notes').selectAll().execute();
        await db.selectFrom('notes').innerJoin('tags', 'tags.id', 'notes.id').selectAll().execute();
        await sql`select 1`.execute(db);
      }),
    ).toEqual({ notes: 0, tags: 0, other: 0, total: 0 });
  });

  it('counts a committed transaction once per table it wrote, at commit and not before', async () => {
    let inside: ReturnType<typeof counts> | undefined;
    const before = counts();
    const change = await moved(() =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ id: 1, body: 'a' }).execute();
        await trx.insertInto('notes').values({ id: 2, body: 'b' }).execute();
        await trx.updateTable('notes').set({ body: 'c' }).where('id', '=', 1).execute();
        await trx.insertInto('tags').values({ id: 1, name: 't' }).execute();
        inside = counts();
      }),
    );
    expect(inside).toEqual(before);
    expect(change).toEqual({ notes: 1, tags: 1, other: 0, total: 2 });
  });

  it('counts nothing for a transaction rolled back, whether its callback threw or a statement failed', async () => {
    await db.insertInto('tags').values({ id: 1, name: 'taken' }).execute();
    expect(
      await moved(async () => {
        await expect(
          db.transaction().execute(async (trx) => {
            await trx.insertInto('notes').values({ id: 1, body: 'a' }).execute();
            throw new Error('changed my mind');
          }),
        ).rejects.toThrow('changed my mind');
        await expect(
          db.transaction().execute(async (trx) => {
            await trx.insertInto('notes').values({ id: 2, body: 'b' }).execute();
            await trx.insertInto('tags').values({ id: 2, name: 'taken' }).execute();
          }),
        ).rejects.toThrow();
      }),
    ).toEqual({ notes: 0, tags: 0, other: 0, total: 0 });
    expect(await db.selectFrom('notes').select('id').execute()).toEqual([]);
    // The next committed transaction counts only what it wrote, nothing carried over from the rolled-back ones.
    expect(await moved(() => db.transaction().execute((trx) => trx.insertInto('tags').values({ id: 3, name: 'x' }).execute()))).toEqual({
      notes: 0,
      tags: 1,
      other: 0,
      total: 1,
    });
  });

  it('counts a raw write, whose tables it cannot tell, for every table', async () => {
    expect(await moved(() => sql`insert into notes (id, body) values (1, 'raw')`.execute(db))).toEqual({
      notes: 1,
      tags: 1,
      other: 1,
      total: 1,
    });
    expect(await moved(() => db.transaction().execute((trx) => sql`update tags set name = 'y'`.execute(trx)))).toEqual({
      notes: 1,
      tags: 1,
      other: 1,
      total: 1,
    });
  });

  it('keeps counters per database: another connect() counts its own writes only', async () => {
    const other = s.open();
    const otherVersions = writeVersions(other)!;
    expect(otherVersions).not.toBe(versions);
    expect(
      await moved(() => (other as unknown as Kysely<Tables>).insertInto('notes').values({ id: 9, body: 'elsewhere' }).execute()),
    ).toEqual({ notes: 0, tags: 0, other: 0, total: 0 });
    expect(otherVersions.version('notes')).toBe(1);
  });
});
