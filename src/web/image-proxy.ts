// The image proxy, GitHub's Camo on hublet's own host: Markdown images from other hosts are shown through
// `GET /camo/<hmac>/<hex of the address>`, so the pages' CSP keeps loading images from hublet alone. The address is
// signed (HMAC-SHA256 with a key derived from the secret key), so the proxy fetches only what hublet's pages named;
// it fetches as the webhooks do (net/image-fetch.ts: the same address rules), passes on only images, keeps them in
// memory for a while; its route (asset-routes.ts) serves them sandboxed (an SVG runs no script and loads nothing).
import crypto from 'node:crypto';
import type { AppContext } from '../core/context.js';
import { ImageFetcher, type FetchedImage } from '../net/image-fetch.js';
import type { Urls } from '../core/urls.js';
import { VERSION } from '../version.js';
import type { ImageLinks } from './markdown.js';

/** What the key is derived for (SecretBox.derivedKeys): a key of its own, used for nothing else. */
const KEY_PURPOSE = 'image proxy url signature';
/** Largest image passed on; a larger one is refused (413). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Memory for kept images (bodies and keys); the least recently used go first. */
const CACHE_BYTES = 32 * 1024 * 1024;
/** How long an image is kept and may be kept by browsers: the upstream's max-age within these bounds, else the default. */
const MIN_AGE_SECONDS = 60;
const DEFAULT_AGE_SECONDS = 3600;
const MAX_AGE_SECONDS = 86_400;
/** Longest address carried (an ASCII href: its hex fills a path segment, the router allows 2048); a longer image is a link. */
const MAX_ADDRESS_LENGTH = 1000;
const DIGEST = /^[0-9a-f]{64}$/;
const HEX = /^(?:[0-9a-f]{2})+$/;

interface Kept {
  type: string;
  body: Buffer;
  /** Epoch milliseconds. */
  expires: number;
  size: number;
}

type Answer = { ok: true; type: string; body: Buffer; maxAgeSeconds: number } | { ok: false; status: number; message: string };

/** Images kept in memory up to a byte budget, least recently used dropped first, each until its own expiry. */
class ImageCache {
  private readonly entries = new Map<string, Kept>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, now: number): Kept | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= now) {
      this.bytes -= entry.size;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, type: string, body: Buffer, expires: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    const size = body.length + key.length;
    if (size > this.maxBytes / 4) return;
    this.entries.set(key, { type, body, expires, size });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.size;
    }
  }
}

/** One per app: signs addresses for the pages, and answers the proxy's requests (fetching, keeping, refusing). */
export class ImageProxy {
  /** The current key first (it signs); the previous secret keys' still verify, so pages signed before a rotation show. */
  private readonly keys: Buffer[];
  private readonly fetcher: ImageFetcher;
  private readonly cache = new ImageCache(CACHE_BYTES);
  /** Fetches in progress, shared by the requests for the same image that arrive meanwhile. */
  private readonly fetching = new Map<string, Promise<FetchedImage>>();

  constructor(private readonly ctx: AppContext) {
    this.keys = ctx.secrets.derivedKeys(KEY_PURPOSE);
    this.fetcher = new ImageFetcher({
      allowedHosts: ctx.config.hookAllowedHosts,
      timeoutMs: ctx.config.hookTimeoutMs,
      maxBytes: MAX_IMAGE_BYTES,
      userAgent: `hublet-camo/${VERSION}`,
    });
  }

  private digest(key: Buffer, address: string): Buffer {
    return crypto.createHmac('sha256', key).update(address, 'utf8').digest();
  }

  /** The proxy's address for an image at `address`, under the base URL (null when the address is too long to carry). */
  address(base: string, address: string): string | null {
    if (address.length > MAX_ADDRESS_LENGTH) return null;
    return `${base}/camo/${this.digest(this.keys[0], address).toString('hex')}/${Buffer.from(address, 'utf8').toString('hex')}`;
  }

  /** What the pages' Markdown needs to show images (markdown.ts's rule), for a request's URLs. */
  links(urls: Urls): ImageLinks {
    return { base: urls.base, proxied: (address) => this.address(urls.base, address) };
  }

  /** The address a proxy path carries, when its signature is one of ours; else null. */
  verified(digestHex: string, addressHex: string): string | null {
    const digest = digestHex.toLowerCase();
    const hex = addressHex.toLowerCase();
    if (!DIGEST.test(digest) || !HEX.test(hex) || hex.length > MAX_ADDRESS_LENGTH * 2) return null;
    const address = Buffer.from(hex, 'hex').toString('utf8');
    const given = Buffer.from(digest, 'hex');
    return this.keys.some((key) => crypto.timingSafeEqual(this.digest(key, address), given)) ? address : null;
  }

  /** The answer to `GET /camo/<digest>/<hex>`: the image (kept or fetched now) or the refusal. */
  async answer(digestHex: string, addressHex: string): Promise<Answer> {
    const address = this.verified(digestHex, addressHex);
    if (address === null) return { ok: false, status: 403, message: 'Bad signature: this address was not signed by this server' };
    const now = this.ctx.clock.now().getTime();
    const kept = this.cache.get(address, now);
    if (kept) return { ok: true, type: kept.type, body: kept.body, maxAgeSeconds: Math.ceil((kept.expires - now) / 1000) };
    let fetch = this.fetching.get(address);
    if (!fetch) {
      fetch = this.fetcher.fetch(address).finally(() => this.fetching.delete(address));
      this.fetching.set(address, fetch);
    }
    const fetched = await fetch;
    if (!fetched.ok) return fetched;
    const maxAgeSeconds = Math.min(MAX_AGE_SECONDS, Math.max(MIN_AGE_SECONDS, fetched.maxAgeSeconds ?? DEFAULT_AGE_SECONDS));
    this.cache.set(address, fetched.type, fetched.body, now + maxAgeSeconds * 1000);
    return { ok: true, type: fetched.type, body: fetched.body, maxAgeSeconds };
  }

  async close(): Promise<void> {
    await this.fetcher.close();
  }
}
