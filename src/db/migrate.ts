// Brings the schema up to date at start; refuses a database written by a newer hublet. Servers starting together on one
// PostgreSQL database take turns (an advisory lock), so the schema is migrated once and the others find it done.
import { Migrator, sql } from 'kysely';
import { withAdvisoryLock } from './advisory-lock.js';
import { ensureChangeCounting } from './change-counters.js';
import { isPostgresDb } from './dialect.js';
import { schemaMigrationProvider, schemaMigrations } from './schema-migrations/index.js';
import type { Db } from './connect.js';

export class NewerDatabaseError extends Error {}

/** Applies the schema migrations this database lacks, one process at a time (NewerDatabaseError for a newer schema). */
export async function migrateToLatest(db: Db): Promise<void> {
  await withAdvisoryLock(db, 'schema-migrations', () => migrateOnce(db));
}

async function migrateOnce(db: Db): Promise<void> {
  const known = new Set(Object.keys(schemaMigrations));
  const applied = await appliedMigrations(db);
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new NewerDatabaseError(
      `This database was written by a newer version of hublet (it has schema migration ${unknown[unknown.length - 1]} that this version does not know). Upgrade hublet or point it at another database.`,
    );
  }
  const migrator = new Migrator({ db, provider: schemaMigrationProvider, allowUnorderedMigrations: true });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  if (isPostgresDb(db)) await ensureChangeCounting(db);
}

async function appliedMigrations(db: Db): Promise<string[]> {
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return rows.rows.map((r) => r.name);
  } catch {
    return []; // a fresh database has no migration table yet
  }
}
