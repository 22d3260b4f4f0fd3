// Locks that span processes: PostgreSQL advisory locks, keyed by a name, for work that must not interleave between the
// server processes sharing one database (a gist's writes, a repository's pushes, start-up). SQLite has one process.
//
// A session lock is held by a connection for as long as the work runs, which may be seconds (a push). Those connections
// come from a small pool of their own, never from the pool queries use: a holder needs query connections to finish, so
// holders sitting on the query pool's connections could starve each other. A process that dies, or a connection that
// drops, releases its locks with its session (PostgreSQL ends it), so a crash never leaves a lock behind.
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isPostgresDb } from './dialect.js';
import { LazyPool } from './pg-lazy.js';

/** Lock connections per process: beyond this many locks held at once (of different keys), a locker waits for one. */
const LOCK_CONNECTIONS = 10;
/** An unused lock connection is closed after this long, and never keeps the process alive. */
const IDLE_MS = 5_000;

const pools = new WeakMap<Kysely<any>, LazyPool>();

/** The lock connections of a PostgreSQL database at `url` (db/connect.ts makes one per database it opens). */
export function advisoryLockPool(url: string): LazyPool {
  // A lock connection the server drops is replaced on next use (its locks went with its session).
  return new LazyPool(
    { connectionString: url, max: LOCK_CONNECTIONS, idleTimeoutMillis: IDLE_MS, allowExitOnIdle: true },
    'PostgreSQL lock connection lost',
  );
}

/** Makes `locks` the lock connections of `db` (db/connect.ts ends them when the database is destroyed). */
export function registerAdvisoryLocks(db: Kysely<any>, locks: LazyPool): void {
  pools.set(db, locks);
}

/** The 64-bit advisory lock id of a name (the first 8 bytes of its SHA-256, as a signed bigint in text). */
function advisoryKey(name: string): string {
  return crypto.createHash('sha256').update(`hublet:${name}`).digest().readBigInt64BE(0).toString();
}

/**
 * Runs `run` while this process holds the PostgreSQL advisory lock `name`, waiting (in PostgreSQL's queue) while another
 * process holds it: one run under a name at a time across the processes. A process must not ask twice for a name it
 * holds (PostgreSQL would grant it again): callers queue their own process first (git/keyed-lock.ts `spanningLock`).
 * On SQLite (one process) it simply runs. `db` is the database `connect` returned, not a transaction.
 */
export async function withAdvisoryLock<T>(db: Kysely<any>, name: string, run: () => Promise<T>): Promise<T> {
  if (!isPostgresDb(db)) return run();
  const pool = pools.get(db);
  if (!pool) throw new Error('withAdvisoryLock: this PostgreSQL database has no lock connections (open it with db/connect.ts)');
  const key = advisoryKey(name);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('select pg_advisory_lock($1::bigint)', [key]);
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
  try {
    return await run();
  } finally {
    try {
      await client.query('select pg_advisory_unlock($1::bigint)', [key]);
    } catch (err) {
      broken = err as Error; // the session is gone (and its lock with it): drop the connection
    }
    client.release(broken);
  }
}

/**
 * Takes the advisory lock `name` until the transaction `trx` ends (PostgreSQL `pg_advisory_xact_lock`), waiting for any
 * other transaction holding it: for a check-then-insert that must run once between processes. A no-op on SQLite, whose
 * write transactions already run one at a time.
 */
export async function lockForTransaction(trx: Kysely<any>, name: string): Promise<void> {
  if (!isPostgresDb(trx)) return;
  await sql`select pg_advisory_xact_lock(${advisoryKey(name)}::bigint)`.execute(trx);
}
