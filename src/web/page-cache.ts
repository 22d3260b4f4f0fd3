// Whole pages kept in memory, each tagged with the database's change stamp (db/change-stamp.ts), as the response cache
// keeps GET /gists/{id}: a request whose stamp equals the entry's gets the stored bytes without a query of its own; any
// committed write, by this process or another, changes the stamp and the next request builds the page afresh. Never
// stale. Keys are canonical (the route and its parsed parameters, never the raw query), so junk in a URL cannot fill it.
import { changeStamp } from '../db/change-stamp.js';
import type { Db } from '../db/schema.js';

/** A built response: its status, bytes and the headers that go with them. */
export interface BuiltPage {
  status: number;
  body: Buffer;
  type: string;
  headers?: Readonly<Record<string, string>>;
}

interface Entry {
  stamp: string;
  page: BuiltPage;
}

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  /** Builds in progress: requests for the same key at the same stamp share one. */
  private readonly building = new Map<string, { stamp: string; done: Promise<BuiltPage> }>();
  private bytes = 0;

  /** @param maxBytes memory for bodies and keys; 0 keeps nothing (every request builds its page). */
  constructor(private readonly maxBytes: number) {}

  /** The page for `key`: the stored one while nothing was committed since it was built, else a fresh build (kept). */
  async get(db: Db, key: string, build: () => Promise<BuiltPage>): Promise<BuiltPage> {
    if (this.maxBytes === 0) return build();
    const stamp = await changeStamp(db);
    const entry = this.entries.get(key);
    if (entry && entry.stamp === stamp) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.page;
    }
    const running = this.building.get(key);
    if (running && running.stamp === stamp) {
      const shared = await running.done.catch(() => undefined);
      if (shared) return shared;
    }
    const done = build();
    const mine = { stamp, done };
    this.building.set(key, mine);
    try {
      const page = await done;
      this.store(key, { stamp, page });
      return page;
    } finally {
      if (this.building.get(key) === mine) this.building.delete(key);
    }
  }

  private store(key: string, entry: Entry): void {
    this.drop(key);
    if (entry.page.body.length > this.maxBytes / 4) return; // one huge page must not flush everything else
    this.entries.set(key, entry);
    this.bytes += entry.page.body.length + key.length;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.page.body.length + key.length;
  }
}
