// Suspended users (GitHub Enterprise's PUT /users/{username}/suspended): when the suspension began, null when none.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('suspended_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('suspended_at').execute();
}
