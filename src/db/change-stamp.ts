// A stamp of everything committed so far: two equal stamps mean no write was committed in between, by this process or
// any other sharing the database. Caches keyed by it (response-cache.ts) stay exact across processes (the CLI in local
// mode, a second server): on SQLite at the price of one pread, on PostgreSQL of one tiny query shared by every request
// that asks in the same moment.
import type { Db } from './schema.js';
import { commitStampQuery } from './dialect.js';
import { writeVersions } from './write-observer.js';

/** The stamp from the database's own commit counter (dialect.ts commitStampQuery). */
async function queryStamp(db: Db): Promise<string> {
  const row = (await commitStampQuery(db).execute(db)).rows[0];
  const value = row ? Object.values(row)[0] : '';
  // The process's own commit count too: `:memory:` has no second connection to notice the writer's commits.
  return `${String(value)}/${writeVersions(db)?.total() ?? 0}`;
}

interface Waiter {
  resolve(stamp: string): void;
  reject(err: unknown): void;
}

class StampBatcher {
  private running = false;
  private waiting: Waiter[] = [];
  constructor(private readonly db: Db) {}

  /**
   * Every caller gets a stamp from a query that started after it asked (a query already running may predate a commit
   * the caller has seen); callers that ask while one runs share the next.
   */
  next(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (!this.running) this.start();
    });
  }

  private start(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.running = true;
    queryStamp(this.db).then(
      (stamp) => this.finish(batch, (w) => w.resolve(stamp)),
      (err: unknown) => this.finish(batch, (w) => w.reject(err)),
    );
  }

  private finish(batch: Waiter[], settle: (w: Waiter) => void): void {
    this.running = false;
    for (const w of batch) settle(w);
    if (this.waiting.length) this.start();
  }
}

const batchers = new WeakMap<Db, StampBatcher>();
const headers = new WeakMap<Db, () => Buffer | undefined>();

/** A synchronous source of the stamp (SQLite's WAL-index header, sqlite-dialect.ts); without one, a query asks. */
export function registerStampHeader(db: Db, read: () => Buffer | undefined): void {
  headers.set(db, read);
}

/** The database's change stamp as of now: at once from a registered header, else from queryStamp. */
export function changeStamp(db: Db): string | Promise<string> {
  const header = headers.get(db)?.();
  if (header) return `${header.toString('base64')}/${writeVersions(db)?.total() ?? 0}`;
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new StampBatcher(db)));
  return batcher.next();
}
