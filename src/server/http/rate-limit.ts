// Primary rate limits: a fixed window per token's user (or per anonymous IP), with GitHub's X-RateLimit-* headers.
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

export function rateKey(request: { ctx: LimiterContext & { actor: { user: { id: number } } | null }; ip: string }): { key: string; limit: number } {
  const actor = request.ctx.actor;
  return actor
    ? { key: `user:${actor.user.id}`, limit: request.ctx.config.rateLimitAuthenticated }
    : { key: `ip:${request.ip}`, limit: request.ctx.config.rateLimitAnonymous };
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
    if (request.ctx.actor?.kind === 'local') return; // the CLI on its own data dir is not rate limited
    if (request.routeOptions.config?.rateLimit === false) return;
    const { key, limit } = rateKey(request);
    // GET /rate_limit does not count against the limit, as on GitHub.
    const counted = request.routeOptions.url !== '/rate_limit';
    const state = counted ? limiter.take(key, limit) : { ...limiter.peek(key, limit), ok: true };
    reply.headers(rateHeaders(state));
    if (!state.ok) {
      const who = request.ctx.actor ? `user ID ${request.ctx.actor.user.id}` : request.ip;
      const hint = request.ctx.actor
        ? ''
        : " (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)";
      const retryAfter = Math.max(1, state.reset - Math.floor(request.ctx.clock.now().getTime() / 1000));
      throw new Forbidden(`API rate limit exceeded for ${who}.${hint}`, { 'retry-after': String(retryAfter) });
    }
  });
}
