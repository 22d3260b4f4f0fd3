// The app's metrics when `--metrics-listen` is set: a prom-client registry of its own per app (never the global one,
// so several apps in one process never share a series), the HTTP, cache, webhook, sign-in, rate-limit, git, database
// and job series, and Node's process metrics. Loaded only when metrics are on; the names are in docs/operations.md.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/connect.js';
import { queryTiming, type QueryTimer } from '../db/query-timing.js';
import type { Exposition, Metrics, SignInOutcome } from './metrics.js';
import { methodLabel, RouteLabels } from './route-labels.js';
import { registerJobGauges } from './waiting-jobs.js';

/** Whether a request's response came from the response cache (`hit`), was built for it (`miss`), or has no cache (`none`). */
type CacheOutcome = 'hit' | 'miss' | 'none';

/** An answered request as the access log sees it (fast-path.ts AccessRecord has these fields). */
interface ServedRequest {
  method: string;
  /** The route's URL pattern; null when no route matched. */
  route: string | null;
  status: number;
  durationMs: number;
}

/** What the onResponse hook reads of a request Fastify answered. */
interface AnsweredRequest {
  method: string;
  routeOptions: { url?: string };
}

interface AnsweredReply {
  statusCode: number;
  /** Milliseconds since the request was received. */
  elapsedTime: number;
}

interface PrometheusContext {
  db: Db;
  clock: { now(): Date };
  log: { warn(obj: object, msg: string): void };
}

