// The outbox: inside the transaction that records an event, one delivery job per hook that should receive it.
import type { Db } from '../db/connect.js';
import type { EventRow } from '../db/tables/events.js';
import type { HookRow } from '../db/tables/webhooks.js';
import type { EventListener } from '../events/emit.js';
import type { JobWorker } from '../jobs/worker.js';
import { HOOK_SCOPED_EVENTS, subscribes } from './event-names.js';
import { GLOBAL_HOOK_EVENTS } from './scope.js';
import { activeHooksFor, hooksByIds, insertFarewell } from './store.js';
import type { OpenedConfig } from './sealed-config.js';

export const DELIVER_QUEUE = 'hooks.deliver';

/** Where a delivery goes and how it is signed: a hook's config, opened at delivery time (never carried by a job). */
export type Destination = OpenedConfig;

/** A delivery job names the hook and the event; the deliverer reads the hook's config when it runs. */
export interface DeliverJob {
  hookId: number;
  eventId: number;
  redelivery?: boolean;
  /**
   * The hook goes in the event's own transaction (an organization's hooks with its `organization` `deleted`): its
   * sealed config waits in a farewell row, read by the delivery and deleted with it (as for every `meta` event's job, known by its event).
   */
  farewell?: boolean;
  /** Automatic retries (off by default): the attempt this job makes, 1 for the first. */
  attempt?: number;
  /** When throttling first held this delivery back. */
  throttledAt?: string;
}

/** Job attempts allow for crashes and database trouble; a receiver's failure is recorded, not retried through this. */
const DELIVER_MAX_ATTEMPTS = 10;

/**
 * The event listener (the webhooks area's, one per app): `ping` and `meta` go to the hook they name; every other event to
 * the active hooks subscribed to its name or to `*` among its repository's hooks, its organization's hooks (an event of
 * an organization's repository reaches both) and, for the site-wide events GitHub Enterprise's global hooks receive
 * (`user`, `organization`, `repository`, …), the global hooks. An organization's `deleted` event still reaches its own
 * hooks, which go with it in the same transaction: each leaves a farewell row, as a deleted hook's `meta` does.
 */
export function fanOut(jobs: JobWorker): EventListener {
  return (trx, event, now) => fanOutEvent(jobs, trx, event, now);
}

async function fanOutEvent(jobs: JobWorker, trx: Db, event: EventRow, now: Date): Promise<void> {
  const job = (hookId: number, farewell = false) => {
    const payload: DeliverJob = { hookId, eventId: event.id, ...(farewell ? { farewell } : {}) };
    return { queue: DELIVER_QUEUE, payload, maxAttempts: DELIVER_MAX_ATTEMPTS };
  };
  if (HOOK_SCOPED_EVENTS.has(event.name)) {
    const hookId = (JSON.parse(event.payload) as { hook_id?: unknown }).hook_id;
    if (typeof hookId !== 'number') return;
    // A ping's caller found the hook a moment ago; were it deleted before the delivery runs, the delivery finds nothing
    // to send and stops (Deliverer.handle), so no read is needed in this transaction.
    if (event.name === 'ping') return void (await jobs.enqueueMany(trx, [job(hookId)], now));
    // `meta` (deleted): the hook row goes in this transaction, so its sealed config waits as a farewell row until the
    // delivery has run (then both go).
    const [hook] = await hooksByIds(trx, [hookId]);
    if (!hook) return;
    await insertFarewell(trx, hook, now);
    await jobs.enqueueMany(trx, [job(hook.id)], now);
    return;
  }
  const global = GLOBAL_HOOK_EVENTS.has(event.name);
  const reached = await activeHooksFor(trx, { orgId: event.org_id, repositoryId: event.repository_id, global });
  const targets = reached.filter((h) => subscribes(JSON.parse(h.events) as string[], event.name));
  const leaving = goesWithEvent(event);
  for (const h of targets) if (leaving(h)) await insertFarewell(trx, h, now, { orgGone: true });
  await jobs.enqueueMany(
    trx,
    targets.map((h) => job(h.id, leaving(h))),
    now,
  );
}

/**
 * Which of the hooks an event reaches are deleted in its own transaction: an organization's hooks, by its `deleted`
 * event (the rows cascade with the organization's, which its farewell rows must not reference).
 */
function goesWithEvent(event: EventRow): (hook: HookRow) => boolean {
  if (event.name !== 'organization' || event.action !== 'deleted' || event.org_id === null) return () => false;
  return (hook) => hook.scope === 'organization' && hook.org_id === event.org_id;
}

/** Sends an event again to one hook (redelivery), as a new job. */
export async function enqueueDelivery(jobs: JobWorker, trx: Db, job: DeliverJob, now: Date, runAt?: Date): Promise<void> {
  await jobs.enqueueMany(trx, [{ queue: DELIVER_QUEUE, payload: job, maxAttempts: DELIVER_MAX_ATTEMPTS, runAt }], now);
}
