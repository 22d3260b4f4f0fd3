// Kysely dialect over the `sqlite3` package: one writer connection behind a mutex, a few read-only connections for
// plain SELECTs, a prepared-statement cache per connection, WAL and busy_timeout.
import fs from 'node:fs';
import * as sqlite3 from './sqlite3-module.js';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { QueryTiming } from './query-timing.js';

/** The one statement routed to a fixed connection (see Sqlite3Driver.run). */
export const DATA_VERSION_SQL = 'PRAGMA data_version';
/** The first copy of the WAL-index header. */
const WAL_INDEX_HEADER_BYTES = 48;

export interface SqliteDialectOptions {
  filename: string;
  busyTimeoutMs?: number;
  statementCacheSize?: number;
  /** Read-only connections for SELECTs outside transactions (default 3; none for `:memory:`, which is per connection). */
  readers?: number;
  /** Told how long each wait for the writer took, while metrics watch (query-timing.ts). */
  timing?: QueryTiming;
}

export class Sqlite3Dialect implements Dialect {
  private driver?: Sqlite3Driver;
  constructor(private readonly options: SqliteDialectOptions) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    this.driver = new Sqlite3Driver(this.options);
    return this.driver;
  }
  /** See Sqlite3Driver.walIndexHeader; undefined before the first query opened the database. */
  walIndexHeader(): Buffer | undefined {
    return this.driver?.walIndexHeader();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
}

function open(filename: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(filename, (err) => (err ? reject(err) : resolve(db)));
  });
}

function exec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
}

/** Serialises use of the single connection: Kysely holds it for a whole transaction. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private releaseCurrent?: () => void;
  async lock(): Promise<void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    this.releaseCurrent = release;
  }
  unlock(): void {
    const r = this.releaseCurrent;
    this.releaseCurrent = undefined;
    r?.();
  }
}

/**
 * Why readers: every query is a hop to libuv's thread pool and back. With one connection behind a mutex, 50 concurrent
 * requests of ~8 queries each wait in one line for every hop, and the server idled more than half the time under load
 * (node --cpu-prof, `make bench`). In WAL mode readers never block the writer nor each other, and each SELECT in
 * autocommit mode reads the latest committed state, so a read after a committed write still sees it. Writes and
 * transactions keep the single writer and its mutex (one writer is all SQLite allows anyway).
 */
class Sqlite3Driver implements Driver {
  private db?: sqlite3.Database;
  private writer?: Sqlite3Connection;
  private readonly readers: { conn: Sqlite3Connection; db: sqlite3.Database; busy: number }[] = [];
  private readonly mutex = new Mutex();
  /** A descriptor of the `-shm` file, open from the first walIndexHeader() until destroy(). */
  private shm?: number;
  private readonly header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  constructor(private readonly options: SqliteDialectOptions) {}

  /**
   * The WAL-index header (https://sqlite.org/walformat.html, 2.1), read straight from the `-shm` file every connection
   * of every process maps: its iChange counter grows with each committed transaction, and a commit becomes visible to
   * readers exactly when this header is rewritten, so equal bytes mean nothing was committed in between. One pread
   * (the page cache is the mapping SQLite uses): a hot read learns whether anything changed without a query.
   * The descriptor stays open until destroy(): closing any descriptor of the file would drop this process's POSIX
   * locks on it, SQLite's included. Undefined without a `-shm` file (`:memory:`, not yet opened).
   */
  walIndexHeader(): Buffer | undefined {
    if (!this.db || this.options.filename === ':memory:' || this.options.filename === '') return undefined;
    if (this.shm === undefined) {
      try {
        this.shm = fs.openSync(`${this.options.filename}-shm`, 'r');
      } catch {
        return undefined;
      }
    }
    return fs.readSync(this.shm, this.header, 0, WAL_INDEX_HEADER_BYTES, 0) === WAL_INDEX_HEADER_BYTES ? this.header : undefined;
  }

