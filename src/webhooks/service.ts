// Webhook operations on the hooks of one scope (an organization's, a repository's, the site's; scope.ts resolves it and
// checks who may manage them): OAuth apps see only their own hooks, every change in one transaction.
import type { Db } from '../db/connect.js';
import { isUniqueViolation, lockRows, scrubDeletedCopies } from '../db/dialect.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { ServiceContext } from '../core/context.js';
import { eventPayload } from '../events/store.js';
import { BadRequest, NotFound, ValidationFailed, type FieldError } from '../core/errors.js';
import { parseId } from '../core/ids.js';
import { recordHookCreated, recordHookDestroyed, recordHookUpdated } from './audit.js';
import { ALL_EVENTS, subscribes } from './event-names.js';
import { enqueueDelivery } from './outbox.js';
import { metaDeletedPayload, pingPayload } from './payloads.js';
import { rotatedSecret, sealConfig, sealUrl, shownUrl } from './sealed-config.js';
import {
  allHooks,
  deleteHook,
  findDelivery,
  findHook,
  insertHook,
  latestDeliveries,
  latestPushEvent,
  listDeliveries,
  listHooks,
  updateHook,
  type DeliveryStatusFilter,
} from './store.js';
import type { HookScope } from './scope.js';
import type { DeliveryRow, HookRow } from '../db/tables/webhooks.js';
import {
  configPatchBody,
  createHookBody,
  updateHookBody,
  type ConfigPatchBody,
  type CreateHookBody,
  type UpdateHookBody,
} from './schemas.js';
import { bodyVerdict } from '../http/validation.js';
import { changedEvents, parseConfigPatch, parseCreate, parseUpdate, type HookConfigInput, type Received } from './validate.js';

/** Whose hooks a request is about, for the front ends that reach the area through this file (the settings pages). */
export { globalScope, organizationScope, repositoryScope, type HookScope } from './scope.js';

async function visibleHook(s: HookScope, rawId: string | number, db: Db): Promise<HookRow> {
  const hook = await findHook(db, s.target, parseId(rawId), s.who);
  if (!hook) throw new NotFound();
  return hook;
}

/** GitHub's 422 for a second hook with the same URL on one organization or repository (global hooks: on the enterprise). */
function hookExists(s: Pick<HookScope, 'target'>): FieldError {
  const on = s.target.scope === 'global' ? 'enterprise' : s.target.scope;
  return { resource: 'Hook', code: 'custom', message: `Hook already exists on this ${on}` };
}

/** Hook writes of one target take turns (its organization's or repository's row locked first), so the checks below hold until they commit. */
export async function lockHooksOf(trx: Db, s: Pick<HookScope, 'lock'>): Promise<void> {
  if (s.lock) await lockRows(trx, s.lock.table, [s.lock.id]);
}

/** The target's other hooks must not use the URL already, nor fill an event's quota (a `*` hook counts for every event). */
export async function checkRoom(
  trx: Db,
  ctx: Pick<ServiceContext, 'config'>,
  s: Pick<HookScope, 'target' | 'eventNames'>,
  hook: { id?: number; url: string; events: string[] },
): Promise<void> {
  const others = (await allHooks(trx, s.target)).filter((h) => h.id !== hook.id);
  if (others.some((h) => h.url === hook.url)) throw new ValidationFailed([hookExists(s)]);
  const limit = ctx.config.hookLimitPerEvent;
  const subscribed = others.map((h) => JSON.parse(h.events) as string[]);
  for (const name of hook.events.includes(ALL_EVENTS) ? s.eventNames : hook.events) {
    if (subscribed.filter((ev) => subscribes(ev, name)).length >= limit) {
      throw new ValidationFailed([
        { resource: 'Hook', code: 'custom', message: `The "${name}" event cannot have more than ${limit} hooks` },
      ]);
    }
  }
}

async function withUniqueUrl<T>(s: HookScope, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ValidationFailed([hookExists(s)]);
    throw err;
  }
}

