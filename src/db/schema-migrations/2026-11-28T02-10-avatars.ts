// Uploaded profile pictures (issue 27): at most one per account, its bytes in the database (bytea on PostgreSQL, blob
// on SQLite) with the media type read from its magic bytes and the SHA-256 that names it (the ETag). The row goes with
// its account; an account without one shows its identicon.
import type { Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('avatars')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('content', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
    .addColumn('media_type', 'text', (c) => c.notNull())
    /** SHA-256 of the content, hex. */
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('avatars').execute();
}
