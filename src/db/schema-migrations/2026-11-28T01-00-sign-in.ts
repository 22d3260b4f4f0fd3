// People signing in (issue 26): web sessions, failed sign-in counts, sign-up invitations, OpenID Connect identities,
// OAuth apps with what users granted them, their authorization codes and device codes. Every secret (session id,
// invitation, client secret, code) is stored as a SHA-256 hash only; every row goes with its user or app.
import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

const user = (c: any) => c.notNull().references('users.id').onDelete('cascade');
const app = (c: any) => c.notNull().references('oauth_apps.id').onDelete('cascade');

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('web_sessions'))
    .addColumn('id_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', user)
    /** How the person signed in: `password` or `oidc`. */
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute();

  await db.schema
    .createTable('throttle_counts')
    /** `login:<login or email, lowercased>`, `ip:<address>`, `device:<user id>` … */
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('invitations'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'integer', user)
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('used_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('oidc_identities')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', user)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oidc_identities_pk', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('oidc_identities_user').on('oidc_identities').column('user_id').execute();

  await withId(db, db.schema.createTable('oauth_apps'))
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    /** SHA-256 of the client secret; null for a built-in public client (gh's). */
    .addColumn('client_secret_hash', 'text')
    .addColumn('client_secret_last_eight', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('homepage_url', 'text')
    .addColumn('callback_url', 'text', (c) => c.notNull())
    /** Who registered it; null for a built-in app or one a site admin made from the shell. */
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_authorizations')
    .addColumn('user_id', 'integer', user)
    .addColumn('app_id', 'integer', app)
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_authorizations_pk', ['user_id', 'app_id'])
    .execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'integer', app)
    .addColumn('user_id', 'integer', user)
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    /** The token the code was exchanged for: revoked if the code is presented again (RFC 6749 §4.1.2). */
    .addColumn('token_id', 'integer', (c) => c.references('tokens.id').onDelete('set null'))
    .execute();

  await withId(db, db.schema.createTable('device_codes'))
    .addColumn('device_code_hash', 'text', (c) => c.notNull().unique())
    /** Eight letters without separator or easily confused ones, shown as `ABCD-EFGH`. */
    .addColumn('user_code', 'text', (c) => c.notNull().unique())
    .addColumn('app_id', 'integer', app)
    .addColumn('scopes', 'text', (c) => c.notNull())
    /** `pending`, `approved` (user_id set), `denied` or `used` (a token was issued). */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'device_codes',
    'oauth_codes',
    'oauth_authorizations',
    'oauth_apps',
    'oidc_identities',
    'invitations',
    'throttle_counts',
    'web_sessions',
  ])
    await db.schema.dropTable(t).execute();
}