  async init(): Promise<void> {
    this.db = await open(this.options.filename);
    const busy = this.options.busyTimeoutMs ?? 10_000;
    this.db.configure('busyTimeout', busy);
    // secure_delete: deleted content is overwritten with zeros (in its page and in freed pages), so a deleted secret does
    // not linger in the file; what old WAL frames still hold goes with a truncating checkpoint (dialect.ts scrubDeletedCopies).
    await exec(
      this.db,
      `PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON; PRAGMA busy_timeout = ${busy};`,
    );
    this.writer = new Sqlite3Connection(this.db, this.options.statementCacheSize ?? 200);
    const memory = this.options.filename === ':memory:' || this.options.filename === '';
    const count = memory ? 0 : (this.options.readers ?? 3);
    for (let i = 0; i < count; i++) {
      const db = await open(this.options.filename);
      db.configure('busyTimeout', busy);
      // query_only: a write that reached a reader by mistake fails loudly instead of bypassing the writer's mutex.
      await exec(db, `PRAGMA query_only = 1; PRAGMA secure_delete = ON; PRAGMA busy_timeout = ${busy};`);
      this.readers.push({ conn: new Sqlite3Connection(db, this.options.statementCacheSize ?? 200), db, busy: 0 });
    }
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutingConnection(this);
  }
  /** Takes the writer's mutex; the wait is timed only while metrics watch (otherwise one field read). */
  private lockWriter(): Promise<void> {
    const timer = this.options.timing?.timer;
    if (!timer) return this.mutex.lock();
    const started = performance.now();
    return this.mutex.lock().then(() => timer.writerWait((performance.now() - started) / 1000));
  }
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const routing = connection as RoutingConnection;
    await this.lockWriter();
    routing.inTransaction = true;
    try {
      // IMMEDIATE takes the write lock up front, so two processes never deadlock upgrading a read lock.
      await this.writer!.executeQuery(CompiledQuery.raw('begin immediate'));
    } catch (err) {
      routing.inTransaction = false;
      this.mutex.unlock();
      throw err;
    }
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endTransaction(connection as RoutingConnection, 'commit');
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endTransaction(connection as RoutingConnection, 'rollback');
  }
  private async endTransaction(connection: RoutingConnection, sql: 'commit' | 'rollback'): Promise<void> {
    // Kysely rolls back after a refused commit: that transaction has ended below, and the writer may be another's by now.
    if (!connection.inTransaction) return;
    try {
      await this.writer!.executeQuery(CompiledQuery.raw(sql));
    } catch (err) {
      // A refused COMMIT (a deferred foreign key, SQLITE_BUSY) leaves the transaction open: end it before the writer
      // goes to the next caller, whose statements would otherwise run inside it (and be rolled back with it).
      if (sql === 'commit') await this.writer!.executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
      throw err;
    } finally {
      connection.inTransaction = false;
      this.mutex.unlock();
    }
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction Kysely gave up on without commit or rollback must not keep the writer locked.
    const routing = connection as RoutingConnection;
    if (routing.inTransaction) {
      routing.inTransaction = false;
      this.mutex.unlock();
    }
  }

  /** Runs a query outside a transaction: SELECTs on the least busy reader, everything else on the writer. */
  async run<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // data_version counts commits by *other* connections, per connection: always ask the same reader, which sees the
    // writer's commits and other processes' alike (change-stamp.ts). Without readers (`:memory:`) the writer answers.
    if (compiled.sql === DATA_VERSION_SQL && this.readers.length) return this.readers[0].conn.executeQuery<R>(compiled);
    if (this.readers.length && SelectQueryNode.is(compiled.query)) {
      let reader = this.readers[0];
      for (const r of this.readers) if (r.busy < reader.busy) reader = r;
      reader.busy++;
      try {
        return await reader.conn.executeQuery<R>(compiled);
      } finally {
        reader.busy--;
      }
    }
    await this.lockWriter();
    try {
      return await this.writer!.executeQuery<R>(compiled);
    } finally {
      this.mutex.unlock();
    }
  }
  /** Runs a query inside the transaction that holds the writer. */
  inTransaction<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.writer!.executeQuery<R>(compiled);
  }

  async destroy(): Promise<void> {
    const all = [...(this.writer && this.db ? [{ conn: this.writer, db: this.db }] : []), ...this.readers];
    this.writer = undefined;
    this.db = undefined;
    this.readers.length = 0;
    for (const { conn, db } of all) {
      await conn.finalizeAll();
      await new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
    }
    if (this.shm !== undefined) fs.closeSync(this.shm);
    this.shm = undefined;
  }
}

