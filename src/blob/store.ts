// The archive storage interface: whole objects put from a stream, read back whole or by byte range, stat and delete.
import type { Readable } from 'node:stream';

export interface BlobStat {
  size: number;
  /** When the object was last written. */
  modifiedAt: Date;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface BlobStore {
  /** A name for logs and errors, e.g. `filesystem:/var/lib/hublet/archives`. */
  readonly description: string;
  /**
   * Stores the bytes of `source` under `key`. The object appears only once it is complete (a temporary object, then a
   * rename), so a reader never sees half an archive and a repeated put simply replaces it. Returns the size written.
   */
  put(key: string, source: AsyncIterable<Uint8Array>): Promise<number>;
  /** The object's bytes, or one range of them; null when there is no such object. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  stat(key: string): Promise<BlobStat | null>;
  /** Removes the object; true when it existed. */
  delete(key: string): Promise<boolean>;
}

/** Keys are relative paths of safe segments (letters, digits, `.`, `-`, `_`), so no store can be walked out of. */
export function assertSafeKey(key: string): void {
  const parts = key.split('/');
  if (!key || parts.some((p) => !/^[A-Za-z0-9._-]+$/.test(p) || p === '.' || p === '..')) throw new Error(`unsafe blob key: ${JSON.stringify(key)}`);
}
