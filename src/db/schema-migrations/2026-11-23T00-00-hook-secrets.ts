// Hook secrets sealed at rest: the sealed URL and the sealing key per hook, a deleted hook's farewell (what its `meta`
// delivery needs, sealed), no config in delivery jobs, and a mark asking the next start to scrub what was in the clear.
// The sealing itself is done at start by the application (src/hooks/reseal.ts): a migration never holds the key.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('hooks').addColumn('url_sealed', 'text').execute();
  // Null marks the rows written before this migration: their values are still in the clear.
  await db.schema.alterTable('hooks').addColumn('sealed_with', 'text').execute();

  await db.schema
    .createTable('hook_farewells')
    .addColumn('hook_id', 'integer', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('url_sealed', 'text')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('insecure_ssl', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('username', 'text')
    .addColumn('password', 'text')
    .addColumn('sealed_with', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Delivery jobs used to carry a deleted hook's whole config (`target`, secret included) for 30 days: taken out. A
  // `meta` delivery still pending then finds no config and is dropped.
  const payload = isPostgres(db) ? sql`(payload::jsonb - 'target')::text` : sql`json_remove(payload, '$.target')`;
  await sql`update jobs set payload = ${payload} where queue = 'hooks.deliver' and payload like '%"target"%'`.execute(db);

  // A database in use before (it has users) may hold secrets in the clear in event payloads and free pages.
  await db.schema
    .createTable('hook_secrets_scrub')
    .addColumn('pending', 'integer', (c) => c.notNull())
    .execute();
  const used = await sql<{ n: number | string }>`select count(*) as n from users`.execute(db);
  if (Number(used.rows[0]?.n ?? 0) > 0) await sql`insert into hook_secrets_scrub (pending) values (1)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('hook_secrets_scrub').execute();
  await db.schema.dropTable('hook_farewells').execute();
  await db.schema.alterTable('hooks').dropColumn('sealed_with').execute();
  await db.schema.alterTable('hooks').dropColumn('url_sealed').execute();
}