/** The columns of a config: its secret, password and URL credentials sealed, the URL kept for showing masked. */
function configColumns(box: SecretBox, c: HookConfigInput) {
  return sealConfig(box, c);
}

/**
 * The secret columns of a config write that gives `secret` (undefined: not given): a new secret keeps the one it
 * replaces for the rotation overlap (HUBLET_HOOK_SECRET_ROTATION_MINUTES); otherwise an overlap under way goes on.
 */
function secretChange(ctx: ServiceContext, current: HookRow, secret: string | null | undefined, now: Date) {
  return {
    previous_secret: current.previous_secret,
    previous_secret_until: current.previous_secret_until,
    ...rotatedSecret(ctx.secrets, current, secret, now, ctx.config.hookSecretRotationMinutes * 60_000),
  };
}

export interface HookWithLast {
  hook: HookRow;
  last: DeliveryRow | undefined;
}

/** The event that a hook of this scope is about: its organization, its repository (or neither, for global hooks). */
function eventTarget(s: HookScope) {
  return { orgId: s.target.org_id ?? s.org?.id ?? null, repositoryId: s.target.repository_id, senderId: s.actor.user.id };
}

/** GET …/hooks: the hooks the caller may see, oldest first. */
export async function listScopeHooks(ctx: ServiceContext, s: HookScope, page: { offset: number; perPage: number }) {
  const { rows, total } = await listHooks(ctx.db, s.target, s.who, page);
  const last = await latestDeliveries(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { hooks: rows, last, total };
}

/** POST …/hooks: creates the hook and, when it is active, pings it. */
export async function createScopeHook(ctx: ServiceContext, s: HookScope, body: Received<CreateHookBody>): Promise<HookWithLast> {
  const input = parseCreate(body, s);
  const now = ctx.clock.now();
  const hook = await withUniqueUrl(s, () =>
    ctx.db.transaction().execute(async (trx) => {
      await lockHooksOf(trx, s);
      await checkRoom(trx, ctx, s, { url: shownUrl(input.config.url), events: input.events });
      const row = await insertHook(trx, {
        ...s.target,
        name: 'web',
        events: JSON.stringify(input.events),
        active: input.active ? 1 : 0,
        ...configColumns(ctx.secrets, input.config),
        created_by_app_id: s.who.appId,
        disabled_reason: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      if (row.active)
        await ctx.events.emit(trx, { name: 'ping', ...eventTarget(s), payload: pingPayload(row, s, s.actor.user, ctx.urls.root) }, now);
      await recordHookCreated(trx, ctx, s, row);
      return row;
    }),
  );
  return { hook, last: undefined };
}

/** GET …/hooks/{hook_id} */
export async function getScopeHook(ctx: ServiceContext, s: HookScope, hookId: string | number): Promise<HookWithLast> {
  const hook = await visibleHook(s, hookId, ctx.db);
  return { hook, last: (await latestDeliveries(ctx.db, [hook.id])).get(hook.id) };
}

/** PATCH …/hooks/{hook_id}: a config given replaces the whole config (without a secret, the secret is removed). */
export async function updateScopeHook(
  ctx: ServiceContext,
  s: HookScope,
  hookId: string | number,
  body: Received<UpdateHookBody>,
): Promise<HookWithLast> {
  const existing = await visibleHook(s, hookId, ctx.db);
  const input = parseUpdate(body, s);
  const now = ctx.clock.now();
  const hook = await withUniqueUrl(s, () =>
    ctx.db.transaction().execute(async (trx) => {
      await lockHooksOf(trx, s);
      const current = await visibleHook(s, existing.id, trx);
      const url = input.config ? shownUrl(input.config.url) : current.url;
      const events = changedEvents(JSON.parse(current.events) as string[], input);
      if (!events.length)
        throw new ValidationFailed([{ resource: 'Hook', code: 'custom', field: 'events', message: 'events must name at least one event' }]);
      await checkRoom(trx, ctx, s, { id: current.id, url, events });
      const updated = await updateHook(trx, current.id, {
        ...(input.config ? { ...configColumns(ctx.secrets, input.config), ...secretChange(ctx, current, input.config.secret, now) } : {}),
        events: JSON.stringify(events),
        ...(input.active !== undefined ? { active: input.active ? 1 : 0, disabled_reason: null } : {}),
        updated_at: now.toISOString(),
      });
      // A config given replaces the whole config, its secret included.
      await recordHookUpdated(trx, ctx, s, { before: current, after: updated, secretChanged: input.config !== undefined });
      return updated;
    }),
  );
  return { hook, last: (await latestDeliveries(ctx.db, [hook.id])).get(hook.id) };
}

/** DELETE …/hooks/{hook_id}: an active hook gets a `meta` event (action `deleted`) on its way out. */
export async function deleteScopeHook(ctx: ServiceContext, s: HookScope, hookId: string | number): Promise<void> {
  const existing = await visibleHook(s, hookId, ctx.db);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await lockHooksOf(trx, s);
    const hook = await visibleHook(s, existing.id, trx);
    if (hook.active)
      await ctx.events.emit(
        trx,
        { name: 'meta', action: 'deleted', ...eventTarget(s), payload: metaDeletedPayload(hook, s, s.actor.user, ctx.urls.root) },
        now,
      );
    await deleteHook(trx, hook.id);
    await recordHookDestroyed(trx, ctx, s, hook);
  });
  await scrubDeletedCopies(ctx.db);
}

/** GET …/hooks/{hook_id}/config */
export function getHookConfig(ctx: ServiceContext, s: HookScope, hookId: string | number): Promise<HookRow> {
  return visibleHook(s, hookId, ctx.db);
}

/** PATCH …/hooks/{hook_id}/config: only the properties named change. */
export async function updateHookConfig(
  ctx: ServiceContext,
  s: HookScope,
  hookId: string | number,
  body: Received<ConfigPatchBody>,
): Promise<HookRow> {
  const existing = await visibleHook(s, hookId, ctx.db);
  const patch = parseConfigPatch(body);
  const now = ctx.clock.now();
  return withUniqueUrl(s, () =>
    ctx.db.transaction().execute(async (trx) => {
      await lockHooksOf(trx, s);
      const current = await visibleHook(s, existing.id, trx);
      if (patch.url !== undefined && shownUrl(patch.url) !== current.url)
        await checkRoom(trx, ctx, s, { id: current.id, url: shownUrl(patch.url), events: JSON.parse(current.events) as string[] });
      const updated = await updateHook(trx, current.id, {
        ...(patch.url !== undefined ? sealUrl(ctx.secrets, patch.url) : {}),
        ...(patch.contentType !== undefined ? { content_type: patch.contentType } : {}),
        ...(patch.insecureSsl !== undefined ? { insecure_ssl: patch.insecureSsl } : {}),
        ...secretChange(ctx, current, patch.secret, now),
        ...(patch.signatureFormat !== undefined ? { signature_format: patch.signatureFormat } : {}),
        updated_at: now.toISOString(),
      });
      await recordHookUpdated(trx, ctx, s, { before: current, after: updated, secretChanged: patch.secret !== undefined });
      return updated;
    }),
  );
}

/** An opaque cursor: the delivery a page starts from. */
function encodeCursor(id: number): string {
  return `v1_${id}`;
}

function decodeCursor(cursor: unknown): number | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const m = typeof cursor === 'string' ? /^v1_([1-9]\d{0,9})$/.exec(cursor) : null;
  if (!m || Number(m[1]) > 2_147_483_647) throw new BadRequest('Invalid cursor');
  return Number(m[1]);
}

