// An organization's webhooks from a migration archive (lent to the migrations importer through the app context): each
// created inactive and without a secret (archives carry none), by the rules of POST /orgs/{org}/hooks; a hook those
// rules or the delivery address rules refuse is left out with its reason, one already there (same URL) is not doubled.
import ipaddr from 'ipaddr.js';
import type { ArchivedHook, HookImportResult, HookImports } from '../core/contributions.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import { parseAllowedHosts, refusedAddress, refusedHostName, type AllowedHosts } from '../net/allowed-hosts.js';
import { HttpError } from '../core/errors.js';
import { HOOK_EVENT_NAMES } from './event-names.js';
import { sealConfig, shownUrl } from './sealed-config.js';
import { checkRoom, lockHooksOf } from './service.js';
import { allHooks, insertHook } from './store.js';
import { parseCreate } from './validate.js';

/** A URL as an audit may show it: credentials masked, control characters gone, at most 200 characters. */
function auditUrl(url: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const shown = shownUrl(url).replace(/[\u0000-\u001f\u007f]/g, '');
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}

/**
 * Why deliveries to `url` would be refused whatever it resolves to (a cloud metadata name, a link-local, metadata or
 * otherwise refused address written as such, an address the allowed-hosts policy leaves out), or null. Host names are
 * not resolved here: their addresses are checked at each delivery.
 */
function refusedDestination(policy: AllowedHosts, url: string): string | null {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? refusedAddress(policy, host, host) : refusedHostName(host);
}

/** The reason of a refusal the webhooks area's rules answer (a 422's field errors), or the error itself when it is not one. */
function refusalReason(err: unknown): string {
  if (!(err instanceof HttpError)) throw err;
  const errors = (err.extra.errors ?? []) as { field?: string; code: string; message?: string }[];
  return errors.map((e) => e.message ?? `${e.field ?? 'hook'} ${e.code}`).join('; ') || err.message;
}

async function importOrgHooks(
  env: Parameters<HookImports['importOrgHooks']>[0],
  trx: Db,
  org: UserRow,
  hooks: readonly ArchivedHook[],
): Promise<HookImportResult> {
  const policy = parseAllowedHosts(env.config.hookAllowedHosts);
  const scope = {
    target: { scope: 'organization' as const, org_id: org.id, repository_id: null },
    eventNames: HOOK_EVENT_NAMES,
    lock: { table: 'users' as const, id: org.id },
  };
  const result: HookImportResult = { imported: 0, existing: 0, refused: [] };
  await lockHooksOf(trx, scope);
  for (const h of hooks) {
    const refuse = (reason: string) => result.refused.push({ url: auditUrl(h.url), reason });
    let input: ReturnType<typeof parseCreate>;
    try {
      const config = { url: h.url, content_type: h.contentType, insecure_ssl: h.insecureSsl ? ('1' as const) : ('0' as const) };
      input = parseCreate(
        { body: { name: 'web', config, events: h.events, active: false }, schemaErrors: undefined },
        { eventNames: HOOK_EVENT_NAMES, defaultEvents: ['push'] },
      );
    } catch (err) {
      refuse(refusalReason(err));
      continue;
    }
    const destination = refusedDestination(policy, input.config.url);
    if (destination) {
      refuse(`deliveries there are refused: ${destination}`);
      continue;
    }
    const url = shownUrl(input.config.url);
    if ((await allHooks(trx, scope.target)).some((other) => other.url === url)) {
      result.existing++;
      continue;
    }
    try {
      await checkRoom(trx, env, scope, { url, events: input.events });
    } catch (err) {
      refuse(refusalReason(err));
      continue;
    }
    const at = env.now.toISOString();
    await insertHook(trx, {
      ...scope.target,
      name: 'web',
      events: JSON.stringify(input.events),
      active: 0,
      ...sealConfig(env.secrets, input.config),
      created_by_app_id: null,
      disabled_reason: null,
      created_at: at,
      updated_at: at,
    });
    result.imported++;
  }
  return result;
}

/** What the webhooks area lends the migrations importer. */
export const hookImports: HookImports = { importOrgHooks };
