// Migrations (exports of an organization's or a user's repositories) and the repositories each one names.
import type { Kysely } from 'kysely';
import { isPostgres, withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('migrations'))
    .addColumn('guid', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('lock_repositories', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exclude_metadata', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exclude_git_data', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exclude_attachments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exclude_releases', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exclude_owner_projects', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('org_metadata_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failure_reason', 'text')
    .addColumn('archive_key', 'text')
    .addColumn('archive_size', isPostgres(db) ? 'bigint' : 'integer')
    .addColumn('archive_secret', 'text', (c) => c.notNull())
    .addColumn('exported_at', 'text')
    .addColumn('archive_expires_at', 'text')
    .addColumn('archive_deleted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('migrations_owner').on('migrations').columns(['owner_id', 'kind', 'id']).execute();

  await db.schema
    .createTable('migration_repositories')
    .addColumn('migration_id', 'integer', (c) => c.notNull().references('migrations.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('migration_repositories_pk', ['migration_id', 'repository_id'])
    .execute();
  await db.schema.createIndex('migration_repositories_repository').on('migration_repositories').column('repository_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('migration_repositories').execute();
  await db.schema.dropTable('migrations').execute();
}
