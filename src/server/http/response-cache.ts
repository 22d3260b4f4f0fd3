// Whole JSON responses of hot reads kept in memory, each tagged with the database's change stamp (change-stamp.ts):
// a request whose stamp equals the entry's gets the stored bytes without a single query of its own; any committed
// write, by this process or another, changes the stamp and the next request builds the response afresh.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { changeStamp } from '../../db/change-stamp.js';

/** Headers a cached response carries besides its body (set by the handler while building it). */
const KEPT_HEADERS = ['link', 'last-modified'] as const;
const JSON_TYPE = 'application/json; charset=utf-8';

interface Entry {
  stamp: string;
  body: Buffer;
  headers: Record<string, string>;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  /** @param maxBytes memory for bodies and keys; 0 keeps nothing (every request builds its response). */
  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  /**
   * Answers from the cache, or runs `build` (which may set KEPT_HEADERS on the reply and throw the usual errors, which
   * are never cached) and keeps its result. `key` must name everything the response depends on besides the database:
   * callers use cacheKey(). Only for responses that are the same for every caller who may see them.
   */
  async respond(request: FastifyRequest, reply: FastifyReply, key: string, build: () => Promise<unknown>): Promise<FastifyReply> {
    if (this.maxBytes === 0) return reply.type(JSON_TYPE).send(Buffer.from(JSON.stringify(await build())));
    const pending = changeStamp(request.ctx.db);
    const stamp = typeof pending === 'string' ? pending : await pending;
    let entry = this.entries.get(key);
    if (entry && entry.stamp === stamp) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, entry);
      reply.headers(entry.headers);
    } else {
      const payload = await build();
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = reply.getHeader(name);
        if (typeof value === 'string') headers[name] = value;
      }
      entry = { stamp, body: Buffer.from(JSON.stringify(payload)), headers };
      this.store(key, entry);
    }
    return reply.type(JSON_TYPE).send(entry.body);
  }

  private store(key: string, entry: Entry): void {
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

/** The request's URL (path and query) and media type: with the app's base URL, all a cached response may vary by. */
export function cacheKey(request: FastifyRequest): string {
  return `${request.mediaParam ?? ''} ${request.url}`;
}