/** Seconds: from a cached read answered in memory to a slow page. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: a statement on a local SQLite file takes tens of microseconds. */
const DB_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Seconds: up to the longest hook timeout worth having. */
const DELIVERY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class PrometheusMetrics implements Metrics {
  private readonly registry = new Registry();
  private readonly routes = new RouteLabels();
  /** The queues the areas declare, reported even while none of their jobs waits. */
  private readonly queues = new Set<string>();
  /** What the response cache said of each request Fastify answers (ResponseCache.observe); unmarked: `none`. */
  private readonly cacheMarks = new WeakMap<object, 'hit' | 'miss'>();
  private readonly requestCounts: Counter<'route' | 'method' | 'status' | 'cache'>;
  private readonly requestSeconds: Histogram<'route' | 'method'>;
  /** Children by their label values, so a request costs two map lookups rather than prom-client's label hashing. */
  private readonly countChildren = new Map<string, { inc(): void }>();
  private readonly durationChildren = new Map<string, { observe(v: number): void }>();
  private readonly cacheHits: Counter;
  private readonly cacheMisses: Counter;
  private readonly deliveries: Counter<'outcome'>;
  private readonly deliverySeconds: Histogram;
  private readonly signIns: Counter<'outcome'>;
  private readonly rateRefusals: Counter<'caller'>;
  private readonly gitOperations: Counter<'operation' | 'kind'>;
  private readonly queryTimer: QueryTimer;

  constructor(private readonly ctx: PrometheusContext) {
    const registers = [this.registry];
    this.requestCounts = new Counter({
      name: 'hublet_http_requests_total',
      help: 'HTTP requests answered, by route template, method, status and whether the response cache answered (hit), built the response (miss) or does not serve the route (none)',
      labelNames: ['route', 'method', 'status', 'cache'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'hublet_http_request_duration_seconds',
      help: 'Time from receiving a request to its response, by route template and method',
      labelNames: ['route', 'method'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.cacheHits = new Counter({
      name: 'hublet_response_cache_hits_total',
      help: 'Requests answered from the response cache',
      registers,
    });
    this.cacheMisses = new Counter({
      name: 'hublet_response_cache_misses_total',
      help: 'Cached reads whose response had to be built (none current was kept)',
      registers,
    });
    this.deliveries = new Counter({
      name: 'hublet_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome: success (a 2xx or 3xx answer) or failure (another status, or no answer)',
      labelNames: ['outcome'],
      registers,
    });
    this.deliverySeconds = new Histogram({
      name: 'hublet_webhook_delivery_duration_seconds',
      help: 'Duration of webhook delivery attempts (connect, send, answer)',
      buckets: DELIVERY_BUCKETS,
      registers,
    });
    this.signIns = new Counter({
      name: 'hublet_sign_ins_total',
      help: 'Password sign-ins on the web, by outcome: success, failure (wrong password, unknown name, suspended) or throttled',
      labelNames: ['outcome'],
      registers,
    });
    this.rateRefusals = new Counter({
      name: 'hublet_rate_limit_refusals_total',
      help: 'Requests refused for being over the rate limit, by caller: a token’s user or an anonymous address',
      labelNames: ['caller'],
      registers,
    });
    this.gitOperations = new Counter({
      name: 'hublet_git_operations_total',
      help: 'Authorized git commands, by operation (fetch: a clone, fetch or ls-remote; push: a push sending updates) and kind (gist or repository)',
      labelNames: ['operation', 'kind'],
      registers,
    });
    const queries = new Histogram({
      name: 'hublet_db_query_duration_seconds',
      help: 'Duration of database statements, by kind: read (SELECT) or write',
      labelNames: ['kind'],
      buckets: DB_BUCKETS,
      registers,
    });
    const writerWaits = new Histogram({
      name: 'hublet_db_writer_wait_seconds',
      help: 'Time spent waiting for SQLite’s one writer connection (transactions and writes take turns); nothing on PostgreSQL',
      buckets: DB_BUCKETS,
      registers,
    });
    for (const outcome of ['success', 'failure']) this.deliveries.labels(outcome).inc(0);
    for (const outcome of ['success', 'failure', 'throttled']) this.signIns.labels(outcome).inc(0);
    for (const caller of ['user', 'anonymous']) this.rateRefusals.labels(caller).inc(0);
    for (const operation of ['fetch', 'push']) for (const kind of ['gist', 'repository']) this.gitOperations.labels(operation, kind).inc(0);
    const reads = queries.labels('read');
    const writes = queries.labels('write');
    this.queryTimer = {
      query: (kind, seconds) => (kind === 'read' ? reads : writes).observe(seconds),
      writerWait: (seconds) => writerWaits.observe(seconds),
    };
    registerJobGauges(this.registry, ctx, this.queues);
    collectDefaultMetrics({ register: this.registry });
  }

  /** Reports these queues' gauges even while none of their jobs waits. */
  declareQueues(names: readonly string[]): void {
    for (const name of names) this.queues.add(name);
  }

  /** Times the database's statements and writer waits from now on; the returned function stops it. */
  watchQueries(): () => void {
    const timing = queryTiming(this.ctx.db);
    if (!timing) return () => {};
    timing.timer = this.queryTimer;
    return () => {
      if (timing.timer === this.queryTimer) timing.timer = undefined;
    };
  }

  /** The response cache's report on a request (ResponseCache.observe): the last word wins (a lookup, then its build). */
  readonly cacheOutcome = (request: object, outcome: 'hit' | 'miss'): void => {
    this.cacheMarks.set(request, outcome);
  };

  /** The onResponse hook: counts every request Fastify answered. */
  readonly onResponse = async (request: AnsweredRequest, reply: AnsweredReply): Promise<void> => {
    this.served(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime, this.cacheMarks.get(request) ?? 'none');
  };

  /** The fast path's access callback, counting each request it answers (a cache hit) besides writing its log line. */
  countingFastPath<R extends ServedRequest>(access: ((record: R) => void) | undefined): (record: R) => void {
    return (record) => {
      access?.(record);
      this.served(record.route, record.method, record.status, record.durationMs, 'hit');
    };
  }

  private served(pattern: string | null | undefined, rawMethod: string, status: number, ms: number, cache: CacheOutcome): void {
    const route = this.routes.of(pattern);
    const method = methodLabel(rawMethod);
    const countKey = `${route} ${method} ${status} ${cache}`;
    let count = this.countChildren.get(countKey);
    if (!count) {
      count = this.requestCounts.labels(route, method, String(status), cache);
      this.countChildren.set(countKey, count);
    }
    count.inc();
    const durationKey = `${route} ${method}`;
    let duration = this.durationChildren.get(durationKey);
    if (!duration) {
      duration = this.requestSeconds.labels(route, method);
      this.durationChildren.set(durationKey, duration);
    }
    duration.observe(ms / 1000);
    if (cache === 'hit') this.cacheHits.inc();
    else if (cache === 'miss') this.cacheMisses.inc();
  }

  webhookDelivery(outcome: 'success' | 'failure', seconds: number): void {
    this.deliveries.labels(outcome).inc();
    this.deliverySeconds.observe(seconds);
  }

  signIn(outcome: SignInOutcome): void {
    this.signIns.labels(outcome).inc();
  }

  rateLimited(caller: 'user' | 'anonymous'): void {
    this.rateRefusals.labels(caller).inc();
  }

  gitRequest(endpoint: string, operation: 'read' | 'write', kind: 'gist' | 'repository'): void {
    if (endpoint === 'info/refs' && operation === 'read') this.gitOperations.labels('fetch', kind).inc();
    else if (endpoint === 'git-receive-pack') this.gitOperations.labels('push', kind).inc();
  }

  async scrape(): Promise<Exposition> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
