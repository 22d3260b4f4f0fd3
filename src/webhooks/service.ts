// Organization webhook operations: owners only, OAuth apps see only their own hooks, every change in one transaction.
import { requireActor, type Actor } from '../server/http/grants.js';
import { requireOrgOwner } from '../accounts/service.js';
import type { Db } from '../db/connect.js';
import { isUniqueViolation, lockRows, scrubDeletedCopies } from '../db/dialect.js';
import type { UserRow } from '../db/schema.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { ServiceContext } from '../app/context.js';
import { eventPayload } from '../events/store.js';
import { BadRequest, NotFound, ValidationFailed, type FieldError } from '../server/http/errors.js';
import { parseId } from '../server/http/ids.js';
import { ALL_EVENTS, HOOK_EVENT_NAMES, subscribes } from './event-names.js';
import { enqueueDelivery } from './outbox.js';
import { metaDeletedPayload, pingPayload } from './payloads.js';
import { sealConfig, sealSecret, sealUrl, shownUrl } from './sealed-config.js';
import {
  allHooks,
  deleteHook,
  findDelivery,
  findHook,
  insertHook,
  latestDeliveries,
  listDeliveries,
  listHooks,
  updateHook,
  type DeliveryStatusFilter,
  type Visibility,
} from './store.js';
import type { DeliveryRow, HookRow } from '../db/tables/webhooks.js';
import type { ConfigPatchBody, CreateHookBody, UpdateHookBody } from './schemas.js';
import { parseConfigPatch, parseCreate, parseUpdate, type HookConfigInput, type Received } from './validate.js';

interface Owner {
  org: UserRow;
  actor: Actor;
  who: Visibility;
}

async function owner(ctx: ServiceContext, orgLogin: string): Promise<Owner> {
  const actor = requireActor(ctx.actor);
  const org = await requireOrgOwner(ctx, orgLogin);
  return { org, actor, who: { appId: actor.kind === 'oauth' ? actor.appId : null } };
}

async function visibleHook(ctx: ServiceContext, o: Owner, rawId: string | number, db: Db = ctx.db): Promise<HookRow> {
  const hook = await findHook(db, o.org.id, parseId(rawId), o.who);
  if (!hook) throw new NotFound();
  return hook;
}

const HOOK_EXISTS: FieldError = { resource: 'Hook', code: 'custom', message: 'Hook already exists on this organization' };

/** Hook writes of one organization take turns (its row locked first), so the checks below hold until they commit. */
function lockHooksOf(trx: Db, o: Owner): Promise<unknown> {
  return lockRows(trx, 'users', [o.org.id]);
}

/** The org's other hooks must not use the URL already, nor fill an event's quota (a `*` hook counts for every event). */
async function checkRoom(trx: Db, ctx: ServiceContext, orgId: number, hook: { id?: number; url: string; events: string[] }): Promise<void> {
  const others = (await allHooks(trx, orgId)).filter((h) => h.id !== hook.id);
  if (others.some((h) => h.url === hook.url)) throw new ValidationFailed([HOOK_EXISTS]);
  const limit = ctx.config.hookLimitPerEvent;
  const subscribed = others.map((h) => JSON.parse(h.events) as string[]);
  for (const name of hook.events.includes(ALL_EVENTS) ? HOOK_EVENT_NAMES : hook.events) {
    if (subscribed.filter((ev) => subscribes(ev, name)).length >= limit) {
      throw new ValidationFailed([{ resource: 'Hook', code: 'custom', message: `The "${name}" event cannot have more than ${limit} hooks` }]);
    }
  }
}

async function withUniqueUrl<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ValidationFailed([HOOK_EXISTS]);
    throw err;
  }
}

/** The columns of a config: its secret, password and URL credentials sealed, the URL kept for showing masked. */
function configColumns(box: SecretBox, c: HookConfigInput) {
  return sealConfig(box, c);
}

export interface HookWithLast {
  org: UserRow;
  hook: HookRow;
  last: DeliveryRow | undefined;
}

/** GET /orgs/{org}/hooks: the hooks the caller may see, oldest first. */
export async function listOrgHooks(ctx: ServiceContext, orgLogin: string, page: { offset: number; perPage: number }) {
  const o = await owner(ctx, orgLogin);
  const { rows, total } = await listHooks(ctx.db, o.org.id, o.who, page);
  const last = await latestDeliveries(ctx.db, rows.map((r) => r.id));
  return { org: o.org, hooks: rows, last, total };
}

