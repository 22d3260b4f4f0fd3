// The event log: everything webhooks may announce, written in the same transaction as the change it describes.
import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('events'))
    .addColumn('guid', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('action', 'text')
    .addColumn('org_id', 'integer')
    .addColumn('repository_id', 'integer')
    .addColumn('sender_id', 'integer')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_org').on('events').columns(['org_id', 'id']).execute();
  await db.schema.createIndex('events_repository').on('events').columns(['repository_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('events').execute();
}
