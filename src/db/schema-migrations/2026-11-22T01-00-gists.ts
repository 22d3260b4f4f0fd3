// Gists: metadata, current files (bytes), revisions, stars and comments. The history itself lives in git.
import type { Kysely } from 'kysely';
import { isPostgres, withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gists')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('public', 'integer', (c) => c.notNull())
    .addColumn('fork_of', 'text', (c) => c.references('gists.id').onDelete('set null'))
    .addColumn('head_sha', 'text', (c) => c.notNull())
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gists_owner_updated').on('gists').columns(['owner_id', 'updated_at']).execute();
  await db.schema.createIndex('gists_public_updated').on('gists').columns(['public', 'updated_at']).execute();
  await db.schema.createIndex('gists_fork_of').on('gists').column('fork_of').execute();

  await db.schema
    .createTable('gist_files')
    .addColumn('gist_id', 'text', (c) => c.notNull().references('gists.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('blob_sha', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('binary', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('gist_files_pk', ['gist_id', 'filename'])
    .execute();

  await db.schema
    .createTable('gist_revisions')
    .addColumn('gist_id', 'text', (c) => c.notNull().references('gists.id').onDelete('cascade'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('committed_at', 'text', (c) => c.notNull())
    .addColumn('additions', 'integer', (c) => c.notNull())
    .addColumn('deletions', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('gist_revisions_pk', ['gist_id', 'version'])
    .execute();
  await db.schema.createIndex('gist_revisions_position').on('gist_revisions').columns(['gist_id', 'position']).execute();

  await db.schema
    .createTable('gist_stars')
    .addColumn('gist_id', 'text', (c) => c.notNull().references('gists.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('gist_stars_pk', ['gist_id', 'user_id'])
    .execute();
  await db.schema.createIndex('gist_stars_user').on('gist_stars').columns(['user_id', 'created_at']).execute();

  await withId(db, db.schema.createTable('gist_comments'))
    .addColumn('gist_id', 'text', (c) => c.notNull().references('gists.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gist_comments_gist').on('gist_comments').columns(['gist_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['gist_comments', 'gist_stars', 'gist_revisions', 'gist_files', 'gists']) await db.schema.dropTable(t).execute();
}
