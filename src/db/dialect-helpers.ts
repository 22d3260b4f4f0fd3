// The few places SQLite and PostgreSQL differ at query time (SKIP LOCKED, …) are decided here.
import { PostgresAdapter, type Kysely } from 'kysely';

export function isPostgresDb(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
