// Organization webhooks and the record of every delivery attempt.
import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('hooks'))
    .addColumn('org_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
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
    .execute();
  await db.schema.createIndex('hooks_org').on('hooks').columns(['org_id', 'id']).execute();
  // One hook per URL in an organization (the service answers 422 first; this holds under concurrent creates).
  await db.schema.createIndex('hooks_org_url').on('hooks').columns(['org_id', 'url']).unique().execute();

  await withId(db, db.schema.createTable('hook_deliveries'))
    .addColumn('hook_id', 'integer', (c) => c.notNull().references('hooks.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('guid', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('action', 'text')
    .addColumn('repository_id', 'integer')
    .addColumn('redelivery', 'integer', (c) => c.notNull())
    .addColumn('delivered_at', 'text', (c) => c.notNull())
    .addColumn('duration', 'double precision', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('throttled_at', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('request_headers', 'text', (c) => c.notNull())
    .addColumn('response_headers', 'text', (c) => c.notNull())
    .addColumn('response_body', 'text')
    .execute();
  await db.schema.createIndex('hook_deliveries_hook').on('hook_deliveries').columns(['hook_id', 'id']).execute();
  await db.schema.createIndex('hook_deliveries_time').on('hook_deliveries').column('delivered_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('hook_deliveries').execute();
  await db.schema.dropTable('hooks').execute();
}