function statusFilter(status: unknown): DeliveryStatusFilter {
  if (status === undefined || status === '') return undefined;
  if (status === 'success' || status === 'failure') return status;
  throw new ValidationFailed([
    { resource: 'HookDelivery', field: 'status', code: 'invalid', message: 'status must be success or failure' },
  ]);
}

/** GET /orgs/{org}/hooks/{hook_id}/deliveries: newest first, by cursor. */
export async function listHookDeliveries(
  ctx: ServiceContext,
  s: HookScope,
  hookId: string | number,
  query: { cursor?: unknown; status?: unknown; perPage: number },
) {
  const hook = await visibleHook(s, hookId, ctx.db);
  const status = statusFilter(query.status);
  const startId = decodeCursor(query.cursor);
  const page = await listDeliveries(ctx.db, hook.id, { status, startId, perPage: query.perPage });
  return { ...page, next: page.nextId && encodeCursor(page.nextId), prev: page.prevId && encodeCursor(page.prevId) };
}

async function visibleDelivery(
  ctx: ServiceContext,
  s: HookScope,
  hookId: string | number,
  deliveryId: string | number,
): Promise<DeliveryRow> {
  const hook = await visibleHook(s, hookId, ctx.db);
  const row = await findDelivery(ctx.db, hook.id, parseId(deliveryId));
  if (!row) throw new NotFound();
  return row;
}

