// Table types of people signing in: web sessions, throttled failures, invitations, OpenID Connect identities, OAuth apps,
// the grants users gave them, authorization codes and device codes (migration 2026-11-28T01-00-sign-in.ts).
import type { Generated, Selectable } from 'kysely';

interface WebSessionsTable {
  id: Generated<number>;
  /** SHA-256 of the session id the cookie carries. */
  id_hash: string;
  user_id: number;
  method: 'password' | 'oidc';
  created_at: string;
  last_seen_at: string;
  /** The absolute end of the session; the idle end is last_seen_at + the idle lifetime. */
  expires_at: string;
}

interface ThrottleCountsTable {
  key: string;
  failures: number;
  window_started_at: string;
}

interface InvitationsTable {
  id: Generated<number>;
  token_hash: string;
  created_by: number;
  note: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: number | null;
}

interface OidcIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: number;
  created_at: string;
}

interface OauthAppsTable {
  id: Generated<number>;
  client_id: string;
  client_secret_hash: string | null;
  client_secret_last_eight: string | null;
  name: string;
  description: string | null;
  homepage_url: string | null;
  callback_url: string;
  owner_id: number | null;
  builtin: Generated<number>;
  created_at: string;
  updated_at: string;
}

interface OauthAuthorizationsTable {
  user_id: number;
  app_id: number;
  /** JSON array of the scopes granted so far. */
  scopes: string;
  created_at: string;
  updated_at: string;
}

interface OauthCodesTable {
  code_hash: string;
  app_id: number;
  user_id: number;
  scopes: string;
  redirect_uri: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  token_id: number | null;
}

interface DeviceCodesTable {
  id: Generated<number>;
  device_code_hash: string;
  user_code: string;
  app_id: number;
  scopes: string;
  state: 'pending' | 'approved' | 'denied' | 'used';
  user_id: number | null;
  interval_seconds: number;
  last_polled_at: string | null;
  created_at: string;
  expires_at: string;
}

export interface SignInTables {
  web_sessions: WebSessionsTable;
  throttle_counts: ThrottleCountsTable;
  invitations: InvitationsTable;
  oidc_identities: OidcIdentitiesTable;
  oauth_apps: OauthAppsTable;
  oauth_authorizations: OauthAuthorizationsTable;
  oauth_codes: OauthCodesTable;
  device_codes: DeviceCodesTable;
}

export type WebSessionRow = Selectable<WebSessionsTable>;
export type OauthAppRow = Selectable<OauthAppsTable>;
export type DeviceCodeRow = Selectable<DeviceCodesTable>;
export type InvitationRow = Selectable<InvitationsTable>;
