// Gist imports (`hublet gist import`): which gist of this server holds a copy of which gist of another server, per user,
// so a second run adds only what is new. The row goes with the gist (or its owner).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gist_imports')
    .addColumn('gist_id', 'text', (c) => c.primaryKey().references('gists.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** The source gist's API URL (its `url`), as the source server gave it. */
    .addColumn('source', 'text', (c) => c.notNull())
    /** The revision the import created before the source's history arrived (the gist is still at it until the push). */
    .addColumn('placeholder_sha', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gist_imports_user_source').on('gist_imports').columns(['user_id', 'source']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gist_imports').execute();
}
