// Reads of the event log (its rows are written by EventLog.emit, in the transaction of each change).
import type { Db } from '../db/connect.js';
import type { EventRow } from '../db/tables/events.js';

/** The events with these ids that exist (any order). */
export function eventsByIds(db: Db, ids: readonly number[]): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/** One event's payload as recorded (JSON text), or undefined once the event was pruned. */
export async function eventPayload(db: Db, id: number): Promise<string | undefined> {
  return (await db.selectFrom('events').select('payload').where('id', '=', id).executeTakeFirst())?.payload;
}
