// PostgreSQL only (the SQLite pass leaves test/postgres/ out): advisory locks span connections as they span processes
// (two `connect()`s of one database stand for two servers), hold no query connection while waiting, and go with a
// dropped session; the rate-limit counts two servers share add up once.
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAdvisoryLock } from '../../src/db/advisory-lock.js';
import { connect, type Db } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { spanningLock } from '../../src/git/keyed-lock.js';
import { addSharedCounts } from '../../src/http/shared-rate-counts.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase;
let one: Db;
let two: Db;
beforeAll(async () => {
  database = await createTestDatabase(os.tmpdir());
  one = connect(database.url);
  two = connect(database.url);
  await Promise.all([migrateToLatest(one), migrateToLatest(two)]);
});
afterAll(async () => {
  await one?.destroy();
  await two?.destroy();
  await database?.drop();
});

const tick = () => new Promise((r) => setTimeout(r, 20));

describe('withAdvisoryLock across two connections to one database', () => {
  it('runs one holder of a name at a time, in turn; other names do not wait', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = withAdvisoryLock(one, 'test:a', async () => {
      order.push('one in');
      await held;
      order.push('one out');
    });
    while (!order.length) await tick();
    const second = withAdvisoryLock(two, 'test:a', async () => order.push('two in'));
    const other = await withAdvisoryLock(two, 'test:b', async () => 'b ran while a was held');
    for (let i = 0; i < 5; i++) await tick();
    expect(order).toEqual(['one in']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['one in', 'one out', 'two in']);
    expect(other).toBe('b ran while a was held');
  });

  it('releases the lock when the holder throws', async () => {
    await expect(withAdvisoryLock(one, 'test:c', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await withAdvisoryLock(two, 'test:c', async () => 'free')).toBe('free');
  });

  it('spanningLock: 40 holders of one key in two "processes" never overlap, and queries go on while they wait', async () => {
    // One lock per "process", as each server has its own: only PostgreSQL keeps the two apart.
    const locks = [spanningLock('test'), spanningLock('test')];
    const dbs = [one, two];
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        locks[i % 2](dbs[i % 2], 'k', async () => {
          inside++;
          most = Math.max(most, inside);
          // A query on the holder's own database while 19 others of its process wait for the key.
          await dbs[i % 2].selectFrom('users').select('id').execute();
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
  });
});

describe('shared rate-limit counts', () => {
  it('add up the counts of several servers in one window, and start again once it ended', async () => {
    const now = 1_000_000;
    const a = await addSharedCounts(
      one,
      [
        { key: 'user:1', resetAt: now + 60, add: 3 },
        { key: 'ip:10.0.0.1', resetAt: now + 60, add: 1 },
      ],
      now,
    );
    const b = await addSharedCounts(two, [{ key: 'user:1', resetAt: now + 90, add: 4 }], now + 10);
    expect(a.get('user:1')).toEqual({ resetAt: now + 60, used: 3 });
    expect(b.get('user:1')).toEqual({ resetAt: now + 60, used: 7 });
    const c = await addSharedCounts(two, [{ key: 'user:1', resetAt: now + 160, add: 0 }], now + 100);
    expect(c.get('user:1')).toEqual({ resetAt: now + 160, used: 0 });
  });
});
