// Hook scopes: a hook belongs to an organization, a repository or the whole site (global hooks). `scope` says which,
// `org_id` (now nullable) or `repository_id` names the target; one hook per URL within a target. Existing rows are
// organization hooks. A deleted hook's farewell row keeps its scope too (its `meta` delivery's headers name the target).
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

const HOOK_COLUMNS = [
  'id',
  'org_id',
  'name',
  'events',
  'active',
  'url',
  'content_type',
  'insecure_ssl',
  'secret',
  'username',
  'password',
  'created_by_app_id',
  'disabled_reason',
  'created_at',
  'updated_at',
  'url_sealed',
  'sealed_with',
];
const FAREWELL_COLUMNS = [
  'hook_id',
  'org_id',
  'url',
  'url_sealed',
  'content_type',
  'insecure_ssl',
  'secret',
  'username',
  'password',
  'sealed_with',
  'created_at',
];

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of ['hooks', 'hook_farewells']) {
      await sql`alter table ${sql.table(table)} alter column org_id drop not null`.execute(db);
      await db.schema
        .alterTable(table)
        .addColumn('scope', 'text', (c) => c.notNull().defaultTo('organization'))
        .execute();
      await db.schema
        .alterTable(table)
        .addColumn('repository_id', 'integer', (c) => c.references('repositories.id').onDelete('cascade'))
        .execute();
    }
    await db.schema.dropIndex('hooks_org_url').execute();
  } else {
    await rebuildOnSqlite(db);
  }
  // One hook per URL within its target (the service answers 422 first; this holds under concurrent creates).
  await sql`create unique index hooks_target_url on hooks (scope, coalesce(org_id, 0), coalesce(repository_id, 0), url)`.execute(db);
  await db.schema.createIndex('hooks_repository').on('hooks').columns(['repository_id', 'id']).execute();
}

/**
 * SQLite cannot drop a NOT NULL: both tables are rebuilt (SQLite's documented procedure: foreign keys off, copy, drop,
 * rename, check), in one transaction. The rows of `hook_deliveries` keep pointing at the same hook ids.
 */
async function rebuildOnSqlite(db: Kysely<any>): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable('hooks_new')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('org_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('insecure_ssl', 'text', (c) => c.notNull())
        .addColumn('secret', 'text')
        .addColumn('username', 'text')
        .addColumn('password', 'text')
        .addColumn('created_by_app_id', 'integer')
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('url_sealed', 'text')
        .addColumn('sealed_with', 'text')
        .addColumn('scope', 'text', (c) => c.notNull().defaultTo('organization'))
        .addColumn('repository_id', 'integer', (c) => c.references('repositories.id').onDelete('cascade'))
        .execute();
      await copyInto(trx, 'hooks', HOOK_COLUMNS);
      await trx.schema
        .createTable('hook_farewells_new')
        .addColumn('hook_id', 'integer', (c) => c.primaryKey())
        .addColumn('org_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('url_sealed', 'text')
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('insecure_ssl', 'text', (c) => c.notNull())
        .addColumn('secret', 'text')
        .addColumn('username', 'text')
        .addColumn('password', 'text')
        .addColumn('sealed_with', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull().defaultTo('organization'))
        .addColumn('repository_id', 'integer', (c) => c.references('repositories.id').onDelete('cascade'))
        .execute();
      await copyInto(trx, 'hook_farewells', FAREWELL_COLUMNS);
      await trx.schema.createIndex('hooks_org').on('hooks').columns(['org_id', 'id']).execute();
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length) throw new Error(`hook scopes migration: ${broken.rows.length} rows fail their foreign keys`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/** Copies `table` into `<table>_new`, drops it and gives the new table its name (its indexes went with the old one). */
async function copyInto(trx: Kysely<any>, table: string, columns: string[]): Promise<void> {
  const list = sql.join(columns.map((c) => sql.ref(c)));
  await sql`insert into ${sql.table(`${table}_new`)} (${list}) select ${list} from ${sql.table(table)}`.execute(trx);
  await trx.schema.dropTable(table).execute();
  await trx.schema.alterTable(`${table}_new`).renameTo(table).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Repository and global hooks have no place in the older schema.
  await db.deleteFrom('hooks').where('scope', '!=', 'organization').execute();
  await db.deleteFrom('hook_farewells').where('scope', '!=', 'organization').execute();
  await db.schema.dropIndex('hooks_repository').execute();
  await db.schema.dropIndex('hooks_target_url').execute();
  await db.schema.createIndex('hooks_org_url').on('hooks').columns(['org_id', 'url']).unique().execute();
  if (isPostgres(db)) {
    for (const table of ['hooks', 'hook_farewells']) {
      await db.schema.alterTable(table).dropColumn('repository_id').execute();
      await db.schema.alterTable(table).dropColumn('scope').execute();
      await sql`alter table ${sql.table(table)} alter column org_id set not null`.execute(db);
    }
  }
  // SQLite keeps the two extra columns (nullable, defaulted): the older code never names them.
}
