// Kysely dialect over the `sqlite3` package: one connection, a mutex, a prepared-statement cache, WAL and busy_timeout.
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

export interface SqliteDialectOptions {
  filename: string;
  busyTimeoutMs?: number;
  statementCacheSize?: number;
}

export class Sqlite3Dialect implements Dialect {
  constructor(private readonly options: SqliteDialectOptions) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    return new Sqlite3Driver(this.options);
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

class Sqlite3Driver implements Driver {
  private db?: sqlite3.Database;
  private connection?: Sqlite3Connection;
  private readonly mutex = new Mutex();
  constructor(private readonly options: SqliteDialectOptions) {}

  async init(): Promise<void> {
    this.db = await open(this.options.filename);
    const busy = this.options.busyTimeoutMs ?? 10_000;
    this.db.configure('busyTimeout', busy);
    await exec(this.db, `PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = ${busy};`);
    this.connection = new Sqlite3Connection(this.db, this.options.statementCacheSize ?? 200);
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return this.connection!;
  }
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    // IMMEDIATE takes the write lock up front, so two processes never deadlock upgrading a read lock.
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }
  async destroy(): Promise<void> {
    await this.connection?.finalizeAll();
    const db = this.db;
    this.db = undefined;
    if (db) await new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
  }
}

class Sqlite3Connection implements DatabaseConnection {
  private readonly cache = new Map<string, sqlite3.Statement>();
  constructor(private readonly db: sqlite3.Database, private readonly cacheSize: number) {}

  private statement(sql: string): Promise<sqlite3.Statement> {
    const cached = this.cache.get(sql);
    if (cached) {
      // Refresh its place in the LRU order.
      this.cache.delete(sql);
      this.cache.set(sql, cached);
      return Promise.resolve(cached);
    }
    return new Promise((resolve, reject) => {
      const stmt = this.db.prepare(sql, (err) => {
        if (err) return reject(err);
        this.cache.set(sql, stmt);
        if (this.cache.size > this.cacheSize) {
          const [oldestSql, oldest] = this.cache.entries().next().value as [string, sqlite3.Statement];
          this.cache.delete(oldestSql);
          oldest.finalize();
        }
        resolve(stmt);
      });
    });
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
    await Promise.all([...this.cache.values()].map((s) => new Promise<void>((r) => s.finalize(() => r()))));
    this.cache.clear();
  }
}
