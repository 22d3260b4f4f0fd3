// The outbox: inside the transaction that records an event, one delivery job per hook that should receive it.
import type { Db } from '../db/connect.js';
import type { EventRow } from '../events/tables.js';
import { enqueueMany } from '../jobs/queue.js';
import { HOOK_SCOPED_EVENTS, subscribes } from './event-names.js';
import { activeHooks, findHook } from './store.js';
import type { HookRow } from './tables.js';
import type { HookConfigInput } from './validate.js';

export const DELIVER_QUEUE = 'hooks.deliver';

/** Where a delivery goes and how it is signed: a hook's config (a snapshot rides in the job when the hook is about to be deleted). */
export type Destination = HookConfigInput;

export interface DeliverJob {
  hookId: number;
  eventId: number;
  redelivery?: boolean;
  /** Automatic retries (off by default): the attempt this job makes, 1 for the first. */
  attempt?: number;
  /** When throttling first held this delivery back. */
  throttledAt?: string;
  /** Set for `meta` (deleted): the hook row is gone when the job runs. */
  target?: Destination;
}

/** Job attempts allow for crashes and database trouble; a receiver's failure is recorded, not retried through this. */
export const DELIVER_MAX_ATTEMPTS = 10;

export function destinationOf(hook: HookRow): Destination {
  return {
    url: hook.url,
    contentType: hook.content_type,
    insecureSsl: hook.insecure_ssl,
    secret: hook.secret,
    username: hook.username,
    password: hook.password,
  };
}

/**
 * The event listener (registered with onEvent): `ping` and `meta` go to the hook they name; every other event of an
 * organization to each of its active hooks subscribed to the event name or to `*`.
 */
export async function fanOut(trx: Db, event: EventRow, now: Date): Promise<void> {
  if (event.org_id === null) return;
  const job = (hookId: number, target?: Destination) => {
    const payload: DeliverJob = { hookId, eventId: event.id };
    if (target) payload.target = target;
    return { queue: DELIVER_QUEUE, payload, maxAttempts: DELIVER_MAX_ATTEMPTS };
  };
  if (HOOK_SCOPED_EVENTS.has(event.name)) {
    const hookId = (JSON.parse(event.payload) as { hook_id?: unknown }).hook_id;
    if (typeof hookId !== 'number') return;
    // A ping's caller found the hook a moment ago; were it deleted before the delivery runs, the delivery finds nothing
    // to send and stops (Deliverer.handle), so no read is needed in this transaction. `meta` carries the hook's config.
    if (event.name === 'ping') return void (await enqueueMany(trx, [job(hookId)], now));
    const hook = await findHook(trx, event.org_id, hookId, null);
    if (hook) await enqueueMany(trx, [job(hook.id, destinationOf(hook))], now);
    return;
  }
  const targets = (await activeHooks(trx, event.org_id)).filter((h) => subscribes(JSON.parse(h.events) as string[], event.name));
  await enqueueMany(trx, targets.map((h) => job(h.id)), now);
}

/** Sends an event again to one hook (redelivery), as a new job. */
export async function enqueueDelivery(trx: Db, job: DeliverJob, now: Date, runAt?: Date): Promise<void> {
  await enqueueMany(trx, [{ queue: DELIVER_QUEUE, payload: job, maxAttempts: DELIVER_MAX_ATTEMPTS, runAt }], now);
}