/** POST /orgs/{org}/hooks: creates the hook and, when it is active, pings it. */
export async function createOrgHook(ctx: ServiceContext, orgLogin: string, body: Received<CreateHookBody>): Promise<HookWithLast> {
  const o = await owner(ctx, orgLogin);
  const input = parseCreate(body);
  const now = ctx.clock.now();
  const hook = await withUniqueUrl(() =>
    ctx.db.transaction().execute(async (trx) => {
      await lockHooksOf(trx, o);
      await checkRoom(trx, ctx, o.org.id, { url: shownUrl(input.config.url), events: input.events });
      const row = await insertHook(trx, {
        org_id: o.org.id,
        name: 'web',
        events: JSON.stringify(input.events),
        active: input.active ? 1 : 0,
        ...configColumns(ctx.secrets, input.config),
        created_by_app_id: o.who.appId,
        disabled_reason: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      if (row.active) await ctx.events.emit(trx, { name: 'ping', orgId: o.org.id, senderId: o.actor.user.id, payload: pingPayload(row, o.org, o.actor.user, ctx.urls.root) }, now);
      return row;
    }),
  );
  return { org: o.org, hook, last: undefined };
}

/** GET /orgs/{org}/hooks/{hook_id} */
export async function getOrgHook(ctx: ServiceContext, orgLogin: string, hookId: string | number): Promise<HookWithLast> {
  const o = await owner(ctx, orgLogin);
  const hook = await visibleHook(ctx, o, hookId);
  return { org: o.org, hook, last: (await latestDeliveries(ctx.db, [hook.id])).get(hook.id) };
}

/** PATCH /orgs/{org}/hooks/{hook_id}: a config given replaces the whole config (without a secret, the secret is removed). */
export async function updateOrgHook(ctx: ServiceContext, orgLogin: string, hookId: string | number, body: Received<UpdateHookBody>): Promise<HookWithLast> {
  const o = await owner(ctx, orgLogin);
  const existing = await visibleHook(ctx, o, hookId);
  const input = parseUpdate(body);
  const now = ctx.clock.now();
  const hook = await withUniqueUrl(() =>
    ctx.db.transaction().execute(async (trx) => {
      await lockHooksOf(trx, o);
      const current = await visibleHook(ctx, o, existing.id, trx);
      const url = input.config ? shownUrl(input.config.url) : current.url;
      const events = input.events ?? (JSON.parse(current.events) as string[]);
      await checkRoom(trx, ctx, o.org.id, { id: current.id, url, events });
      return updateHook(trx, current.id, {
        ...(input.config ? configColumns(ctx.secrets, input.config) : {}),
        events: JSON.stringify(events),
        ...(input.active !== undefined ? { active: input.active ? 1 : 0, disabled_reason: null } : {}),
        updated_at: now.toISOString(),
      });
    }),
  );
  return { org: o.org, hook, last: (await latestDeliveries(ctx.db, [hook.id])).get(hook.id) };
}

/** DELETE /orgs/{org}/hooks/{hook_id}: an active hook gets a `meta` event (action `deleted`) on its way out. */
export async function deleteOrgHook(ctx: ServiceContext, orgLogin: string, hookId: string | number): Promise<void> {
  const o = await owner(ctx, orgLogin);
  const existing = await visibleHook(ctx, o, hookId);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await lockHooksOf(trx, o);
    const hook = await visibleHook(ctx, o, existing.id, trx);
    if (hook.active) await ctx.events.emit(trx, { name: 'meta', action: 'deleted', orgId: o.org.id, senderId: o.actor.user.id, payload: metaDeletedPayload(hook, o.org, o.actor.user, ctx.urls.root) }, now);
    await deleteHook(trx, hook.id);
  });
  await scrubDeletedCopies(ctx.db);
}

/** GET /orgs/{org}/hooks/{hook_id}/config */
export async function getHookConfig(ctx: ServiceContext, orgLogin: string, hookId: string | number): Promise<HookRow> {
  const o = await owner(ctx, orgLogin);
  return visibleHook(ctx, o, hookId);
}

