// Rate-limit counts shared by the server processes on one PostgreSQL database: per key (`user:<id>` or `ip:<address>`),
// the current window's end (epoch seconds) and the requests counted in it. Processes count locally and add their counts
// here every ~200 ms (http/shared-rate-counts.ts). A SQLite database (one process) has the table but never uses it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit_counts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_counts_reset_at').on('rate_limit_counts').column('reset_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_counts').execute();
}