/** What Kysely holds as "a connection": routes each query to a reader or the writer (see Sqlite3Driver). */
class RoutingConnection implements DatabaseConnection {
  inTransaction = false;
  constructor(private readonly driver: Sqlite3Driver) {}
  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.inTransaction ? this.driver.inTransaction<R>(compiled) : this.driver.run<R>(compiled);
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const result = await this.executeQuery<R>(compiled);
    for (const row of result.rows) yield { rows: [row] };
  }
}

class Sqlite3Connection implements DatabaseConnection {
  private readonly cache = new Map<string, sqlite3.Statement>();
  /** Statements being prepared: a reader runs queries at once, and two of one new SQL must share one statement. */
  private readonly preparing = new Map<string, Promise<sqlite3.Statement>>();
  /** Evicted statements still finalizing: the connection closes only after they are done. */
  private readonly finalizing = new Set<Promise<void>>();
  constructor(
    private readonly db: sqlite3.Database,
    private readonly cacheSize: number,
  ) {}

  private statement(sql: string): Promise<sqlite3.Statement> {
    const cached = this.cache.get(sql);
    if (cached) {
      // Refresh its place in the LRU order.
      this.cache.delete(sql);
      this.cache.set(sql, cached);
      return Promise.resolve(cached);
    }
    const pending = this.preparing.get(sql);
    if (pending) return pending;
    const prepared = new Promise<sqlite3.Statement>((resolve, reject) => {
      const stmt = this.db.prepare(sql, (err) => {
        this.preparing.delete(sql);
        if (err) return reject(err);
        this.cache.set(sql, stmt);
        if (this.cache.size > this.cacheSize) {
          const [oldestSql, oldest] = this.cache.entries().next().value as [string, sqlite3.Statement];
          this.cache.delete(oldestSql);
          const done: Promise<void> = new Promise<void>((r) => oldest.finalize(() => r())).then(() => void this.finalizing.delete(done));
          this.finalizing.add(done);
        }
        resolve(stmt);
      });
    });
    this.preparing.set(sql, prepared);
    return prepared;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiled;
    const params = parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p)) as unknown[];
    const returnsRows = SelectQueryNode.is(compiled.query) || /\breturning\b/i.test(sql) || /^\s*(pragma|with|select)\b/i.test(sql);
    // Transaction control is never cached: it is rare and must not hold statements open.
    if (/^\s*(begin|commit|rollback)/i.test(sql)) {
      await exec(this.db, sql);
      return { rows: [] };
    }
    const stmt = await this.statement(sql);
    if (returnsRows) {
      const rows = await new Promise<R[]>((resolve, reject) =>
        stmt.all(params, (err: Error | null, rows: R[]) => (err ? reject(err) : resolve(rows))),
      );
      return { rows };
    }
    return new Promise((resolve, reject) =>
      stmt.run(params, function (this: sqlite3.RunResult, err: Error | null) {
        if (err) return reject(err);
        resolve({ rows: [], numAffectedRows: BigInt(this.changes), insertId: BigInt(this.lastID) });
      }),
    );
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const result = await this.executeQuery<R>(compiled);
    for (const row of result.rows) yield { rows: [row] };
  }

  async finalizeAll(): Promise<void> {
    await Promise.allSettled([...this.preparing.values()]);
    await Promise.all([...this.cache.values()].map((s) => new Promise<void>((r) => s.finalize(() => r()))));
    await Promise.all([...this.finalizing]);
    this.cache.clear();
  }
}
