// The audit log (issue 29): `audit_entries`, one row per audited change in GitHub's fields (its time, action, who did it
// and from where, the organization, repository and user it concerns, the action's own fields as JSON), each carrying the
// SHA-256 of the entry before it and its own (a hash chain); and `audit_chain`, its one row naming the chain's head (the
// newest entry and its hash) and where pruning left it (the last pruned entry and its hash). Entries keep the logins and
// ids as they were, with no foreign key: they outlive the accounts and repositories they name. The chain starts at id 0
// with a hash of 64 zeros.
import type { Kysely } from 'kysely';

const GENESIS = '0'.repeat(64);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_entries')
    // Assigned from the chain's head (one after it), never by the database: ids follow the chain with no gap.
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor', 'text')
    .addColumn('actor_ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('org_id', 'integer')
    .addColumn('org', 'text')
    .addColumn('repo_id', 'integer')
    .addColumn('repo', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('user_login', 'text')
    /** The action's own fields, a JSON object. */
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  // An organization's log, newest first; the site's log walks the primary key.
  await db.schema.createIndex('audit_entries_org').on('audit_entries').columns(['org_id', 'id']).execute();
  await db.schema.createIndex('audit_entries_created').on('audit_entries').column('created_at').execute();

  await db.schema
    .createTable('audit_chain')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('head_id', 'integer', (c) => c.notNull())
    .addColumn('head_hash', 'text', (c) => c.notNull())
    .addColumn('pruned_id', 'integer', (c) => c.notNull())
    .addColumn('pruned_hash', 'text', (c) => c.notNull())
    .execute();
  await db.insertInto('audit_chain').values({ id: 1, head_id: 0, head_hash: GENESIS, pruned_id: 0, pruned_hash: GENESIS }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_chain').execute();
  await db.schema.dropTable('audit_entries').execute();
}
