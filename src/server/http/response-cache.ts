// Whole JSON responses of hot reads kept in memory, each tagged with the database's change stamp (change-stamp.ts):
// a request whose stamp equals the entry's gets the stored bytes without a single query of its own; any committed
// write, by this process or another, changes the stamp and the next request builds the response afresh. Each entry
// keeps the route that built it, so the fast path (fast-path.ts) can answer it as that route would.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { changeStamp } from '../../db/change-stamp.js';
import type { Grant } from './grants.js';

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

/** A build in progress: requests for the same key at the same stamp wait for it instead of building their own. */
interface Building {
  stamp: string;
  done: Promise<CachedResponse>;
}

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private readonly building = new Map<string, Building>();
  private bytes = 0;

  /** @param maxBytes memory for bodies and keys; 0 keeps nothing (every request builds its response). */
  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  /** Whether an entry exists for the key, current or not (a cheap first look, before anything is read). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The entry for the key if it was built at `stamp` (counted as used), else undefined. */
  current(key: string, stamp: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.stamp !== stamp) return undefined;
    // Most recently used last: eviction takes from the front.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * Answers from the cache, or runs `build` (which may set KEPT_HEADERS on the reply and throw the usual errors, which
   * are never cached) and keeps its result. `key` must name everything the response depends on besides the database:
   * callers use cacheKey(). Only for responses that are the same for every caller who may see them. Requests that miss
   * together share one build (50 connections asking for a page nobody has built yet build it once, not 50 times).
   */
  async respond(request: FastifyRequest, reply: FastifyReply, key: string, build: () => Promise<unknown>): Promise<FastifyReply> {
    if (this.maxBytes === 0) return reply.type(JSON_TYPE).send(Buffer.from(JSON.stringify(await build())));
    const stamp = await changeStamp(request.ctx.db);
    const entry = this.current(key, stamp) ?? (await this.built(request, reply, key, stamp, build));
    reply.headers(entry.headers);
    return reply.type(JSON_TYPE).send(entry.body);
  }

  /** The entry a build in progress for this key and stamp gives, or this request's own build. */
  private async built(request: FastifyRequest, reply: FastifyReply, key: string, stamp: string, build: () => Promise<unknown>): Promise<CachedResponse> {
    const running = this.building.get(key);
    if (running && running.stamp === stamp) {
      // Its failure is its own request's answer (errors are never shared): this one then builds for itself.
      const shared = await running.done.catch(() => undefined);
      if (shared) return shared;
    }
    const done = this.build(request, reply, stamp, build);
    const mine = { stamp, done };
    this.building.set(key, mine);
    try {
      const entry = await done;
      this.store(key, entry);
      return entry;
    } finally {
      if (this.building.get(key) === mine) this.building.delete(key);
    }
  }

  private async build(request: FastifyRequest, reply: FastifyReply, stamp: string, build: () => Promise<unknown>): Promise<CachedResponse> {
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

  private store(key: string, entry: CachedResponse): void {
    this.drop(key);
    if (entry.body.length > this.maxBytes / 4) return; // one huge response must not flush everything else
    this.entries.set(key, entry);
    this.bytes += entry.body.length + key.length;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.body.length + key.length;
  }
}

/**
 * The key of a response: the media type's param and the request's URL as received (path and query): a request under
 * /api/v3 is its own entry, as its API links are under /api/v3 too.
 */
export function responseKey(mediaParam: string | undefined, url: string): string {
  return `${mediaParam ?? ''} ${url}`;
}

/** The request's URL (path and query, as received) and media type: with the app's base URL, all a cached response may vary by. */
export function cacheKey(request: FastifyRequest): string {
  return responseKey(request.mediaParam, request.originalUrl);
}
