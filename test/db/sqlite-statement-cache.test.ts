// The SQLite dialect's prepared-statement cache: an LRU per connection; an evicted statement is finalized once and
// prepared again when next asked for, with right results; one new SQL asked for at once is prepared once; the
// database closes cleanly after all of it (no statement left unfinalized).
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { sqlite3, type Database as SqliteDatabase, type Statement } from '../../src/db/sqlite3-module.js';
import { createTables, scratchDatabase, type Scratch } from './support.js';

interface Tables {
  t: { id: number; v: number };
}

let s: Scratch;
/** SQL of each statement prepared and each statement finalized since small() set the table up. */
let prepared: string[];
let finalized: Statement[];
/** Every statement prepared (successfully) and every finalize call, from the start. */
let everPrepared: Statement[];
let everFinalized: Statement[];

beforeEach(async () => {
  s = await scratchDatabase({ sqlite: true });
  prepared = [];
  finalized = [];
  everPrepared = [];
  everFinalized = [];
  const { Database, Statement } = sqlite3();
  const prepare = Database.prototype.prepare as (this: SqliteDatabase, ...a: unknown[]) => Statement;
  vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: SqliteDatabase, ...args: unknown[]) {
    prepared.push(String(args[0]));
    // A statement whose preparing failed (SQL naming a table not there yet) holds nothing to finalize.
    const done = args.at(-1) as (err: Error | null) => void;
    const st = prepare.apply(this, [
      ...args.slice(0, -1),
      (err: Error | null) => {
        if (!err) everPrepared.push(st);
        done(err);
      },
    ]);
    return st;
  } as typeof Database.prototype.prepare);
  const finalize = Statement.prototype.finalize as (this: Statement, ...a: unknown[]) => SqliteDatabase;
  vi.spyOn(Statement.prototype, 'finalize').mockImplementation(function (this: Statement, ...args: unknown[]) {
    finalized.push(this);
    everFinalized.push(this);
    return finalize.apply(this, args);
  } as typeof Statement.prototype.finalize);
});

afterEach(async () => {
  vi.restoreAllMocks();
  await s.close();
});

/** After the database closed: every statement it ever prepared was finalized, each exactly once. */
function expectAllFinalizedOnce(): void {
  expect(everFinalized).toHaveLength(everPrepared.length);
  expect(new Set(everFinalized)).toEqual(new Set(everPrepared));
}

/** A dialect with a cache of `size` statements per connection, one reader, and a table `t` of ids 1..10. */
async function small(size: number): Promise<Kysely<Tables>> {
  const db = s.openSqlite({ statementCacheSize: size, readers: 1 }) as Kysely<Tables>;
  await createTables(db, 'create table t (id integer primary key, v integer not null)');
  await db
    .insertInto('t')
    .values(Array.from({ length: 10 }, (_, i) => ({ id: i + 1, v: (i + 1) * 10 })))
    .execute();
  prepared.length = 0;
  finalized.length = 0;
  return db;
}

/** Ten distinct SELECTs (a literal in each makes its SQL its own), each with its own answer. */
const distinct = (db: Kysely<Tables>, i: number) =>
  db
    .selectFrom('t')
    .select(sql<number>`v + ${sql.lit(i)}`.as('x'))
    .where('id', '=', i + 1)
    .execute();
const sqlOf = (db: Kysely<Tables>, i: number) =>
  db
    .selectFrom('t')
    .select(sql<number>`v + ${sql.lit(i)}`.as('x'))
    .where('id', '=', i + 1)
    .compile().sql;

describe('the SQLite dialect: statement cache', () => {
  it('more distinct statements than the cache holds: each evicted one is finalized once and prepared again with right results', async () => {
    const db = await small(3);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 10; i++) expect(await distinct(db, i)).toEqual([{ x: (i + 1) * 10 + i }]);
    }
    // Cycling through 10 statements with room for 3, every ask misses: 30 prepares, all but the 3 cached finalized.
    expect(prepared).toHaveLength(30);
    expect(finalized).toHaveLength(27);
    expect(new Set(finalized).size).toBe(27);
    await db.destroy();
    expectAllFinalizedOnce();
  });

  it('evicts the least recently used statement, not the oldest prepared', async () => {
    const db = await small(3);
    for (const i of [0, 1, 2, 0, 3, 0, 2]) await distinct(db, i);
    // 0 was used again before 3 came, so 1 went; 0 and 2 stayed cached.
    expect(prepared).toEqual([0, 1, 2, 3].map((i) => sqlOf(db, i)));
    expect(finalized.map((st) => (st as Statement & { sql: string }).sql)).toEqual([sqlOf(db, 1)]);
    await db.destroy();
    expectAllFinalizedOnce();
  });

  it('one statement serves every parameter value, on the reader and on the writer', async () => {
    const db = await small(3);
    for (let id = 1; id <= 10; id++) {
      await db
        .updateTable('t')
        .set({ v: id * 100 })
        .where('id', '=', id)
        .execute();
      expect(await db.selectFrom('t').select('v').where('id', '=', id).execute()).toEqual([{ v: id * 100 }]);
    }
    expect(prepared).toHaveLength(2);
    expect(finalized).toHaveLength(0);
    await db.destroy();
    expectAllFinalizedOnce();
  });

  it('writes with more distinct statements than the cache holds all land', async () => {
    const db = await small(2);
    for (let i = 0; i < 12; i++)
      await db
        .updateTable('t')
        .set({ v: sql<number>`v + ${sql.lit(i)}` })
        .where('id', '=', (i % 10) + 1)
        .execute();
    const rows = await db.selectFrom('t').select(['id', 'v']).orderBy('id').execute();
    expect(rows.map((r) => r.v)).toEqual([10 + 0 + 10, 20 + 1 + 11, 30 + 2, 40 + 3, 50 + 4, 60 + 5, 70 + 6, 80 + 7, 90 + 8, 100 + 9]);
    // The writer keeps its two newest statements, the reader its one: everything else was finalized on eviction.
    expect(new Set(finalized).size).toBe(everPrepared.length - 3);
    await db.destroy();
    expectAllFinalizedOnce();
  });

  it('closes cleanly after the same new queries ran at the same moment, and after statements were evicted', async () => {
    const db = s.open();
    await migrateToLatest(db);
    // 300 distinct statements (more than the cache holds), each asked for by 8 callers at once.
    for (let i = 0; i < 300; i++) {
      // A plain SELECT goes to the read connections (a raw statement would go to the writer).
      const query = () =>
        db
          .selectFrom('users')
          .select(sql<number>`${sql.lit(i)}`.as('n'))
          .where('id', '>', -1)
          .limit(1)
          .execute();
      const rows = await Promise.all(Array.from({ length: 8 }, query));
      expect(rows.every((r) => r.length <= 1)).toBe(true);
    }
    await expect(db.destroy()).resolves.toBeUndefined();
    expectAllFinalizedOnce();
  });
});
