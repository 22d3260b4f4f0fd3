// Opens the database named by a URL: a SQLite file (our sqlite3 dialect) or PostgreSQL (`postgres://…`, Kysely's dialect over pg).
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { advisoryLockPool, registerAdvisoryLocks } from './advisory-lock.js';
import { LazyPool } from './pg-lazy.js';
import { PgStampConnection } from './pg-stamp.js';
import { registerStampHeader, registerStampQuery } from './change-stamp.js';
import { COUNTED_STAMP_SQL } from './change-counters.js';
import { QueryTiming, registerQueryTiming } from './query-timing.js';
import { Sqlite3Dialect } from './sqlite-dialect.js';
import { isPostgresUrl, sqliteFilename } from './urls.js';
import type { Database, Db } from './schema.js';
import { observeWrites, registerWriteVersions, WriteVersions } from './write-observer.js';

export type { Db } from './schema.js';

export function connect(url: string): Db {
  // Committed writes are counted per table (write-observer.ts), so in-process caches can drop what a write changed.
  const versions = new WriteVersions();
  // Empty until metrics watch the queries (query-timing.ts).
  const timing = new QueryTiming();
  const db = open(url, versions, timing);
  registerWriteVersions(db, versions);
  registerQueryTiming(db, timing);
  return db;
}

function open(url: string, versions: WriteVersions, timing: QueryTiming): Db {
  if (isPostgresUrl(url)) {
    // pg itself is loaded with the first connection (pg-lazy.ts).
    const pool = new LazyPool({ connectionString: url, max: 10 }, 'PostgreSQL connection lost');
    // Advisory locks spanning processes hold connections of their own (advisory-lock.ts), ended with the database.
    const locks = advisoryLockPool(url);
    // The change stamp, asked for by cached reads many times a second, has a connection of its own (change-stamp.ts).
    const stamp = new PgStampConnection(url, COUNTED_STAMP_SQL);
    const end = async () => {
      await Promise.all([pool.end(), locks.end(), stamp.end()]);
    };
    const db = new Kysely<Database>({
      dialect: observeWrites(new PostgresDialect({ pool: { connect: () => pool.connect(), end } }), versions, timing),
    });
    registerAdvisoryLocks(db, locks);
    registerStampQuery(db, () => stamp.read());
    return db;
  }
  const filename = sqliteFilename(url);
  if (filename !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  const dialect = new Sqlite3Dialect({ filename, timing });
  const db = new Kysely<Database>({ dialect: observeWrites(dialect, versions, timing) });
  registerStampHeader(db, () => dialect.walIndexHeader());
  return db;
}
