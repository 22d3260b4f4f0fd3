// Table types of webhooks (of an organization, a repository or the whole site), their deliveries and the farewell rows
// of deleted hooks.
import type { Generated, Selectable } from 'kysely';

/** Whose a hook is: an organization's (`org_id`), a repository's (`repository_id`) or the whole site's (global). */
type HookScopeName = 'organization' | 'repository' | 'global';

/** The signature headers a hook's deliveries carry (webhooks/sign.ts). */
export type SignatureFormat = 'github' | 'standard' | 'github,standard';

interface HooksTable {
  id: Generated<number>;
  scope: HookScopeName;
  /** The organization of an organization hook; null for the other scopes. */
  org_id: number | null;
  /** The repository of a repository hook; null for the other scopes. */
  repository_id: number | null;
  name: string;
  /** JSON array of event names (`*` for all). */
  events: string;
  active: number;
  content_type: 'json' | 'form';
  insecure_ssl: '0' | '1';
  /** The URL as shown: a password in its userinfo (or a lone user name) replaced by `********` (sealed-config.ts). */
  url: string;
  /** The URL as given, sealed, when it carries credentials; null when `url` is the URL itself. */
  url_sealed: string | null;
  /** Sealed (secrets/secret-box.ts): it keys the HMAC of every delivery. Never shown, never logged. */
  secret: string | null;
  username: string | null;
  /** Sealed. */
  password: string | null;
  /** The id of the key that sealed this row's values; null: a row from before sealing, in the clear (sealed at start). */
  sealed_with: string | null;
  /** The OAuth app whose token created the hook: only that app's tokens see it, and users do not. */
  created_by_app_id: number | null;
  /** Why the server turned the hook off (automatic disabling after failures, a receiver's 410 Gone), or null. */
  disabled_reason: string | null;
  /** Which signatures deliveries carry: `github` (X-Hub-Signature*), `standard` (Standard Webhooks) or `github,standard`. */
  signature_format: SignatureFormat;
  /** The secret before the last rotation, sealed: Standard Webhooks signatures carry its signature too until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface HookDeliveriesTable {
  id: Generated<number>;
  hook_id: number;
  event_id: number;
  guid: string;
  event: string;
  action: string | null;
  repository_id: number | null;
  redelivery: number;
  delivered_at: string;
  /** Seconds. */
  duration: number;
  status: string;
  /** The receiver's HTTP status, 0 when there was no response. */
  status_code: number;
  throttled_at: string | null;
  url: string;
  /** JSON object of the request headers sent. */
  request_headers: string;
  /** JSON object of the response headers received. */
  response_headers: string;
  /** The response body, cut at RESPONSE_BODY_LIMIT. */
  response_body: string | null;
}

/**
 * What a deleted hook's `meta` delivery needs, kept (sealed) from the delete until that delivery ran, then deleted:
 * the delivery job names the hook only, never its config.
 */
interface HookFarewellsTable {
  hook_id: number;
  scope: HookScopeName;
  org_id: number | null;
  repository_id: number | null;
  url: string;
  url_sealed: string | null;
  content_type: 'json' | 'form';
  insecure_ssl: '0' | '1';
  secret: string | null;
  username: string | null;
  password: string | null;
  sealed_with: string | null;
  signature_format: SignatureFormat;
  previous_secret: string | null;
  previous_secret_until: string | null;
  created_at: string;
}

export interface HookTables {
  hooks: HooksTable;
  hook_deliveries: HookDeliveriesTable;
  hook_farewells: HookFarewellsTable;
  /** One row while secrets written before sealing may linger in old events and free pages (scrubbed once at start). */
  hook_secrets_scrub: { pending: number };
}

export type HookRow = Selectable<HooksTable>;
export type DeliveryRow = Selectable<HookDeliveriesTable>;
export type FarewellRow = Selectable<HookFarewellsTable>;
