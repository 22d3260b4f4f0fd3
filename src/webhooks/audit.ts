// The audit log's entries of hooks (GitHub's `hook.create`, `hook.config_changed`, `hook.events_changed`,
// `hook.active_changed`, `hook.destroy`): the hook's id and, as GitHub shows them, its config (the URL as shown, its
// credentials masked; the content type; insecure_ssl), events and active flag. Never the secret or a password. The
// server turning a hook off itself (a receiver's 410 Gone) is a `hook.active_changed` without an actor, with its reason.
import { findAccountById } from '../accounts/store.js';
import type { AppContext, ServiceContext } from '../core/context.js';
import type { AuditEntry } from '../core/contributions.js';
import type { Db } from '../db/connect.js';
import type { EventRow } from '../db/tables/events.js';
import type { HookRow } from '../db/tables/webhooks.js';
import type { HookScope } from './scope.js';

/** A hook's config as an entry shows it. */
function shownConfig(hook: HookRow): Record<string, string> {
  const config: Record<string, string> = { url: hook.url, content_type: hook.content_type, insecure_ssl: hook.insecure_ssl };
  if (hook.signature_format !== 'github') config.signature_format = hook.signature_format;
  return config;
}

/** What an entry about one of the scope's hooks concerns: its organization and repository (neither for global hooks). */
function concerning(s: HookScope): Pick<AuditEntry, 'org' | 'repo'> {
  const r = s.repository;
  const repo = r && typeof r.id === 'number' && typeof r.full_name === 'string' ? { id: r.id, name: r.full_name } : null;
  return { org: s.org, repo };
}

function entry(s: HookScope, action: string, hook: HookRow, fields: Record<string, unknown>): AuditEntry {
  return { action: `hook.${action}`, ...concerning(s), fields: { hook_id: hook.id, name: 'webhook', ...fields } };
}

const eventsOf = (hook: HookRow) => JSON.parse(hook.events) as string[];

/** `hook.create`, in the creating transaction. */
export function recordHookCreated(trx: Db, ctx: ServiceContext, s: HookScope, hook: HookRow): Promise<void> {
  return ctx.audit.record(
    trx,
    ctx,
    entry(s, 'create', hook, { active: Boolean(hook.active), events: eventsOf(hook), config: shownConfig(hook) }),
  );
}

/** `hook.destroy`, in the deleting transaction. */
export function recordHookDestroyed(trx: Db, ctx: ServiceContext, s: HookScope, hook: HookRow): Promise<void> {
  return ctx.audit.record(
    trx,
    ctx,
    entry(s, 'destroy', hook, { active: Boolean(hook.active), events: eventsOf(hook), config: shownConfig(hook) }),
  );
}

/**
 * The entries of an update, one per kind of change, as GitHub records them: the config (`secretChanged`: a secret was
 * given, which changes the config without anything shown changing), the events, whether it is active.
 */
export async function recordHookUpdated(
  trx: Db,
  ctx: ServiceContext,
  s: HookScope,
  change: { before: HookRow; after: HookRow; secretChanged: boolean },
): Promise<void> {
  const { before, after } = change;
  const config = shownConfig(after);
  const configWas = shownConfig(before);
  if (change.secretChanged || Object.keys(config).some((k) => config[k] !== configWas[k]))
    await ctx.audit.record(trx, ctx, entry(s, 'config_changed', after, { config, config_was: configWas }));
  const events = eventsOf(after);
  const eventsWere = eventsOf(before);
  if (events.length !== eventsWere.length || events.some((e, i) => e !== eventsWere[i]))
    await ctx.audit.record(trx, ctx, entry(s, 'events_changed', after, { events, events_were: eventsWere }));
  if (Boolean(after.active) !== Boolean(before.active))
    await ctx.audit.record(
      trx,
      ctx,
      entry(s, 'active_changed', after, { active: Boolean(after.active), active_was: Boolean(before.active) }),
    );
}

/**
 * What an entry about a hook concerns when no request names it (the deliverer's): an organization hook's organization;
 * a repository hook's repository and organization as the event's payload names them.
 */
async function concerningHook(trx: Db, hook: HookRow, event: EventRow): Promise<Pick<AuditEntry, 'org' | 'repo'>> {
  if (hook.org_id !== null) {
    const org = await findAccountById(trx, hook.org_id);
    return { org: org ? { id: org.id, login: org.login } : null, repo: null };
  }
  if (hook.repository_id === null) return { org: null, repo: null };
  const payload = JSON.parse(event.payload) as {
    repository?: { id?: unknown; full_name?: unknown };
    organization?: { id?: unknown; login?: unknown };
  };
  const r = payload.repository;
  const o = payload.organization;
  const repo = r?.id === hook.repository_id && typeof r.full_name === 'string' ? { id: hook.repository_id, name: r.full_name } : null;
  const org = repo && typeof o?.id === 'number' && typeof o.login === 'string' ? { id: o.id, login: o.login } : null;
  return { org, repo };
}

/** `hook.active_changed` by the server itself (no actor), in the transaction that records the delivery that caused it. */
export async function recordHookDisabled(
  trx: Db,
  ctx: AppContext,
  change: { before: HookRow; after: HookRow; reason: string; event: EventRow },
): Promise<void> {
  const { before, after } = change;
  await ctx.audit.record(
    trx,
    { actor: null, clock: ctx.clock },
    {
      action: 'hook.active_changed',
      actor: null,
      ...(await concerningHook(trx, after, change.event)),
      fields: {
        hook_id: after.id,
        name: 'webhook',
        active: Boolean(after.active),
        active_was: Boolean(before.active),
        reason: change.reason,
        delivery_guid: change.event.guid,
      },
    },
  );
}
