// Builds the Fastify app from a config and an open database: the same app serves HTTP, tests and the CLI's local mode.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import crypto from 'node:crypto';
import type { ServerOptions as HttpsOptions } from 'node:https';
import { accountsArea } from '../accounts/area.js';
import { auditArea } from '../audit/area.js';
import { authenticator } from '../accounts/authenticate.js';
import type { Area } from '../core/area.js';
import { systemClock, type AppContext, type Clock, type ServiceContext } from '../core/context.js';
import type { AccountContributions } from '../core/contributions.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { EventLog } from '../events/emit.js';
import { gistsArea } from '../gists/area.js';
import { graphqlArea } from '../graphql/area.js';
import { JobWorker } from '../jobs/worker.js';
import { migrationsArea } from '../migrations/area.js';
import { clientAddressOf, proxyTrust } from '../net/trusted-proxies.js';
import { repositoriesArea } from '../repos/area.js';
import { webhooksArea } from '../webhooks/area.js';
import { webArea } from '../web/area.js';
import { registerAuth, ScopeHeaders } from '../http/auth.js';
import { registerJsonBody } from '../http/body.js';
import { BodyTags, registerConditional } from '../http/conditional.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandler } from '../http/error-handler.js';
import { FastPath } from '../http/fast-path.js';
import type { Actor } from '../core/grants.js';
import type {} from '../http/fastify-types.js';
import { RateLimiter, registerRateLimit } from '../http/rate-limit.js';
import { ResponseCache } from '../http/response-cache.js';
import { hasApiPrefix, makeUrls, withoutApiPrefix } from '../core/urls.js';
import { MediaTypes, registerVersioning } from '../http/versioning.js';
import { accessLog, logOutput, logResponse, requestLogger } from '../http/logging.js';
import { metaRoutes } from '../http/meta-routes.js';
import { Readiness } from '../http/health-checks.js';
import { healthRoutes } from '../http/health-routes.js';
import { noMetrics } from '../metrics/metrics.js';
import { activeTracing } from '../tracing/spans.js';
import { loadSecretBox } from './secret-key-file.js';
import { createValidatorCompiler } from '../http/validation.js';

export interface BuildOptions {
  config: Readonly<Config>;
  db: Db;
  clock?: Clock;
  /** The CLI's in-process app: trusts the local-actor header (never set on a listening server). */
  local?: boolean;
  /** HTTPS: the certificate and key (`serve --tls-cert/--tls-key`); unset: plain HTTP. */
  https?: HttpsOptions;
}

/**
 * Every area of the app, each declared by its folder's one export and wired the same way (routes registered in this
 * order; queues, event listeners, account contributions and lifecycle collected on the app's context).
 */
export const AREAS: readonly Area[] = [
  accountsArea,
  repositoriesArea,
  webhooksArea,
  migrationsArea,
  gistsArea,
  auditArea,
  graphqlArea,
  webArea,
];

/**
 * Stops the app: GET /_health/ready fails, no new connections, idle keep-alive sockets closed, requests in flight finish,
 * jobs stop claiming. A response that cannot finish (a download whose client stopped reading) is cut after `graceMs`, so
 * a stop never hangs.
 */
