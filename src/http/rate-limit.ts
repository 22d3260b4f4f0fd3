// Primary rate limits: a fixed window per token's user (or per anonymous IP), with GitHub's X-RateLimit-* headers. The
// rules are plain functions the onRequest hook and the cached-read fast path (fast-path.ts) both call.
//
// Counting never waits for the database. On SQLite (one process) the counts live in this process's memory. On
// PostgreSQL, where several server processes share the database, each process counts locally and every FLUSH_MS adds
// what it counted to the shared counts (shared-rate-counts.ts, one statement for all keys), reading back each key's
// shared total and window end; a request is judged against that shared total plus what this process counted since.
// So a token gets its limit once across processes, give or take what the other processes admitted since their last
// flush: at most the requests one process serves for a key in FLUSH_MS, per other process (the bounded over-admission).
// GET /rate_limit reads the shared total when asked (`current`), so it shows every process's count on any process.
import type { FastifyInstance } from 'fastify';
import { Forbidden } from '../core/errors.js';
import type { Config } from '../config.js';
import { isPostgresDb } from '../db/dialect.js';
import type { Db } from '../db/schema.js';
import { addSharedCounts, pruneSharedCounts, readSharedCount, type CountIncrement } from './shared-rate-counts.js';

/** How often a process adds its counts to the shared ones (PostgreSQL). */
const FLUSH_MS = 200;
/** How often ended windows are deleted from the shared counts. */
const PRUNE_MS = 60_000;

/** What the limiter reads of its app: the clock and the limits (read on each use: the config is replaced after listen). */
interface LimiterContext {
  db: Db;
  clock: { now(): Date };
  config: Readonly<Pick<Config, 'rateLimitWindowSeconds' | 'rateLimitAuthenticated' | 'rateLimitAnonymous'>>;
  log: { warn(obj: object, msg: string): void };
}

interface Window {
  resetAt: number; // epoch seconds
  /** Counted by every process, as of this process's last flush (PostgreSQL); 0 on SQLite. */
  shared: number;
  /** Counted here since the last flush began. */
  pending: number;
  /** Counted here and being added to the shared count by the flush under way. */
  flushing: number;
}

export interface RateState {
  limit: number;
  used: number;
  remaining: number;
  reset: number;
  resource: 'core';
}

/** Counts requests per key: in memory, and on PostgreSQL shared with the other processes on the database. */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  /** Keys counted since the last flush began (PostgreSQL). */
  private touched = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private lastPrune = 0;
  private readonly shared: boolean;
  private closed = false;

  constructor(private readonly ctx: LimiterContext) {
    this.shared = isPostgresDb(ctx.db);
  }

  private nowSeconds(): number {
    return Math.floor(this.ctx.clock.now().getTime() / 1000);
  }

  private window(key: string): Window {
    const now = this.nowSeconds();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { resetAt: now + this.ctx.config.rateLimitWindowSeconds, shared: 0, pending: 0, flushing: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 100_000) this.prune(now);
    }
    return w;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }

  private state(w: Window, limit: number): RateState {
    const used = w.shared + w.pending + w.flushing;
    return { limit, used, remaining: Math.max(0, limit - used), reset: w.resetAt, resource: 'core' };
  }

  peek(key: string, limit: number): RateState {
    return this.state(this.window(key), limit);
  }

  /**
   * The state with the shared total read now (GET /rate_limit): on PostgreSQL a process that has not served the key
   * recently would otherwise show only its own share. The flush under way, if any, lands first, so nothing is counted
   * twice; what this process counted since is added as usual.
   */
  async current(key: string, limit: number): Promise<RateState> {
    if (!this.shared) return this.peek(key, limit);
    await this.flushing;
    const w = this.window(key);
    const found = await readSharedCount(this.ctx.db, key, this.nowSeconds());
    if (found && this.windows.get(key) === w && found.used >= w.shared) {
      w.shared = found.used;
      w.resetAt = found.resetAt;
    }
    return this.state(w, limit);
  }

  /** Counts one request; `ok` is false when the key is already over its limit. */
  take(key: string, limit: number): RateState & { ok: boolean } {
    const w = this.window(key);
    const ok = w.shared + w.pending + w.flushing < limit;
    if (ok) w.pending += 1;
    if (this.shared) this.touch(key);
    return { ...this.state(w, limit), ok };
  }

  /** Marks a key for the next flush, and makes sure one is coming (no timer runs while no request is counted). */
  private touch(key: string): void {
    this.touched.add(key);
    if (!this.timer && !this.closed) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flushing = this.flush().finally(() => (this.flushing = undefined));
      }, FLUSH_MS);
      this.timer.unref();
    }
  }

  /**
   * Adds what this process counted to the shared counts and takes in each key's shared total and window end. A flush
   * that fails gives its counts back to the next one (logged), so nothing counted is lost while the database is away.
   */
  private async flush(): Promise<void> {
    const keys = [...this.touched];
    this.touched = new Set();
    const batch: { key: string; w: Window }[] = [];
    const increments: CountIncrement[] = [];
    for (const key of keys) {
      const w = this.windows.get(key);
      if (!w) continue;
      w.flushing += w.pending;
      w.pending = 0;
      batch.push({ key, w });
      increments.push({ key, resetAt: w.resetAt, add: w.flushing });
    }
    if (!batch.length) return;
    const now = this.nowSeconds();
    try {
      const totals = await addSharedCounts(this.ctx.db, increments, now);
      for (const { key, w } of batch) {
        const t = totals.get(key);
        if (t && this.windows.get(key) === w) {
          w.shared = t.used;
          w.resetAt = t.resetAt;
        }
        w.flushing = 0;
      }
      if (now - this.lastPrune >= PRUNE_MS / 1000) {
        this.lastPrune = now;
        await pruneSharedCounts(this.ctx.db, now);
      }
    } catch (err) {
      for (const { key, w } of batch) {
        w.pending += w.flushing;
        w.flushing = 0;
        if (!this.closed) this.touch(key);
      }
      this.ctx.log.warn({ err }, 'rate-limit counts not shared this time; kept for the next flush');
    }
  }

  /** Stops flushing after adding what is still counted here (call before the database closes). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    if (this.shared && this.touched.size) await this.flush();
  }
}

type Limits = Readonly<Pick<Config, 'rateLimitAuthenticated' | 'rateLimitAnonymous'>>;

/** Whose window a request counts in, and its limit: the token's user, or the anonymous caller's IP. */
function rateKeyOf(actor: { user: { id: number } } | null, ip: string, limits: Limits): { key: string; limit: number } {
  return actor
    ? { key: `user:${actor.user.id}`, limit: limits.rateLimitAuthenticated }
    : { key: `ip:${ip}`, limit: limits.rateLimitAnonymous };
}

