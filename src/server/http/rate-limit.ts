// Primary rate limits: a fixed window per token's user (or per anonymous IP), with GitHub's X-RateLimit-* headers. The
// rules are plain functions the onRequest hook and the cached-read fast path (fast-path.ts) both call.
import type { FastifyInstance } from 'fastify';
import { Forbidden } from './errors.js';
import type { Config } from '../../config.js';

/** What the limiter reads of its app: the clock and the limits (read on each use: the config is replaced after listen). */
interface LimiterContext {
  clock: { now(): Date };
  config: Readonly<Pick<Config, 'rateLimitWindowSeconds' | 'rateLimitAuthenticated' | 'rateLimitAnonymous'>>;
}

interface Window {
  resetAt: number; // epoch seconds
  used: number;
}

export interface RateState {
  limit: number;
  used: number;
  remaining: number;
  reset: number;
  resource: 'core';
}

/** Counts requests per key in memory; one process's view (documented in the README). */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  constructor(private readonly ctx: LimiterContext) {}

  private window(key: string): Window {
    const now = Math.floor(this.ctx.clock.now().getTime() / 1000);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { resetAt: now + this.ctx.config.rateLimitWindowSeconds, used: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 100_000) this.prune(now);
    }
    return w;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }

  peek(key: string, limit: number): RateState {
    const w = this.window(key);
    return { limit, used: w.used, remaining: Math.max(0, limit - w.used), reset: w.resetAt, resource: 'core' };
  }

  /** Counts one request; `ok` is false when the key is already over its limit. */
  take(key: string, limit: number): RateState & { ok: boolean } {
    const w = this.window(key);
    const ok = w.used < limit;
    if (ok) w.used += 1;
    return { limit, used: w.used, remaining: Math.max(0, limit - w.used), reset: w.resetAt, resource: 'core', ok };
  }
}

type Limits = Readonly<Pick<Config, 'rateLimitAuthenticated' | 'rateLimitAnonymous'>>;

/** Whose window a request counts in, and its limit: the token's user, or the anonymous caller's IP. */
function rateKeyOf(actor: { user: { id: number } } | null, ip: string, limits: Limits): { key: string; limit: number } {
  return actor ? { key: `user:${actor.user.id}`, limit: limits.rateLimitAuthenticated } : { key: `ip:${ip}`, limit: limits.rateLimitAnonymous };
}

export function rateKey(request: { ctx: LimiterContext & { actor: { user: { id: number } } | null }; ip: string }): { key: string; limit: number } {
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
  const hint = actor ? '' : " (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)";
  const retryAfter = Math.max(1, state.reset - Math.floor(now.getTime() / 1000));
  return new Forbidden(`API rate limit exceeded for ${who}.${hint}`, { 'retry-after': String(retryAfter) });
}

function rateHeaders(state: RateState): Record<string, string> {
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
    const state = countRequest(limiter, config, actor, request.ip, { url: request.routeOptions.url, rateLimit: request.routeOptions.config?.rateLimit });
    if (!state) return;
    reply.headers(rateHeaders(state));
    if (!state.ok) throw rateLimitExceeded(state, actor, request.ip, request.ctx.clock.now());
  });
}