/** GET /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}: with the request payload as it was sent. */
export async function getHookDelivery(
  ctx: ServiceContext,
  s: HookScope,
  hookId: string | number,
  deliveryId: string | number,
): Promise<{ row: DeliveryRow; payload: unknown }> {
  const row = await visibleDelivery(ctx, s, hookId, deliveryId);
  const payload = await eventPayload(ctx.db, row.event_id);
  return { row, payload: payload !== undefined ? (JSON.parse(payload) as unknown) : null };
}

/** POST …/deliveries/{delivery_id}/attempts: the same event (same guid) again, as a new delivery marked `redelivery`. */
export async function redeliverHookDelivery(
  ctx: ServiceContext,
  s: HookScope,
  hookId: string | number,
  deliveryId: string | number,
): Promise<void> {
  const row = await visibleDelivery(ctx, s, hookId, deliveryId);
  const now = ctx.clock.now();
  await ctx.db
    .transaction()
    .execute((trx) => enqueueDelivery(ctx.jobs, trx, { hookId: row.hook_id, eventId: row.event_id, redelivery: true }, now));
}

/** POST …/hooks/{hook_id}/pings: a ping event to this hook, active or not. */
export async function pingScopeHook(ctx: ServiceContext, s: HookScope, hookId: string | number): Promise<void> {
  const hook = await visibleHook(s, hookId, ctx.db);
  await ctx.events.emitAlone(
    { name: 'ping', ...eventTarget(s), payload: pingPayload(hook, s, s.actor.user, ctx.urls.root) },
    ctx.clock.now(),
  );
}

/**
 * POST /repos/{owner}/{repo}/hooks/{hook_id}/tests: the repository's latest push again, to this hook only, when it is
 * subscribed to `push` (GitHub answers 204 and sends nothing otherwise, or when nothing was pushed yet).
 */
export async function testRepositoryHook(ctx: ServiceContext, s: HookScope, hookId: string | number): Promise<void> {
  const hook = await visibleHook(s, hookId, ctx.db);
  if (s.target.repository_id === null || !subscribes(JSON.parse(hook.events) as string[], 'push')) return;
  const eventId = await latestPushEvent(ctx.db, s.target.repository_id);
  if (eventId === undefined) return;
  const now = ctx.clock.now();
  await ctx.db.transaction().execute((trx) => enqueueDelivery(ctx.jobs, trx, { hookId: hook.id, eventId }, now));
}

/** A new hook from another front end (the settings pages' form): judged by POST …/hooks's schema, then made as the API makes it. */
export function createScopeHookFrom(ctx: ServiceContext, s: HookScope, body: CreateHookBody): Promise<HookWithLast> {
  return createScopeHook(ctx, s, { body, schemaErrors: bodyVerdict(createHookBody, body) });
}

/** What the settings pages' form changes: the config as PATCH …/config patches it (what is not given stays), events and `active`. */
export type HookEdit = { config: ConfigPatchBody; events: string[]; active: boolean };

