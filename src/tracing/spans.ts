// Traces (OpenTelemetry), seen from the code that makes spans: the process's one tracing slot, empty unless `hublet serve`
// started tracing (OTEL_EXPORTER_OTLP_ENDPOINT set: sdk.ts, loaded only then, fills it). Process-wide, as OpenTelemetry's
// own registrations are (the tracer provider, the patched http and pg modules). Nothing is imported here at run time:
// off, a span site costs one read of the slot and runs its work as it would without tracing.
import type { Db } from '../db/connect.js';

/** Attribute values as OpenTelemetry takes them; undefined ones are left out. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface SpanOptions<T> {
  /**
   * W3C traceparents (`00-<trace id>-<span id>-<flags>`) of spans this one follows from without being their child:
   * span links. Null and malformed ones are skipped.
   */
  links?: readonly (string | null | undefined)[];
  /** A new trace of its own even inside another span (a job, whatever woke its worker): the links say where it came from. */
  root?: boolean;
  /** Attributes known once the work is done; an `error.type` among them marks the span as failed. */
  end?: (result: T) => SpanAttributes;
}

/** Tracing while it is on: spans for the code (inSpan), and what server/app.ts wires (the request hook, the fast path, SQLite). */
export interface Tracing {
  /** Runs `run` inside a span `name` (the active span while it runs), ended when it settles; a throw marks it failed. */
  span<T>(name: string, attributes: SpanAttributes, run: () => Promise<T>, options?: SpanOptions<T>): Promise<T>;
  /** The active span's W3C traceparent, null outside any span. */
  traceparent(): string | null;
  /** A Fastify onRequest hook: names the request's server span for its route (`GET /gists/{gist_id}`, `http.route`). */
  readonly onRequest: (request: { method: string; routeOptions: { url?: string } }, reply: unknown, done: () => void) => void;
  /** The fast path's access callback, also naming the server span of each request the fast path answers. */
  namingFastPath<R extends { method: string; route: string | null }>(access: ((record: R) => void) | undefined): (record: R) => void;
  /** Makes a span per statement of a SQLite database from now on (PostgreSQL's come from pg's instrumentation); returns the undo. */
  traceQueries(db: Db): () => void;
}

let active: Tracing | undefined;

/** The tracing serve started, or undefined (always, outside `hublet serve` with an OTLP endpoint). */
export function activeTracing(): Tracing | undefined {
  return active;
}

/** Fills the slot (sdk.ts, once the SDK runs) or empties it (at shutdown). */
export function setActiveTracing(tracing: Tracing | undefined): void {
  active = tracing;
}

/** Runs `run` inside a span while tracing is on (Tracing.span); otherwise just runs it. */
export function inSpan<T>(name: string, attributes: SpanAttributes, run: () => Promise<T>, options?: SpanOptions<T>): Promise<T> {
  return active ? active.span(name, attributes, run, options) : run();
}

/** The active span's traceparent to keep with something that happens later (an event's deliveries); null when off. */
export function currentTraceparent(): string | null {
  return active ? active.traceparent() : null;
}

/**
 * Whether `serve` traces, by OpenTelemetry's variables: an OTLP endpoint for traces (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), unless OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 */
export function tracesWanted(env: NodeJS.ProcessEnv): boolean {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() !== 'none';
}
