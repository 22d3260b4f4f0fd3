// Repository forks (issue 30): a fork names the repository it was forked from (`parent`) and the root of its network
// (`source`); a repository counts its direct forks (`forks_count`). A deleted parent or source leaves the fork in place
// (set null; the repos area re-parents its forks first, as GitHub does).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('repositories')
    .addColumn('parent_id', 'integer', (c) => c.references('repositories.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('repositories')
    .addColumn('source_id', 'integer', (c) => c.references('repositories.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('repositories')
    .addColumn('forks_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('repositories_parent').on('repositories').column('parent_id').execute();
  await db.schema.createIndex('repositories_source').on('repositories').column('source_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('repositories_source').execute();
  await db.schema.dropIndex('repositories_parent').execute();
  for (const c of ['forks_count', 'source_id', 'parent_id']) await db.schema.alterTable('repositories').dropColumn(c).execute();
}
