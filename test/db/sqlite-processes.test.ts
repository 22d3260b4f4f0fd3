// Two processes writing one SQLite file: each transaction takes the write lock up front (BEGIN IMMEDIATE), so a writer
// that finds it taken waits (busy_timeout) and then goes on from the other's committed state; never SQLITE_BUSY, never a deadlock.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql, type Generated, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTables, scratchDatabase, type Scratch } from './support.js';

const CHILD = fileURLToPath(new URL('./write-lock-child.ts', import.meta.url));

interface Tables {
  log: { id: Generated<number>; who: string };
  counter: { id: number; v: number };
}

let s: Scratch;
let db: Kysely<Tables>;
const children: ChildProcessWithoutNullStreams[] = [];

beforeEach(async () => {
  s = await scratchDatabase({ sqlite: true });
  db = s.open() as unknown as Kysely<Tables>;
  await createTables(
    db,
    'create table log (id integer primary key autoincrement, who text not null)',
    'create table counter (id integer primary key, v integer not null)',
  );
  await db.insertInto('counter').values({ id: 1, v: 0 }).execute();
});

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill();
  await s.close();
});

/** Starts the child on the scratch file; `lines` yields what it prints, `exit` its exit code. */
function child(...args: string[]) {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, args[0], s.url, ...args.slice(1)], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(proc);
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = readline.createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    proc,
    async next(): Promise<string> {
      const r = await lines.next();
      if (r.done) throw new Error(`the child ended early: ${stderr}`);
      return r.value;
    },
    exit: exit.then((code) => {
      if (code !== 0) throw new Error(`the child exited with ${code}: ${stderr}`);
    }),
  };
}

describe('the SQLite dialect: two processes taking the write lock on one file', () => {
  it('a write transaction started while another process holds the lock waits, then reads what that one committed', async () => {
    const other = child('hold');
    expect(await other.next()).toBe('holding');
    let settled = false;
    // Read-then-write, as count-then-write code does: it must start from the other process's committed state.
    const mine = db.transaction().execute(async (trx) => {
      const { n } = await trx
        .selectFrom('log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('log')
        .values({ who: `parent after ${n}` })
        .execute();
    });
    mine.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Give this process's BEGIN every chance to reach the lock the other holds.
    for (let i = 0; i < 30; i++) await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    other.proc.stdin.write('commit\n');
    expect(await other.next()).toBe('committed');
    await other.exit;
    await mine;
    expect(await db.selectFrom('log').select('who').orderBy('id').execute()).toEqual([{ who: 'child' }, { who: 'parent after 1' }]);
  });

  it('two processes incrementing one counter at once, read then write, lose no update and never fail', async () => {
    const rounds = 150;
    const other = child('increment', String(rounds));
    expect(await other.next()).toBe('ready');
    other.proc.stdin.write('go\n');
    const mine = (async () => {
      for (let i = 0; i < rounds; i++) {
        await db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ v: number }>`select v from counter where id = 1`.execute(trx);
          await sql`update counter set v = ${rows[0].v + 1} where id = 1`.execute(trx);
        });
      }
    })();
    await Promise.all([mine, other.next(), other.exit]);
    expect(await db.selectFrom('counter').select('v').where('id', '=', 1).executeTakeFirstOrThrow()).toEqual({ v: 2 * rounds });
  });
});
