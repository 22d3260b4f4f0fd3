// The memory behind the response cache and the web's page cache: values keyed by string, each tagged with the database
// change stamp (db/change-stamp.ts) it was built at, so a value is served only while that stamp is current. Least
// recently used values go first once bodies and keys pass the byte budget; a value over a quarter of the budget is not
// kept (one huge body must not flush everything else). Requests that miss together at one stamp share one build.
interface Entry<T> {
  stamp: string;
  value: T;
  /** Bytes counted for it: its body and its key. */
  size: number;
}

export class StampedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly building = new Map<string, { stamp: string; done: Promise<T> }>();
  private bytes = 0;

  /** @param bodyBytes the size of a value's body, counted against `maxBytes` with its key. */
  constructor(
    private readonly maxBytes: number,
    private readonly bodyBytes: (value: T) => number,
  ) {}

  /** Whether a value exists for the key, current or not (a cheap first look, before anything is read). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The value for the key if it was built at `stamp` (counted as used), else undefined. */
  current(key: string, stamp: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.stamp !== stamp) return undefined;
    // Most recently used last: eviction takes from the front.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * The value built at `stamp`: the kept one, a build in progress for this key and stamp, or this call's own build
   * (kept). A build's failure is its own caller's answer (errors are never shared or kept): a waiter then builds itself.
   */
  async obtain(key: string, stamp: string, build: () => Promise<T>): Promise<T> {
    const kept = this.current(key, stamp);
    if (kept !== undefined) return kept;
    const running = this.building.get(key);
    if (running && running.stamp === stamp) {
      const shared = await running.done.catch(() => undefined);
      if (shared !== undefined) return shared;
    }
    const done = build();
    const mine = { stamp, done };
    this.building.set(key, mine);
    try {
      const value = await done;
      this.store(key, stamp, value);
      return value;
    } finally {
      if (this.building.get(key) === mine) this.building.delete(key);
    }
  }

  private store(key: string, stamp: string, value: T): void {
    this.drop(key);
    const body = this.bodyBytes(value);
    if (body > this.maxBytes / 4) return;
    const size = body + key.length;
    this.entries.set(key, { stamp, value, size });
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.size;
  }
}
