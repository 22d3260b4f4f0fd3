// Which tables this process has written, counted once each write is committed: in-process caches (the token lookup)
// compare a table's version before and after to drop, at once, what a committed write may have changed.
import {
  AliasNode,
  DeleteQueryNode,
  InsertQueryNode,
  RawNode,
  SelectQueryNode,
  TableNode,
  UpdateQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type OperationNode,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { QueryTiming } from './query-timing.js';

/** Per-table counters of committed writes; a write whose tables are unknown (raw SQL, DDL) counts for every table. */
export class WriteVersions {
  private readonly tables = new Map<string, number>();
  private unknown = 0;
  private all = 0;

  /** Changes (only ever grows) whenever this process commits a write to any table. */
  total(): number {
    return this.all;
  }

  /** Changes (only ever grows) whenever a committed write in this process may have changed `table`. */
  version(table: string): number {
    return (this.tables.get(table) ?? 0) + this.unknown;
  }

  committed(tables: Iterable<string>): void {
    for (const t of tables) {
      this.all++;
      if (t === '*') this.unknown++;
      else this.tables.set(t, (this.tables.get(t) ?? 0) + 1);
    }
  }
}

const registry = new WeakMap<object, WriteVersions>();

/** The counters of a database opened by connect(); undefined for a transaction or another Kysely instance. */
export function writeVersions(db: Kysely<any>): WriteVersions | undefined {
  return registry.get(db);
}

export function registerWriteVersions(db: Kysely<any>, versions: WriteVersions): void {
  registry.set(db, versions);
}

function tableName(node: OperationNode | undefined): string {
  if (node && TableNode.is(node)) return node.table.identifier.name;
  if (node && AliasNode.is(node)) return tableName(node.node);
  return '*';
}

/** The tables a statement writes: none for a SELECT, `*` when it cannot tell. */
function writtenTables(query: CompiledQuery): string[] {
  const node = query.query;
  if (SelectQueryNode.is(node)) return [];
  if (InsertQueryNode.is(node)) return [tableName(node.into)];
  if (UpdateQueryNode.is(node)) return [tableName(node.table)];
  if (DeleteQueryNode.is(node)) return node.from.froms.map(tableName);
  if (RawNode.is(node) && /^\s*(select\b|pragma data_version\s*$)/i.test(query.sql)) return [];
  return ['*'];
}

class ObservedConnection implements DatabaseConnection {
  inTransaction = false;
  readonly written = new Set<string>();
  constructor(
    readonly inner: DatabaseConnection,
    private readonly versions: WriteVersions,
    private readonly timing: QueryTiming | undefined,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const tables = writtenTables(compiled);
    // Timed only while metrics watch (query-timing.ts): otherwise one field read.
    const timer = this.timing?.timer;
    const started = timer ? performance.now() : 0;
    // In a span while traces are on (SQLite only, query-timing.ts): otherwise one more field read.
    const tracer = this.timing?.tracer;
    try {
      return await (tracer ? tracer.trace(compiled, () => this.inner.executeQuery<R>(compiled)) : this.inner.executeQuery<R>(compiled));
    } finally {
      timer?.query(tables.length ? 'write' : 'read', (performance.now() - started) / 1000);
      // Outside a transaction the statement committed by itself (or failed: counting it anyway is only cautious).
      if (tables.length) {
        if (this.inTransaction) for (const t of tables) this.written.add(t);
        else this.versions.committed(tables);
      }
    }
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiled, chunkSize);
  }
}

class ObservedDriver implements Driver {
  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  constructor(
    private readonly inner: Driver,
    private readonly versions: WriteVersions,
    private readonly timing: QueryTiming | undefined,
  ) {
    // Only what the inner driver supports (Kysely asks whether savepoints exist).
    const forward = (name: 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint') => {
      const fn = inner[name];
      if (fn)
        this[name] = (c: DatabaseConnection, n: string, compile: QueryCompiler['compileQuery']) =>
          fn.call(inner, (c as ObservedConnection).inner, n, compile);
    };
    forward('savepoint');
    forward('rollbackToSavepoint');
    forward('releaseSavepoint');
  }

  init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new ObservedConnection(await this.inner.acquireConnection(), this.versions, this.timing);
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as ObservedConnection;
    await this.inner.beginTransaction(c.inner, settings);
    c.inTransaction = true;
    c.written.clear();
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.endTransaction(connection as ObservedConnection, 'commitTransaction');
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.endTransaction(connection as ObservedConnection, 'rollbackTransaction');
  }
  /** Ends the transaction either way; a commit counts its writes (a failed one too: counting is only cautious). */
  private async endTransaction(c: ObservedConnection, end: 'commitTransaction' | 'rollbackTransaction'): Promise<void> {
    try {
      await this.inner[end](c.inner);
    } finally {
      c.inTransaction = false;
      if (end === 'commitTransaction') this.versions.committed(c.written);
      c.written.clear();
    }
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as ObservedConnection).inner);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Wraps a dialect so every committed write is counted in `versions` (and every query timed while `timing` has a timer). */
export function observeWrites(dialect: Dialect, versions: WriteVersions, timing?: QueryTiming): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new ObservedDriver(dialect.createDriver(), versions, timing),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