export async function closeApp(app: FastifyInstance, graceMs = 10_000): Promise<void> {
  app.readiness.stop('closing');
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  cut.unref();
  // Node closes the keep-alive sockets idle when the close begins; one whose request finishes later would be kept
  // until its keep-alive timeout (72 s): closed as soon as it falls idle instead.
  const reap = setInterval(() => app.server.closeIdleConnections(), 100);
  reap.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
    clearInterval(reap);
  }
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const logLevel = options.local ? 'silent' : options.config.logLevel;
  const output = logOutput(logLevel);
  // Who the client is (request.ip): the socket's peer, or who a trusted proxy says it forwards; the fast path uses the same rule.
  const trust = proxyTrust(options.config.trustProxy);
  const app = Fastify({
    logger: requestLogger(logLevel, output),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.config.bodyLimitBytes,
    genReqId: () => crypto.randomUUID(),
    // request.log is the app's logger itself, not a child per request (building one, with redaction, was 2% of a
    // cached read): the few lines logged about a request name its id themselves (`reqId`), as the access log does.
    childLoggerFactory: (logger) => logger,
    requestIdHeader: false,
    return503OnClosing: true,
    // On close: idle keep-alive sockets are closed at once, requests in flight finish (SIGTERM's contract).
    forceCloseConnections: 'idle',
    // Long gist file names travel in raw URLs: allow long path segments (find-my-way's default is 100).
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2048 },
    rewriteUrl: (req) => withoutApiPrefix(req.url ?? '/'),
    // Errors before any route (a path that does not decode, a segment too long) and Node's parser errors: GitHub bodies.
    frameworkErrors,
    clientErrorHandler,
    https: options.https ?? null,
    trustProxy: trust,
  });
  const clock = options.clock ?? systemClock;
  const responses = new ResponseCache(options.config.responseCacheMiB * 1024 * 1024);
  // Metrics only when `serve` exposes them (never in the CLI's local mode); off, no hook, timer or prom-client is loaded.
  const prometheus =
    options.config.metricsListen !== undefined && !options.local
      ? new (await import('../metrics/prometheus.js')).PrometheusMetrics({ db: options.db, clock, log: app.log })
      : undefined;
  const ctx: AppContext = {
    db: options.db,
    config: options.config,
    urls: makeUrls(options.config.baseUrl),
    clock,
    log: app.log,
    jobs: new JobWorker({ db: options.db, clock, log: app.log }),
    events: new EventLog(options.db),
    accounts: accountContributions(AREAS),
    repositories: providedByOne(AREAS, (a) => a.repositoryReads, 'repository reads'),
    hooks: providedByOne(AREAS, (a) => a.hookImports, 'webhook imports'),
    audit: providedByOne(AREAS, (a) => a.auditLog, 'the audit log'),
    responses,
    // The key is read (or the key file created) before anything can seal or open a secret; a bad one stops the start.
    secrets: loadSecretBox(options.config),
    metrics: prometheus ?? noMetrics,
  };
  const closers: Array<() => Promise<void>> = [];
  app.addHook('onClose', async () => {
    // Running jobs finish first; only then do the areas release what their jobs use (connection pools).
    try {
      await ctx.jobs.stop();
      for (const close of closers) await close();
    } finally {
      output?.flush();
    }
  });
  // Every area's per-app parts, before any route exists: the registries are complete before the first request.
  for (const area of AREAS) {
    const parts = area.setup?.(ctx) ?? {};
    for (const queue of parts.queues ?? []) ctx.jobs.register(queue);
    prometheus?.declareQueues((parts.queues ?? []).map((q) => q.queue));
    for (const listener of parts.eventListeners ?? []) ctx.events.listen(listener);
    if (parts.onReady) app.addHook('onReady', parts.onReady);
    if (parts.onClose) closers.push(parts.onClose);
  }
  app.decorate('hublet', ctx);
  app.decorate('readiness', new Readiness(ctx));
  app.decorateRequest('ctx', null as unknown as ServiceContext);
  app.decorateRequest('apiVersion', '');
  app.decorateRequest('mediaParam', undefined);
  app.setValidatorCompiler(createValidatorCompiler());

  // Traces only when `serve` started them (OTEL_EXPORTER_OTLP_ENDPOINT), never in the CLI's local mode; off, no hook.
  // First among the hooks: the request's span is named for its route even when a later hook refuses it.
  const tracing = options.local ? undefined : activeTracing();
  if (tracing) {
    app.addHook('onRequest', tracing.onRequest);
    const untrace = tracing.traceQueries(options.db);
    closers.push(async () => untrace());
  }
  app.addHook('onRequest', async (request) => {
    // The app's context as prototype (not copied per request): what it holds is read through, the actor is the request's.
    const ctx = Object.create(app.hublet) as ServiceContext;
    ctx.actor = null as Actor | null;
    // Who sent it, for the audit log: the client's address (a trusted proxy's word, see trustProxy) and its User-Agent.
    ctx.client = { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
    // A request under GitHub Enterprise's /api/v3 gets its API links there too (html, git and raw URLs stay at the root).
    if (hasApiPrefix(request.originalUrl)) ctx.urls = app.hublet.urls.viaApiPrefix;
    request.ctx = ctx;
  });
  // The rules each hook applies, built once per app: the fast path applies the very same ones.
  const media = new MediaTypes();
  const authenticate = authenticator(Boolean(options.local));
  const scopes = new ScopeHeaders();
  const limiter = new RateLimiter(ctx);
  closers.push(() => limiter.close());
  const tags = new BodyTags();
  if (prometheus) {
    // Every answered request is counted (the fast path's through its access callback below); database statements timed.
    app.addHook('onResponse', prometheus.onResponse);
    responses.observe = prometheus.cacheOutcome;
    const unwatch = prometheus.watchQueries();
    closers.push(async () => unwatch());
  }
  registerVersioning(app, media);
  registerAuth(app, authenticate, scopes);
  registerRateLimit(app, limiter);
  registerConditional(app, tags);
  registerJsonBody(app);
  registerErrorHandler(app);

  await app.register(metaRoutes(limiter));
  await app.register(healthRoutes(app.readiness));
  const access = accessLog(logLevel, output);
  if (access) app.addHook('onResponse', logResponse(access));
  for (const area of AREAS) if (area.routes) await app.register(area.routes);

  // Current cached responses of the routes the areas declare cached reads are answered before Fastify routes them.
  const fastAccess = prometheus ? prometheus.countingFastPath(access) : access;
  const fast = new FastPath({
    ctx,
    responses,
    cachedRoutes: cachedReads(app, AREAS),
    authenticate,
    limiter,
    media,
    scopes,
    tags,
    access: tracing ? tracing.namingFastPath(fastAccess) : fastAccess,
    clientAddress: clientAddressOf(trust),
  });
  fast.install(app.server);
  app.addHook('preClose', async () => fast.close());
  return app;
}

/** The URL patterns of the cached reads the areas declare, each checked to be a GET route of the app. */
function cachedReads(app: FastifyInstance, areas: readonly Area[]): ReadonlySet<string> {
  const gets = new Set(app.routeGrants.filter((r) => r.method === 'GET').map((r) => r.url));
  const declared = new Set(areas.flatMap((a) => a.cachedReads ?? []));
  for (const url of declared) if (!gets.has(url)) throw new Error(`${url} is declared a cached read but is no GET route`);
  return declared;
}

function accountContributions(areas: readonly Area[]): AccountContributions {
  return Object.freeze({
    files: Object.freeze(areas.flatMap((a) => (a.accountFiles ? [a.accountFiles] : []))),
    profileCounts: Object.freeze(areas.flatMap((a) => (a.profileCounts ? [a.profileCounts] : []))),
    enterpriseStats: Object.freeze(areas.flatMap((a) => (a.enterpriseStats ? [a.enterpriseStats] : []))),
  });
}

/** What exactly one area lends the others (`what` names it in the error when none or several do). */
function providedByOne<T>(areas: readonly Area[], pick: (a: Area) => T | undefined, what: string): T {
  const provided = areas.flatMap((a) => {
    const p = pick(a);
    return p ? [p] : [];
  });
  if (provided.length !== 1) throw new Error(`exactly one area must provide ${what} (${provided.length} do)`);
  return provided[0];
}