/**
 * A hook changed from the settings pages' form, in one transaction: its config as PATCH …/config patches it (a secret not
 * given stays, and so does a URL given back as shown, its credentials masked), its events and `active` as PATCH
 * …/hooks/{hook_id} sets them; judged by those routes' schemas and rules, every problem in one 422.
 */
export async function editScopeHookFrom(ctx: ServiceContext, s: HookScope, hookId: string | number, edit: HookEdit): Promise<HookWithLast> {
  const existing = await visibleHook(s, hookId, ctx.db);
  const problems: FieldError[] = [];
  const judged = <T>(parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (err) {
      if (!(err instanceof ValidationFailed)) throw err;
      problems.push(...(err.extra.errors as FieldError[]));
      return undefined;
    }
  };
  const patch = judged(() => parseConfigPatch({ body: edit.config, schemaErrors: bodyVerdict(configPatchBody, edit.config) }));
  const rest = { events: edit.events, active: edit.active };
  const input = judged(() => parseUpdate({ body: rest, schemaErrors: bodyVerdict(updateHookBody, rest) }, s));
  if (!patch || !input) throw new ValidationFailed(problems);
  const now = ctx.clock.now();
  const hook = await withUniqueUrl(s, () =>
    ctx.db.transaction().execute(async (trx) => {
      await lockHooksOf(trx, s);
      const current = await visibleHook(s, existing.id, trx);
      const url = patch.url !== undefined && patch.url !== current.url ? patch.url : undefined;
      const events = input.events ?? (JSON.parse(current.events) as string[]);
      await checkRoom(trx, ctx, s, { id: current.id, url: url === undefined ? current.url : shownUrl(url), events });
      const updated = await updateHook(trx, current.id, {
        ...(url !== undefined ? sealUrl(ctx.secrets, url) : {}),
        ...(patch.contentType !== undefined ? { content_type: patch.contentType } : {}),
        ...(patch.insecureSsl !== undefined ? { insecure_ssl: patch.insecureSsl } : {}),
        ...secretChange(ctx, current, patch.secret, now),
        ...(patch.signatureFormat !== undefined ? { signature_format: patch.signatureFormat } : {}),
        events: JSON.stringify(events),
        active: edit.active ? 1 : 0,
        disabled_reason: null,
        updated_at: now.toISOString(),
      });
      await recordHookUpdated(trx, ctx, s, { before: current, after: updated, secretChanged: patch.secret !== undefined });
      return updated;
    }),
  );
  return { hook, last: (await latestDeliveries(ctx.db, [hook.id])).get(hook.id) };
}

/** How many of a hook's newest deliveries "Redeliver failed since …" looks through. */
const FAILED_SCAN = 1000;

/**
 * "Redeliver failed since …" of the settings pages: each event whose deliveries to this hook since `since` all failed
 * (none answered 200–399) is delivered again once, as POST …/attempts does, the newest first and at most `limit` of them.
 */
export async function redeliverFailedSince(ctx: ServiceContext, s: HookScope, hookId: string | number, since: Date, limit: number) {
  const hook = await visibleHook(s, hookId, ctx.db);
  const recent = (status: DeliveryStatusFilter) =>
    listDeliveries(ctx.db, hook.id, { status, perPage: FAILED_SCAN }).then((p) =>
      p.rows.filter((r) => Date.parse(r.delivered_at) >= since.getTime()),
    );
  const [failed, succeeded] = await Promise.all([recent('failure'), recent('success')]);
  const done = new Set(succeeded.map((r) => r.guid));
  const again = new Map<string, DeliveryRow>();
  for (const r of failed) if (!done.has(r.guid) && !again.has(r.guid)) again.set(r.guid, r);
  const chosen = [...again.values()].slice(0, limit);
  await ctx.db.transaction().execute(async (trx) => {
    for (const r of chosen)
      await enqueueDelivery(ctx.jobs, trx, { hookId: r.hook_id, eventId: r.event_id, redelivery: true }, ctx.clock.now());
  });
  return { redelivered: chosen.length, more: again.size > limit };
}
