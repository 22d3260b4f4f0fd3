// The archive storage interface: whole objects put from a stream, read back whole or by byte range, stat, delete, and
// (for stores that serve downloads themselves) a pre-signed download URL.
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
  /**
   * A store that serves downloads itself (S3) has this: a pre-signed URL of the object that needs no other credential,
   * so downloads and Range resumes go straight to the store. Without it the server serves the bytes at its own signed URL.
   */
  downloadUrl?(key: string, options: DownloadUrlOptions): Promise<string>;
}

export interface DownloadUrlOptions {
  /** The time the URL is signed at (the app's clock); it stops working `expiresInSeconds` later. */
  now: Date;
  expiresInSeconds: number;
  /** The download's file name (Content-Disposition: attachment) and Content-Type. */
  filename: string;
  contentType: string;
}

/** Keys are relative paths of safe segments (letters, digits, `.`, `-`, `_`), so no store can be walked out of. */
export function assertSafeKey(key: string): void {
  const parts = key.split('/');
  if (!key || parts.some((p) => !/^[A-Za-z0-9._-]+$/.test(p) || p === '.' || p === '..'))
    throw new Error(`unsafe blob key: ${JSON.stringify(key)}`);
}
