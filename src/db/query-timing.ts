// Where a database opened by connect() reports how long its queries take and how long SQLite's writer was waited for:
// one slot per database, empty unless metrics are on (then every query costs a clock read; otherwise one field read).
// Its second field traces each statement in a span while traces are on (src/tracing/), on SQLite only: PostgreSQL's
// statements are traced by pg's own instrumentation. Empty, it too costs a field read.
import type { CompiledQuery, Kysely } from 'kysely';

/** Told about every query and every wait for SQLite's one writer connection; durations in seconds. */
export interface QueryTimer {
  query(kind: 'read' | 'write', seconds: number): void;
  writerWait(seconds: number): void;
}

/** Runs one statement inside a span (its SQL text, never its values); `run` executes it. */
export interface QueryTracer {
  trace<R>(query: CompiledQuery, run: () => Promise<R>): Promise<R>;
}

/** The slot the dialect reads at each query: `timer` is set while something watches (src/metrics/), `tracer` while traces are on. */
export class QueryTiming {
  timer: QueryTimer | undefined;
  tracer: QueryTracer | undefined;
}

const registry = new WeakMap<object, QueryTiming>();

/** The slot of a database opened by connect(); undefined for a transaction or another Kysely instance. */
export function queryTiming(db: Kysely<any>): QueryTiming | undefined {
  return registry.get(db);
}

export function registerQueryTiming(db: Kysely<any>, timing: QueryTiming): void {
  registry.set(db, timing);
}
