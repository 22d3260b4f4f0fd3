// Queries on hooks and deliveries; every hook query is scoped to its target (an organization, a repository or the site)
// and to who may see app-made hooks (but the instance's statistics, which count them all).
import type { Db } from '../db/connect.js';
import { lockAgainstChanges } from '../db/dialect.js';
import { sql, type Insertable } from 'kysely';
import type { EnterpriseStatsOf } from '../core/contributions.js';
import type { DeliveryRow, FarewellRow, HookDeliveriesTable, HookRow } from '../db/tables/webhooks.js';

/** Whose hooks a caller sees: an OAuth app sees the hooks its tokens made; everyone else sees the ones people made. */
export interface Visibility {
  appId: number | null;
}

/** Whose a hook is (scope.ts's HookTarget, named here to keep the store below it). */
type Target = Pick<HookRow, 'scope' | 'org_id' | 'repository_id'>;

type HookQuery = ReturnType<typeof hooksOf>;

function hooksOf(db: Db, target: Target, who: Visibility | null) {
  let q = db.selectFrom('hooks').selectAll().where('scope', '=', target.scope);
  if (target.scope === 'organization') q = q.where('org_id', '=', target.org_id);
  if (target.scope === 'repository') q = q.where('repository_id', '=', target.repository_id);
  if (who) q = who.appId === null ? q.where('created_by_app_id', 'is', null) : q.where('created_by_app_id', '=', who.appId);
  return q;
}

