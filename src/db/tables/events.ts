// Table types of the event log.
import type { Generated, Selectable } from 'kysely';

interface EventsTable {
  id: Generated<number>;
  guid: string;
  name: string;
  action: string | null;
  org_id: number | null;
  repository_id: number | null;
  sender_id: number | null;
  payload: string;
  created_at: string;
  /** The W3C traceparent of the span that recorded the event (src/tracing/), null when traces were off. */
  trace_context: string | null;
}

export interface EventTables {
  events: EventsTable;
}

export type EventRow = Selectable<EventsTable>;