export function rateKey(request: { ctx: LimiterContext & { actor: { user: { id: number } } | null }; ip: string }): {
  key: string;
  limit: number;
} {
  return rateKeyOf(request.ctx.actor, request.ip, request.ctx.config);
}

/** The route a request was routed to, as far as the limit cares: its URL pattern and whether it is exempt. */
export interface LimitedRoute {
  url: string | undefined;
  rateLimit?: false;
}

/**
 * Counts one request against its caller's limit: the state its X-RateLimit-* headers show (`ok` false: over the limit,
 * not counted), or undefined when the request is not limited at all (the CLI acting in-process on its own data dir, a
 * route exempt from the limit). GET /rate_limit does not count against the limit, as on GitHub: it is only looked at.
 */
export function countRequest(
  limiter: RateLimiter,
  limits: Limits,
  actor: { kind: string; user: { id: number } } | null,
  ip: string,
  route: LimitedRoute,
): (RateState & { ok: boolean }) | undefined {
  if (actor?.kind === 'local' || route.rateLimit === false) return undefined;
  const { key, limit } = rateKeyOf(actor, ip, limits);
  return route.url === '/rate_limit' ? { ...limiter.peek(key, limit), ok: true } : limiter.take(key, limit);
}

/** The answer to a request over its limit (403 with Retry-After, as GitHub). */
function rateLimitExceeded(state: RateState, actor: { user: { id: number } } | null, ip: string, now: Date): Forbidden {
  const who = actor ? `user ID ${actor.user.id}` : ip;
  const hint = actor
    ? ''
    : " (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)";
  const retryAfter = Math.max(1, state.reset - Math.floor(now.getTime() / 1000));
  return new Forbidden(`API rate limit exceeded for ${who}.${hint}`, { 'retry-after': String(retryAfter) });
}

export function rateHeaders(state: RateState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-used': String(state.used),
    'x-ratelimit-reset': String(state.reset),
    'x-ratelimit-resource': state.resource,
  };
}

/**
 * Marks every route of the calling plugin as outside the REST rate limit: git's smart HTTP and raw file content,
 * which GitHub serves from hosts the API limit does not cover.
 */
export function exemptFromRateLimit(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), rateLimit: false } as typeof route.config;
  });
}

export function registerRateLimit(app: FastifyInstance, limiter: RateLimiter): void {
  app.addHook('onRequest', async (request, reply) => {
    const { actor, config } = request.ctx;
    const state = countRequest(limiter, config, actor, request.ip, {
      url: request.routeOptions.url,
      rateLimit: request.routeOptions.config?.rateLimit,
    });
    if (!state) return;
    reply.headers(rateHeaders(state));
    if (!state.ok) request.ctx.metrics.rateLimited(actor ? 'user' : 'anonymous');
    if (!state.ok) throw rateLimitExceeded(state, actor, request.ip, request.ctx.clock.now());
  });
}
