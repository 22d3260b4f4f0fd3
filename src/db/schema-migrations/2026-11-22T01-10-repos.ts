// Repositories (metadata; the git data lives in bare repositories on disk), their migration locks and rename redirects.
import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('repositories'))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('homepage', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('default_branch', 'text', (c) => c.notNull())
    .addColumn('topics', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('has_issues', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('has_projects', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('has_wiki', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('has_downloads', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('has_discussions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_template', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_forking', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('web_commit_signoff_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('merge_settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('size_kb', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('language', 'text')
    .addColumn('pushed_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('repositories_owner_name', ['owner_id', 'name_lower'])
    .execute();

  await db.schema
    .createTable('repository_locks')
    .addColumn('repository_id', 'integer', (c) => c.primaryKey().references('repositories.id').onDelete('cascade'))
    .addColumn('migration_id', 'integer', (c) => c.notNull())
    .addColumn('locked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('repository_locks_migration').on('repository_locks').column('migration_id').execute();

  await db.schema
    .createTable('repository_redirects')
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('repository_redirects_pk', ['owner_id', 'name_lower'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['repository_redirects', 'repository_locks', 'repositories']) await db.schema.dropTable(t).execute();
}
