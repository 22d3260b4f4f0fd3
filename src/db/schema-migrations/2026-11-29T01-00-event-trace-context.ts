// Traces (issue 29): each event keeps the W3C traceparent of the span that recorded it (the request's, while traces are
// on), so its webhook deliveries' spans can link to it; null when traces were off or no span was active.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('trace_context', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('trace_context').execute();
}
