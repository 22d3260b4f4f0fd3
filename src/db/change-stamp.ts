// A stamp of everything committed so far: two equal stamps mean no write was committed in between, by this process or
// any other sharing the database. Caches keyed by it (response-cache.ts) stay exact across processes (the CLI in local
// mode, a second server): on SQLite at the price of one pread shared by the requests of one turn of the event loop, on
// PostgreSQL of one tiny query shared by every request that asks in the same moment.
import type { Db } from './schema.js';
import { commitStampQuery, isPostgresDb } from './dialect.js';
import { writeVersions } from './write-observer.js';

/**
 * The stamp from the database's own commit counter (dialect.ts commitStampQuery), which sees every commit, this
 * process's too. Only SQLite without readers (`:memory:`) asks the writer itself, whose own commits `data_version` does
 * not count: there the process's count of write statements is added. Nowhere else: that count grows with statements
 * that change nothing (the job worker's claim finds no job several times a second), and each would empty the cache.
 */
async function queryStamp(db: Db): Promise<string> {
  const row = (await commitStampQuery(db).execute(db)).rows[0];
  const value = String(row ? Object.values(row)[0] : '');
  return isPostgresDb(db) ? value : `${value}/${writeVersions(db)?.total() ?? 0}`;
}

interface Waiter {
  resolve(stamp: string): void;
  reject(err: unknown): void;
}

class StampBatcher {
  /** A query is running or about to start (at the check phase). */
  private busy = false;
  private waiting: Waiter[] = [];
  constructor(private readonly query: () => Promise<string>) {}

  /**
   * Every caller gets a stamp from a query that started after it asked (a query already running may predate a commit
   * the caller has seen); callers that ask while one runs share the next. A query starts at the check phase
   * (setImmediate), after node has read every socket that was ready, so all the requests of one turn of the event loop
   * share it: starting at the first caller's ask sent the turn's other requests to the query after it, two queries a
   * turn where one would do (GET /gists/{id} on PostgreSQL at 50 connections: the main thread saturated, each query
   * costing its share of pg's JavaScript and socket calls).
   */
  next(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.busy || this.waiting.length === 0) return;
    this.busy = true;
    setImmediate(() => this.start());
  }

  private start(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.query().then(
      (stamp) => this.finish(batch, (w) => w.resolve(stamp)),
      (err: unknown) => this.finish(batch, (w) => w.reject(err)),
    );
  }

  private finish(batch: Waiter[], settle: (w: Waiter) => void): void {
    this.busy = false;
    for (const w of batch) settle(w);
    this.schedule();
  }
}

/**
 * The WAL-index header read once for all the requests received in the same turn of the event loop: the read waits for
 * the check phase (setImmediate), after node has read every socket that was ready, so it still follows each request
 * that shares it; a caller asking after it ran waits for the next. Under load one pread serves dozens of requests,
 * whose answers then go out together: GET /gists/{id} at 50 connections went from 0.52x to 0.66x of the baseline (median
 * of five alternating rounds on a busy 2-core host, noisy) against a pread per request.
 */
class HeaderBatcher {
  private waiting: Array<(stamp: string | undefined) => void> = [];
  private readonly readAll = () => {
    const batch = this.waiting;
    this.waiting = [];
    let stamp: string | undefined;
    try {
      stamp = this.read()?.toString('base64');
    } catch {
      stamp = undefined; // the query then answers, or fails within each request
    }
    for (const resolve of batch) resolve(stamp);
  };
  constructor(private readonly read: () => Buffer | undefined) {}

  /** The header as of a read made after this call, base64 (undefined when there is none to read). */
  next(): Promise<string | undefined> {
    return new Promise((resolve) => {
      if (this.waiting.push(resolve) === 1) setImmediate(this.readAll);
    });
  }
}

const batchers = new WeakMap<Db, StampBatcher>();
const headers = new WeakMap<Db, HeaderBatcher>();
const queries = new WeakMap<Db, () => Promise<string>>();

/**
 * The stamp's query run outside Kysely (PostgreSQL: a prepared statement on a connection of its own, pg-stamp.ts):
 * the same text and answer as queryStamp, without building, compiling and parsing it again for every batch of requests.
 */
export function registerStampQuery(db: Db, query: () => Promise<string>): void {
  queries.set(db, query);
}

/** A synchronous source of the stamp (SQLite's WAL-index header, sqlite-dialect.ts); without one, a query asks. */
export function registerStampHeader(db: Db, read: () => Buffer | undefined): void {
  headers.set(db, new HeaderBatcher(read));
}

/**
 * The database's change stamp as of now: from a registered header, else from queryStamp. The WAL-index header changes
 * with every commit of every connection, this process's writer included (a statement that changed nothing commits no
 * frame and leaves it alone).
 */
export function changeStamp(db: Db): Promise<string> {
  // No async function and no `await` of a missing header: every cached read asks, and each extra promise hop is paid
  // by every request of every turn.
  const header = headers.get(db);
  if (!header) return batcherOf(db).next();
  return header.next().then((stamp) => stamp ?? batcherOf(db).next());
}

function batcherOf(db: Db): StampBatcher {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new StampBatcher(queries.get(db) ?? (() => queryStamp(db)));
    batchers.set(db, batcher);
  }
  return batcher;
}
