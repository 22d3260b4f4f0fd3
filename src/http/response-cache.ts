// Whole JSON responses of hot reads kept in memory, each tagged with the database's change stamp (change-stamp.ts):
// a request whose stamp equals the entry's gets the stored bytes without a single query of its own; any committed
// write, by this process or another, changes the stamp and the next request builds the response afresh. Each entry
// keeps the route that built it, so the fast path (fast-path.ts) can answer it as that route would.
import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { changeStamp } from '../db/change-stamp.js';
import { LOCAL_ACTOR_HEADER } from './auth.js';
import type { Grant } from '../core/grants.js';
import { StampedCache } from './stamped-cache.js';

/** Headers a cached response carries besides its body (set by the handler while building it). */
const KEPT_HEADERS = ['link', 'last-modified'] as const;
const JSON_TYPE = 'application/json; charset=utf-8';

/** The route that built a cached response: its URL pattern, its grant and whether it counts against the rate limit. */
interface CachedRoute {
  url: string;
  grant: Grant;
  rateLimit?: false;
}

export interface CachedResponse {
  stamp: string;
  body: Buffer;
  headers: Readonly<Record<string, string>>;
  route: CachedRoute;
}

export class ResponseCache {
  private readonly cache: StampedCache<CachedResponse>;
  /** Told, per request, whether respond() answered from memory or built the response (the app's metrics; unset: nobody). */
  observe?: (request: FastifyRequest, outcome: 'hit' | 'miss') => void;

  /** @param maxBytes memory for bodies and keys; 0 keeps nothing (every request builds its response). */
  constructor(private readonly maxBytes = 32 * 1024 * 1024) {
    this.cache = new StampedCache(maxBytes, (entry) => entry.body.length);
  }

  /** Whether an entry exists for the key, current or not (a cheap first look, before anything is read). */
  has(key: string): boolean {
    return this.cache.has(key);
  }

  /** The entry for the key if it was built at `stamp` (counted as used), else undefined. */
  current(key: string, stamp: string): CachedResponse | undefined {
    return this.cache.current(key, stamp);
  }

  /**
   * Answers from the cache, or runs `build` (which may set KEPT_HEADERS on the reply and throw the usual errors, which
   * are never cached) and keeps its result. `key` must name everything the response depends on besides the database:
   * callers use cacheKey() for responses that are the same for every caller who may see them, and respondForCaller
   * for those that depend on the caller. Requests that miss together share one build (50 connections asking for a page
   * nobody has built yet build it once, not 50 times).
   */
  async respond(request: FastifyRequest, reply: FastifyReply, key: string, build: () => Promise<unknown>): Promise<FastifyReply> {
    if (this.maxBytes === 0) return reply.type(JSON_TYPE).send(Buffer.from(JSON.stringify(await build())));
    const stamp = await changeStamp(request.ctx.db);
    this.observe?.(request, 'hit'); // build() below says 'miss' when this request builds the response
    const entry = await this.cache.obtain(key, stamp, () => this.build(request, reply, stamp, build));
    reply.headers(entry.headers);
    return reply.type(JSON_TYPE).send(entry.body);
  }

  private async build(request: FastifyRequest, reply: FastifyReply, stamp: string, build: () => Promise<unknown>): Promise<CachedResponse> {
    this.observe?.(request, 'miss');
    const payload = await build();
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (typeof value === 'string') headers[name] = value;
    }
    const { url, config } = request.routeOptions;
    const route: CachedRoute = { url: url ?? '', grant: config.grant!, ...(config.rateLimit === false ? { rateLimit: false } : {}) };
    return { stamp, body: Buffer.from(JSON.stringify(payload)), headers, route };
  }
}

/**
 * The key of a response: the media type's param and the request's URL as received (path and query): a request under
 * /api/v3 is its own entry, as its API links are under /api/v3 too.
 */
export function responseKey(mediaParam: string | undefined, url: string): string {
  return `${mediaParam ?? ''} ${url}`;
}

/**
 * The key of a response that depends on who asks (a list of one's own gists, an owner's hooks, a repository with the
 * caller's permissions): the shared key and a digest of the credential presented. The Authorization header names the
 * actor completely (its token, hence its user, scopes, permissions and app), so an entry built for it is right for
 * every later request presenting it while the database is unchanged (in the CLI's in-process app, with the local
 * actor header); the digest keeps the secret itself out of memory.
 * A request without credentials has its own entry too (`-`). The API version is part of it: such routes may present
 * by version (a repository's fields).
 */
export function viewerKey(shared: string, apiVersion: string, headers: IncomingHttpHeaders): string {
  const { authorization } = headers;
  const local = headers[LOCAL_ACTOR_HEADER];
  if (!authorization && !local) return `${shared} ${apiVersion} -`;
  const digest = crypto.createHash('sha256').update(authorization ?? '');
  // The CLI's in-process app names its actor in a header of its own (auth.ts): part of the credential there.
  if (typeof local === 'string') digest.update(`\n${local}`);
  return `${shared} ${apiVersion} ${digest.digest('base64')}`;
}

/** The request's URL (path and query, as received) and media type: with the app's base URL, all a cached response may vary by. */
export function cacheKey(request: FastifyRequest): string {
  return responseKey(request.mediaParam, request.originalUrl);
}

/** The key of a response that depends on the caller as well (viewerKey): for `respond` from a route that reads the actor. */
function callerCacheKey(request: FastifyRequest): string {
  return viewerKey(cacheKey(request), request.apiVersion, request.headers);
}

/** Answers a GET that depends on the caller from the response cache, or builds it (see respond and callerCacheKey). */
export function respondForCaller(request: FastifyRequest, reply: FastifyReply, build: () => Promise<unknown>): Promise<FastifyReply> {
  return request.ctx.responses.respond(request, reply, callerCacheKey(request), build);
}