/** PATCH /orgs/{org}/hooks/{hook_id}/config: only the properties named change. */
export async function updateHookConfig(ctx: ServiceContext, orgLogin: string, hookId: string | number, body: Received<ConfigPatchBody>): Promise<HookRow> {
  const o = await owner(ctx, orgLogin);
  const existing = await visibleHook(ctx, o, hookId);
  const patch = parseConfigPatch(body);
  const now = ctx.clock.now();
  return withUniqueUrl(() =>
    ctx.db.transaction().execute(async (trx) => {
      await lockHooksOf(trx, o);
      const current = await visibleHook(ctx, o, existing.id, trx);
      if (patch.url !== undefined && shownUrl(patch.url) !== current.url) await checkRoom(trx, ctx, o.org.id, { id: current.id, url: shownUrl(patch.url), events: JSON.parse(current.events) as string[] });
      return updateHook(trx, current.id, {
        ...(patch.url !== undefined ? sealUrl(ctx.secrets, patch.url) : {}),
        ...(patch.contentType !== undefined ? { content_type: patch.contentType } : {}),
        ...(patch.insecureSsl !== undefined ? { insecure_ssl: patch.insecureSsl } : {}),
        ...(patch.secret !== undefined ? { secret: sealSecret(ctx.secrets, patch.secret) } : {}),
        updated_at: now.toISOString(),
      });
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
  throw new ValidationFailed([{ resource: 'HookDelivery', field: 'status', code: 'invalid', message: 'status must be success or failure' }]);
}

/** GET /orgs/{org}/hooks/{hook_id}/deliveries: newest first, by cursor. */
export async function listHookDeliveries(ctx: ServiceContext, orgLogin: string, hookId: string | number, query: { cursor?: unknown; status?: unknown; perPage: number }) {
  const o = await owner(ctx, orgLogin);
  const hook = await visibleHook(ctx, o, hookId);
  const status = statusFilter(query.status);
  const startId = decodeCursor(query.cursor);
  const page = await listDeliveries(ctx.db, hook.id, { status, startId, perPage: query.perPage });
  return { ...page, next: page.nextId && encodeCursor(page.nextId), prev: page.prevId && encodeCursor(page.prevId) };
}

async function visibleDelivery(ctx: ServiceContext, o: Owner, hookId: string | number, deliveryId: string | number): Promise<DeliveryRow> {
  const hook = await visibleHook(ctx, o, hookId);
  const row = await findDelivery(ctx.db, hook.id, parseId(deliveryId));
  if (!row) throw new NotFound();
  return row;
}

/** GET /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}: with the request payload as it was sent. */
export async function getHookDelivery(ctx: ServiceContext, orgLogin: string, hookId: string | number, deliveryId: string | number): Promise<{ row: DeliveryRow; payload: unknown }> {
  const o = await owner(ctx, orgLogin);
  const row = await visibleDelivery(ctx, o, hookId, deliveryId);
  const payload = await eventPayload(ctx.db, row.event_id);
  return { row, payload: payload !== undefined ? (JSON.parse(payload) as unknown) : null };
}

/** POST …/deliveries/{delivery_id}/attempts: the same event (same guid) again, as a new delivery marked `redelivery`. */
export async function redeliverHookDelivery(ctx: ServiceContext, orgLogin: string, hookId: string | number, deliveryId: string | number): Promise<void> {
  const o = await owner(ctx, orgLogin);
  const row = await visibleDelivery(ctx, o, hookId, deliveryId);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute((trx) => enqueueDelivery(ctx.jobs, trx, { hookId: row.hook_id, eventId: row.event_id, redelivery: true }, now));
}

/** POST /orgs/{org}/hooks/{hook_id}/pings: a ping event to this hook, active or not. */
export async function pingOrgHook(ctx: ServiceContext, orgLogin: string, hookId: string | number): Promise<void> {
  const o = await owner(ctx, orgLogin);
  const hook = await visibleHook(ctx, o, hookId);
  await ctx.events.emitAlone({ name: 'ping', orgId: o.org.id, senderId: o.actor.user.id, payload: pingPayload(hook, o.org, o.actor.user, ctx.urls.root) }, ctx.clock.now());
}
