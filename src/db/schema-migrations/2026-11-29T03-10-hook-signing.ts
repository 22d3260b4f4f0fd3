// Standard Webhooks signing (issue 30): each hook says which signatures its deliveries carry (`github`, the default,
// `standard` or `github,standard`), and keeps its previous secret, sealed, until a rotation's overlap ends (the
// Standard Webhooks signature header then carries both signatures). A deleted hook's farewell row keeps them too.
import type { Kysely } from 'kysely';

const TABLES = ['hooks', 'hook_farewells'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('signature_format', 'text', (c) => c.notNull().defaultTo('github'))
      .execute();
    await db.schema.alterTable(table).addColumn('previous_secret', 'text').execute();
    await db.schema.alterTable(table).addColumn('previous_secret_until', 'text').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES)
    for (const column of ['previous_secret_until', 'previous_secret', 'signature_format'])
      await db.schema.alterTable(table).dropColumn(column).execute();
}
