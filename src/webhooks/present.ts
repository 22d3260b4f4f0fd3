// The only place that shapes hooks, hook configs and deliveries as JSON; secrets always show as `********`.
import type { Urls } from '../core/urls.js';
import { isoUtc } from '../core/timestamps.js';
import { MASK } from './sealed-config.js';
import type { DeliveryRow, HookRow } from '../db/tables/webhooks.js';

/**
 * A hook's config as every response shows it: the secret (and a password) masked, present only when set. `url` is the
 * column kept for showing, with the credentials of its userinfo masked (sealed-config.ts). `signature_format` only
 * when it is not `github` (the default).
 */
export function hookConfig(hook: HookRow) {
  const config: Record<string, string> = { content_type: hook.content_type, insecure_ssl: hook.insecure_ssl, url: hook.url };
  if (hook.secret) config.secret = MASK;
  if (hook.username) config.username = hook.username;
  if (hook.password) config.password = MASK;
  // hublet's own (Standard Webhooks signing): shown when not GitHub's default, as `secret` is when set.
  if (hook.signature_format !== 'github') config.signature_format = hook.signature_format;
  return config;
}

/** Whether a delivery went through: its receiver answered 200–399 (the deliveries' `status=success` filter says so in SQL). */
export function succeeded(delivery: Pick<DeliveryRow, 'status_code'>): boolean {
  return delivery.status_code >= 200 && delivery.status_code < 400;
}

/** How the last delivery went: GitHub's `last_response`. */
function lastResponse(last: DeliveryRow | undefined) {
  if (!last) return { code: null, status: 'unused', message: null };
  const ok = succeeded(last);
  return { code: last.status_code || null, status: ok ? 'active' : 'misconfigured', message: last.status };
}

/** Where a hook lives: the hooks' collection (`/orgs/Acme/hooks`, `/repos/o/r/hooks`, `/admin/hooks`) and its `type`. */
export interface HookHome {
  path: string;
  type: 'Organization' | 'Repository' | 'Global';
}

/** The hook object, without `last_response` (payloads carry this form). GitHub Enterprise's global hooks have no deliveries URL. */
export function hookCore(hook: HookRow, home: HookHome, urls: Urls) {
  const url = urls.api(`${home.path}/${hook.id}`);
  return {
    type: home.type,
    id: hook.id,
    name: hook.name,
    active: Boolean(hook.active),
    events: JSON.parse(hook.events) as string[],
    config: hookConfig(hook),
    updated_at: isoUtc(hook.updated_at),
    created_at: isoUtc(hook.created_at),
    url,
    ...(home.type === 'Repository' ? { test_url: `${url}/test` } : {}),
    ping_url: `${url}/pings`,
    ...(home.type === 'Global' ? {} : { deliveries_url: `${url}/deliveries` }),
  };
}

/** `GET …/hooks/{hook_id}` and every list item (a global hook, as GitHub Enterprise shows it, without `last_response`). */
export function hook(row: HookRow, home: HookHome, urls: Urls, last: DeliveryRow | undefined) {
  const core = hookCore(row, home, urls);
  return home.type === 'Global' ? core : { ...core, last_response: lastResponse(last) };
}

/** The list form of a delivery. */
export function deliveryItem(row: DeliveryRow) {
  return {
    id: row.id,
    guid: row.guid,
    delivered_at: isoUtc(row.delivered_at),
    redelivery: Boolean(row.redelivery),
    duration: Math.round(row.duration * 1000) / 1000,
    status: row.status,
    status_code: row.status_code,
    event: row.event,
    action: row.action,
    installation_id: null,
    repository_id: row.repository_id,
    throttled_at: row.throttled_at ? isoUtc(row.throttled_at) : null,
  };
}

/** The single form: where it went, what was sent (headers of spec section 6 and the payload), what came back. */
export function delivery(row: DeliveryRow, payload: unknown) {
  return {
    ...deliveryItem(row),
    url: row.url,
    request: { headers: JSON.parse(row.request_headers) as Record<string, string>, payload: payload ?? null },
    response: { headers: JSON.parse(row.response_headers) as Record<string, string>, payload: row.response_body },
  };
}
