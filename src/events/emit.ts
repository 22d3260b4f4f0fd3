// The app's event log, which every source of events calls: records the event (the outbox) inside the caller's
// transaction and runs the listeners the areas declared (webhooks turn it into deliveries) in that same transaction.
// While traces are on, the event keeps the traceparent of the span that recorded it (its deliveries' spans link to it).
import crypto from 'node:crypto';
import { Batcher } from '../db/batch.js';
import type { Db } from '../db/connect.js';
import type { EventRow } from '../db/tables/events.js';
import { currentTraceparent } from '../tracing/spans.js';

export interface NewEvent {
  /** GitHub's event name: `push`, `repository`, `ping`, `meta`, … */
  name: string;
  action?: string | null;
  orgId?: number | null;
  repositoryId?: number | null;
  senderId?: number | null;
  /** The webhook payload exactly as receivers get it (GitHub's shape for this event). */
  payload: Record<string, unknown>;
}

/** Listeners run inside the same transaction, after the event row is written (webhooks turn it into deliveries). */
export type EventListener = (trx: Db, event: EventRow, now: Date) => Promise<void>;

/** One per app: its listeners, and the shared transaction of standalone events (emitAlone). */
export class EventLog {
  private readonly listeners: EventListener[] = [];
  private readonly alone: Batcher<{ event: NewEvent; now: Date; trace: string | null }, EventRow>;

  constructor(db: Db) {
    this.alone = new Batcher((inputs) =>
      db.transaction().execute(async (trx) => {
        const rows: EventRow[] = [];
        for (const input of inputs) rows.push(await this.record(trx, input.event, input.now, input.trace));
        return rows;
      }),
    );
  }

  /** Adds a listener; the app adds the areas' listeners while it is built. */
  listen(listener: EventListener): void {
    this.listeners.push(listener);
  }

  /**
   * Records an event. Call it with the transaction that makes the change, so the event exists exactly when the change
   * does. The guid is shared by every delivery of this event.
   */
  emit(trx: Db, event: NewEvent, now: Date): Promise<EventRow> {
    return this.record(trx, event, now, currentTraceparent());
  }

  /** Writes the event and runs the listeners; `trace`: the traceparent of the span that recorded it (null: traces off). */
  private async record(trx: Db, event: NewEvent, now: Date, trace: string | null): Promise<EventRow> {
    const values = {
      guid: crypto.randomUUID(),
      name: event.name,
      action: event.action ?? (typeof event.payload.action === 'string' ? event.payload.action : null),
      org_id: event.orgId ?? null,
      repository_id: event.repositoryId ?? null,
      sender_id: event.senderId ?? null,
      payload: JSON.stringify(event.payload),
      created_at: now.toISOString(),
      trace_context: trace,
    };
    // Only the id comes back: the row is what was written (the payload need not travel back from the database).
    const { id } = await trx.insertInto('events').values(values).returning('id').executeTakeFirstOrThrow();
    const row: EventRow = { id, ...values };
    for (const listener of this.listeners) await listener(trx, row, now);
    return row;
  }

  /**
   * Records an event that is a change of its own (a ping): in a transaction shared with the other events emitted at the
   * same moment, so a stream of them pays for one BEGIN and COMMIT per batch instead of per event (group commit: the
   * writer is held half as long per ping). If the shared transaction fails, every event in it fails with it.
   */
  emitAlone(event: NewEvent, now: Date): Promise<EventRow> {
    // The caller's span, taken now: the shared transaction runs in whichever caller's turn started it.
    return this.alone.add({ event, now, trace: currentTraceparent() });
  }
}
