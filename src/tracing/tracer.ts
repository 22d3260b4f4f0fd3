// What the code's spans become while traces are on (loaded with sdk.ts, never when off): spans of OpenTelemetry's API,
// the request's server span named for its route (`GET /gists/{gist_id}`, `http.route` in the same `{name}` form as the
// metrics' route label), and a client span per SQLite statement with its SQL text (placeholders, never values).
import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import {
  AliasNode,
  type CompiledQuery,
  DeleteQueryNode,
  InsertQueryNode,
  type OperationNode,
  SelectQueryNode,
  TableNode,
  UpdateQueryNode,
} from 'kysely';
import type { Db } from '../db/connect.js';
import { isPostgresDb } from '../db/dialect.js';
import { queryTiming, type QueryTracer } from '../db/query-timing.js';
import type { SpanAttributes, SpanOptions, Tracing } from './spans.js';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The attributes that have a value. */
function defined(attributes: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

/** A span link to the span a traceparent names; none for null or a malformed one. */
function linkTo(traceparent: string | null | undefined): Link[] {
  const m = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (!m) return [];
  const spanContext = { traceId: m[1], spanId: m[2], traceFlags: Number.parseInt(m[3], 16), isRemote: true };
  return isSpanContextValid(spanContext) ? [{ context: spanContext }] : [];
}

/** Marks a span failed by what was thrown: its status, `error.type` (the error's code, else its class) and an event. */
function failed(span: Span, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: e.message });
  span.setAttribute('error.type', String((e as NodeJS.ErrnoException).code ?? e.name));
  span.recordException(e);
}

/** The table a statement reads or writes first, from Kysely's tree; undefined for raw SQL. */
function tableOf(node: OperationNode): string | undefined {
  const named = (n: OperationNode | undefined): string | undefined => {
    if (n && TableNode.is(n)) return n.table.identifier.name;
    if (n && AliasNode.is(n)) return named(n.node);
    return undefined;
  };
  if (SelectQueryNode.is(node)) return named(node.from?.froms[0]);
  if (InsertQueryNode.is(node)) return named(node.into);
  if (UpdateQueryNode.is(node)) return named(node.table);
  if (DeleteQueryNode.is(node)) return named(node.from.froms[0]);
  return undefined;
}

/** The statement's first keyword, upper case (`SELECT`, `INSERT`, `PRAGMA`, …): OpenTelemetry's `db.operation.name`. */
function operationOf(sql: string): string {
  const m = /^\s*([A-Za-z]+)/.exec(sql);
  return m ? m[1].toUpperCase() : 'QUERY';
}

export class OpenTelemetryTracing implements Tracing {
  /** Fastify's URL patterns in the `{name}` form, each converted once (the routes are the app's own: a bounded set). */
  private readonly templates = new Map<string, string>();

  constructor(private readonly tracer: Tracer) {}

  async span<T>(name: string, attributes: SpanAttributes, run: () => Promise<T>, options?: SpanOptions<T>): Promise<T> {
    const parent = options?.root ? ROOT_CONTEXT : context.active();
    const links = options?.links?.flatMap(linkTo);
    const span = this.tracer.startSpan(name, { attributes: defined(attributes), links, root: options?.root }, parent);
    try {
      const result = await context.with(trace.setSpan(parent, span), run);
      if (options?.end) {
        const after = options.end(result);
        span.setAttributes(defined(after));
        if (after['error.type'] !== undefined) span.setStatus({ code: SpanStatusCode.ERROR });
      }
      return result;
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  }

  traceparent(): string | null {
    const sc = trace.getActiveSpan()?.spanContext();
    if (!sc || !isSpanContextValid(sc)) return null;
    return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  }

  readonly onRequest = (request: { method: string; routeOptions: { url?: string } }, _reply: unknown, done: () => void): void => {
    const pattern = request.routeOptions.url;
    if (pattern) this.nameServerSpan(request.method, pattern);
    done();
  };

  namingFastPath<R extends { method: string; route: string | null }>(access: ((record: R) => void) | undefined): (record: R) => void {
    return (record) => {
      if (record.route) this.nameServerSpan(record.method, record.route);
      access?.(record);
    };
  }

  traceQueries(db: Db): () => void {
    const timing = queryTiming(db);
    // PostgreSQL's statements have their spans from pg's instrumentation (sdk.ts).
    if (!timing || isPostgresDb(db)) return () => {};
    timing.tracer = this.sqlite;
    return () => {
      if (timing.tracer === this.sqlite) timing.tracer = undefined;
    };
  }

  /**
   * The active span is the request's server span (http's instrumentation makes it before anything of the app runs):
   * named for the route's template, which `http.route` holds; a request no route matched keeps the method alone.
   */
  private nameServerSpan(method: string, pattern: string): void {
    const span = trace.getActiveSpan();
    if (!span) return;
    let route = this.templates.get(pattern);
    if (route === undefined) {
      route = pattern.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*/g, '{path}');
      this.templates.set(pattern, route);
    }
    span.setAttribute('http.route', route);
    span.updateName(`${method} ${route}`);
  }

  /**
   * A span per SQLite statement inside another span (a request, a delivery, an export), as pg's instrumentation is set
   * (requireParentSpan): `SELECT gists`, with `db.query.text` the SQL as Kysely compiled it (placeholders, never
   * values). Statements outside any span (the job worker's polling) are not traced.
   */
  private readonly sqlite: QueryTracer = {
    trace: <R>(query: CompiledQuery, run: () => Promise<R>): Promise<R> => {
      const parent: Context = context.active();
      if (!trace.getSpan(parent)) return run();
      const operation = operationOf(query.sql);
      const table = tableOf(query.query);
      const attributes: Attributes = { 'db.system.name': 'sqlite', 'db.operation.name': operation, 'db.query.text': query.sql };
      if (table) attributes['db.collection.name'] = table;
      const span = this.tracer.startSpan(table ? `${operation} ${table}` : operation, { kind: SpanKind.CLIENT, attributes }, parent);
      return run().then(
        (result) => {
          span.end();
          return result;
        },
        (err: unknown) => {
          failed(span, err);
          span.end();
          throw err;
        },
      );
    },
  };
}
