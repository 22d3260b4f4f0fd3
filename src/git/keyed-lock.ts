// Keyed mutexes: runs with the same key take turns, in the order they asked; other keys do not wait. `keyedLock` within
// this process; `spanningLock` also across the server processes sharing one PostgreSQL database (db/advisory-lock.ts).
import type { Db } from '../db/schema.js';
import { withAdvisoryLock } from '../db/advisory-lock.js';

/** Runs `run` once every earlier run under the same key has settled (resolved or thrown). */
export type KeyedLock = <T>(key: string, run: () => Promise<T>) => Promise<T>;

/** A new keyed lock with its own keys (two locks never wait for each other); keys no run holds or awaits are forgotten. */
export function keyedLock(): KeyedLock {
  const tails = new Map<string, Promise<void>>();
  return async (key, run) => {
    const previous = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const chain = previous.then(() => mine);
    tails.set(key, chain);
    await previous;
    try {
      return await run();
    } finally {
      release();
      if (tails.get(key) === chain) tails.delete(key);
    }
  };
}

/** Like KeyedLock, across every process on the database `db` (the one `connect` returned, not a transaction). */
export type SpanningLock = <T>(db: Db, key: string, run: () => Promise<T>) => Promise<T>;

/**
 * A keyed lock that spans processes: this process's callers of a key take turns first (in order, holding no database
 * connection while they wait), then the one whose turn it is takes the key's PostgreSQL advisory lock, so one run per
 * key at a time across all the servers on the database. `namespace` keeps the keys of different locks apart. On
 * SQLite (one process) it is the in-process lock alone.
 */
export function spanningLock(namespace: string): SpanningLock {
  const local = keyedLock();
  return (db, key, run) => local(key, () => withAdvisoryLock(db, `${namespace}:${key}`, run));
}
