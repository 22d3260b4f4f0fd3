// Whole pages kept in memory, each tagged with the database's change stamp (db/change-stamp.ts), as the response cache
// keeps GET /gists/{id}: a request whose stamp equals the entry's gets the stored bytes without a query of its own; any
// committed write, by this process or another, changes the stamp and the next request builds the page afresh. Never
// stale. Keys are canonical (the route and its parsed parameters, never the raw query), so junk in a URL cannot fill it.
import { changeStamp } from '../db/change-stamp.js';
import type { ServiceContext } from '../core/context.js';
import { StampedCache } from '../http/stamped-cache.js';

/** A built response: its status, bytes and the headers that go with them. */
export interface BuiltPage {
  status: number;
  body: Buffer;
  type: string;
  headers?: Readonly<Record<string, string>>;
  /** Whether the body has forms whose token slots are filled per request (serve.ts). */
  forms?: boolean;
  /** The body with its slots filled, last time, and what they were filled with (serve.ts reuses it). */
  filled?: { key: string; body: Buffer };
}

export class PageCache {
  private readonly cache: StampedCache<BuiltPage>;

  /** @param maxBytes memory for bodies and keys; 0 keeps nothing (every request builds its page). */
  constructor(private readonly maxBytes: number) {
    // A page may hold a second, filled copy of its body (serve.ts): counted in its size from the start.
    this.cache = new StampedCache(maxBytes, (page) => page.body.length * 2);
  }

  /**
   * The page for `key` as the context's viewer sees it: the stored one while nothing was committed since it was built,
   * else a fresh build (kept). Each signed-in person has pages of their own (they may see more); visitors share theirs.
   */
  async get(ctx: ServiceContext, key: string, build: () => Promise<BuiltPage>): Promise<BuiltPage> {
    if (this.maxBytes === 0) return build();
    return this.cache.obtain(`${ctx.actor?.user.id ?? ''}|${key}`, await changeStamp(ctx.db), build);
  }
}