export async function listHooks(
  db: Db,
  target: Target,
  who: Visibility,
  page: { offset: number; perPage: number },
): Promise<{ rows: HookRow[]; total: number }> {
  const base: HookQuery = hooksOf(db, target, who);
  const [rows, count] = await Promise.all([
    base.orderBy('id').limit(page.perPage).offset(page.offset).execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Every hook of the target, whoever made it (duplicate and per-event limit checks count them all). */
export function allHooks(db: Db, target: Target): Promise<HookRow[]> {
  return hooksOf(db, target, null).orderBy('id').execute();
}

export function findHook(db: Db, target: Target, id: number, who: Visibility | null): Promise<HookRow | undefined> {
  return hooksOf(db, target, who).where('id', '=', id).executeTakeFirst();
}

/** The hooks with these ids that exist, of any target (the deliverer reads the hooks of its jobs at once). */
export function hooksByIds(db: Db, ids: readonly number[]): Promise<HookRow[]> {
  return db
    .selectFrom('hooks')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/** Which of these hooks still exist, locked against changes until `trx` ends (a concurrent delete waits for it). */
export async function lockExistingHooks(trx: Db, ids: readonly number[]): Promise<Set<number>> {
  const rows = await lockAgainstChanges(
    trx,
    trx
      .selectFrom('hooks')
      .select('id')
      .where('id', 'in', [...new Set(ids)]),
  ).execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The active hooks an event may reach (the outbox matches their subscriptions): its repository's, its organization's,
 * and, for an event of the whole site, the global hooks.
 */
export function activeHooksFor(db: Db, event: { orgId: number | null; repositoryId: number | null; global: boolean }): Promise<HookRow[]> {
  const { orgId, repositoryId, global } = event;
  if (orgId === null && repositoryId === null && !global) return Promise.resolve([]);
  return db
    .selectFrom('hooks')
    .selectAll()
    .where('active', '=', 1)
    .where((eb) =>
      eb.or([
        ...(repositoryId !== null ? [eb.and([eb('scope', '=', 'repository'), eb('repository_id', '=', repositoryId)])] : []),
        ...(orgId !== null ? [eb.and([eb('scope', '=', 'organization'), eb('org_id', '=', orgId)])] : []),
        ...(global ? [eb('scope', '=', 'global')] : []),
      ]),
    )
    .orderBy('id')
    .execute();
}

/** The newest `push` event of a repository still in the event log (a repository hook's test re-sends it). */
export async function latestPushEvent(db: Db, repositoryId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('events')
    .select('id')
    .where('name', '=', 'push')
    .where('repository_id', '=', repositoryId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

export async function insertHook(db: Db, values: Omit<HookRow, 'id'>): Promise<HookRow> {
  return db.insertInto('hooks').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateHook(
  db: Db,
  id: number,
  values: Partial<Omit<HookRow, 'id' | 'scope' | 'org_id' | 'repository_id'>>,
): Promise<HookRow> {
  return db.updateTable('hooks').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteHook(db: Db, id: number): Promise<void> {
  await db.deleteFrom('hook_deliveries').where('hook_id', '=', id).execute();
  await db.deleteFrom('hooks').where('id', '=', id).execute();
}

/**
 * Keeps what a deleted hook's last delivery (`meta`, or its organization's `deleted`) needs, its sealed config, until
 * that delivery has run. `orgGone`: the organization is deleted in the same transaction, so the row does not name it
 * (its `org_id` would cascade); the delivery takes the organization's id from the event.
 */
export async function insertFarewell(db: Db, hook: HookRow, now: Date, opts: { orgGone?: boolean } = {}): Promise<void> {
  const { scope, repository_id, url, url_sealed, content_type, insecure_ssl, secret, username, password, sealed_with } = hook;
  const { signature_format, previous_secret, previous_secret_until } = hook;
  const org_id = opts.orgGone ? null : hook.org_id;
  await db
    .insertInto('hook_farewells')
    .values({
      hook_id: hook.id,
      scope,
      org_id,
      repository_id,
      url,
      url_sealed,
      content_type,
      insecure_ssl,
      secret,
      username,
      password,
      sealed_with,
      signature_format,
      previous_secret,
      previous_secret_until,
      created_at: now.toISOString(),
    })
    .execute();
}

export function findFarewell(db: Db, hookId: number): Promise<FarewellRow | undefined> {
  return db.selectFrom('hook_farewells').selectAll().where('hook_id', '=', hookId).executeTakeFirst();
}

export async function deleteFarewell(db: Db, hookId: number): Promise<void> {
  await db.deleteFrom('hook_farewells').where('hook_id', '=', hookId).execute();
}

/** Farewells whose `meta` delivery never ran (its job gave up) go after a day. */
export async function pruneFarewells(db: Db, before: Date): Promise<number> {
  const r = await db.deleteFrom('hook_farewells').where('created_at', '<', before.toISOString()).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}

/** The newest delivery of each hook (its `last_response`). */
export async function latestDeliveries(db: Db, hookIds: number[]): Promise<Map<number, DeliveryRow>> {
  const out = new Map<number, DeliveryRow>();
  if (hookIds.length === 0) return out;
  const rows = await db
    .selectFrom('hook_deliveries')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('hook_deliveries')
        .select((e) => e.fn.max<number>('id').as('id'))
        .where('hook_id', 'in', hookIds)
        .groupBy('hook_id'),
    )
    .execute();
  for (const r of rows) out.set(r.hook_id, r);
  return out;
}

export type DeliveryStatusFilter = 'success' | 'failure' | undefined;

function deliveriesOf(db: Db, hookId: number, status: DeliveryStatusFilter) {
  let q = db.selectFrom('hook_deliveries').where('hook_id', '=', hookId);
  // success: the receiver answered 200–399. failure: it answered 400–599, or never answered (status_code 0).
  if (status === 'success') q = q.where('status_code', '>=', 200).where('status_code', '<=', 399);
  if (status === 'failure') q = q.where((eb) => eb.or([eb('status_code', '<', 200), eb('status_code', '>', 399)]));
  return q;
}

/** A page of deliveries, newest first, starting at delivery `startId` (inclusive) when given; `more` says whether older ones follow. */
export async function listDeliveries(
  db: Db,
  hookId: number,
  opts: { status: DeliveryStatusFilter; startId?: number; perPage: number },
): Promise<{ rows: DeliveryRow[]; nextId?: number; prevId?: number }> {
  let q = deliveriesOf(db, hookId, opts.status).selectAll();
  if (opts.startId !== undefined) q = q.where('id', '<=', opts.startId);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(opts.perPage + 1)
    .execute();
  const nextId = rows.length > opts.perPage ? rows[opts.perPage].id : undefined;
  const page = rows.slice(0, opts.perPage);
  let prevId: number | undefined;
  if (opts.startId !== undefined) {
    // The previous page is the perPage newer deliveries; its cursor is the newest of them.
    const newer = await deliveriesOf(db, hookId, opts.status)
      .select('id')
      .where('id', '>', page.length ? page[0].id : opts.startId)
      .orderBy('id', 'asc')
      .limit(opts.perPage)
      .execute();
    if (newer.length) prevId = newer[newer.length - 1].id;
  }
  return { rows: page, nextId, prevId };
}

export function findDelivery(db: Db, hookId: number, id: number): Promise<DeliveryRow | undefined> {
  return db.selectFrom('hook_deliveries').selectAll().where('hook_id', '=', hookId).where('id', '=', id).executeTakeFirst();
}

/** Records attempts, a bounded number of rows per statement (SQLite caps bound parameters). */
export async function insertDeliveries(db: Db, rows: Insertable<HookDeliveriesTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 50)
    await db
      .insertInto('hook_deliveries')
      .values(rows.slice(i, i + 50))
      .execute();
}

/** The status codes of a hook's newest deliveries, newest first (automatic disabling looks at them). */
export function recentDeliveries(db: Db, hookId: number, n: number): Promise<Pick<DeliveryRow, 'status_code' | 'delivered_at'>[]> {
  return db
    .selectFrom('hook_deliveries')
    .select(['status_code', 'delivered_at'])
    .where('hook_id', '=', hookId)
    .orderBy('id', 'desc')
    .limit(n)
    .execute();
}

/** How many deliveries a hook got since `since` (throttling counts them). */
export async function deliveriesSince(db: Db, hookId: number, since: Date): Promise<number> {
  const r = await db
    .selectFrom('hook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('hook_id', '=', hookId)
    .where('delivered_at', '>=', since.toISOString())
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Deletes deliveries made before `before`; returns how many. */
/** Deletes events recorded before `before` that no remaining delivery points at (nothing left to redeliver). */
export async function pruneEvents(db: Db, before: Date): Promise<number> {
  const r = await db
    .deleteFrom('events')
    .where('created_at', '<', before.toISOString())
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('hook_deliveries').select('hook_deliveries.id').whereRef('hook_deliveries.event_id', '=', 'events.id'))),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}

export async function pruneDeliveries(db: Db, before: Date): Promise<number> {
  const r = await db.deleteFrom('hook_deliveries').where('delivered_at', '<', before.toISOString()).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}

/** GitHub Enterprise's `hooks` statistics: every hook, active or not. */
export const hookStats: EnterpriseStatsOf = async (db) => {
  const row = await db
    .selectFrom('hooks')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>(sql`case when active = 1 then 1 end`).as('active')])
    .executeTakeFirstOrThrow();
  const total = Number(row.total);
  const active = Number(row.active);
  return { hooks: { total_hooks: total, active_hooks: active, inactive_hooks: total - active } };
};
