// Fetches one image for the image proxy from an address someone wrote in Markdown: only where the webhook address rules
// allow (guarded-connect.ts, checked again for each redirect), no credentials, cookies or Referer, a time limit, a size
// limit, and only `image/*` answers. Each refusal carries the status the proxy answers with.
import { Agent, request } from 'undici';
import { parseAllowedHosts } from './allowed-hosts.js';
import { errorCodes, timedOut } from './error-codes.js';
import { guardedConnector, refusedReason } from './guarded-connect.js';

/** Redirects followed (each to an address checked like the first); one more is a failure. */
const MAX_REDIRECTS = 3;
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** A media type the proxy passes on: `image/<subtype>`, nothing else (parameters are dropped). */
const IMAGE_TYPE = /^image\/[a-z0-9][a-z0-9.+-]*$/;

export type FetchedImage =
  | {
      ok: true;
      type: string;
      body: Buffer;
      /** The upstream's `max-age` (0 for no-cache/no-store), null when it named none. */
      maxAgeSeconds: number | null;
    }
  | { ok: false; status: number; message: string };

export interface ImageFetcherOptions {
  /** The `HUBLET_HOOK_ALLOWED_HOSTS` policy (allowed-hosts.ts); the fixed refusals (link-local, metadata) always hold. */
  allowedHosts: string;
  /** For the whole fetch: connecting, redirects, headers and body. */
  timeoutMs: number;
  maxBytes: number;
  userAgent: string;
}

function refusal(status: number, message: string): FetchedImage {
  return { ok: false, status, message };
}

/** A fetch that got no (whole) answer: refused by the address rules (403), timed out (504), or failed (502). */
function failure(err: unknown): FetchedImage {
  if (refusedReason(err)) return refusal(403, 'Destination refused by the address rules (HUBLET_HOOK_ALLOWED_HOSTS)');
  if (timedOut(errorCodes(err))) return refusal(504, 'The image server did not answer in time');
  return refusal(502, 'The image server could not be reached');
}

type Response = Awaited<ReturnType<typeof request>>;

/** Stops reading a body that is not passed on (a short one is read out, so its socket is reused); its abort is no error. */
function discard(res: Response): void {
  res.body.on('error', () => {});
  res.body.dump({ limit: 64 * 1024 }).catch(() => {});
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `max-age` of a Cache-Control header (0 when it forbids keeping the answer), null when it says nothing. */
function maxAgeOf(cacheControl: string | undefined): number | null {
  if (!cacheControl) return null;
  if (/\b(no-store|no-cache|private)\b/i.test(cacheControl)) return 0;
  const m = /\bmax-age\s*=\s*"?(\d+)/i.exec(cacheControl);
  return m ? Number(m[1]) : null;
}

/** One per app: a pool of keep-alive sockets per image host, every connection checked against the address rules. */
export class ImageFetcher {
  private readonly agent: Agent;

  constructor(private readonly options: ImageFetcherOptions) {
    this.agent = new Agent({
      connect: guardedConnector(parseAllowedHosts(options.allowedHosts), true, options.timeoutMs),
      connections: 8,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  /** The image at `address`, or why not; never throws. */
  async fetch(address: string): Promise<FetchedImage> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let url = address;
    for (let redirects = 0; ; redirects++) {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return refusal(404, 'Not an image address');
      }
      if ((target.protocol !== 'http:' && target.protocol !== 'https:') || target.username || target.password)
        return refusal(404, 'Not an image address');
      let res: Response;
      try {
        // Only these headers: nothing of the visitor's request (cookies, Authorization, Referer) goes upstream.
        res = await request(target, {
          method: 'GET',
          headers: { accept: 'image/*', 'accept-encoding': 'identity', 'user-agent': this.options.userAgent },
          dispatcher: this.agent,
          signal,
        });
      } catch (err) {
        return failure(err);
      }
      const status = res.statusCode;
      const location = header(res.headers.location);
      if (REDIRECTS.has(status) && location) {
        discard(res);
        if (redirects >= MAX_REDIRECTS) return refusal(502, `The image server redirected more than ${MAX_REDIRECTS} times`);
        if (!URL.canParse(location, target)) return refusal(502, 'The image server redirected to no valid address');
        url = new URL(location, target).href;
        continue;
      }
      return this.read(res, signal);
    }
  }

  /** A final answer: a 200 with an image type, whose body is read up to the size limit. */
  private async read(res: Response, signal: AbortSignal): Promise<FetchedImage> {
    const status = res.statusCode;
    const drop = (answer: FetchedImage) => {
      discard(res);
      return answer;
    };
    if (status !== 200) return drop(refusal(status >= 400 && status < 500 ? 404 : 502, `The image server answered ${status}`));
    const type = header(res.headers['content-type'])?.split(';')[0].trim().toLowerCase() ?? '';
    if (!IMAGE_TYPE.test(type)) return drop(refusal(415, `Not an image: the image server answered ${type || 'no content type'}`));
    const encoding = header(res.headers['content-encoding'])?.trim().toLowerCase();
    if (encoding && encoding !== 'identity')
      return drop(refusal(502, `The image server answered in ${encoding} encoding, which was not asked for`));
    const tooLarge = refusal(413, `The image is larger than ${this.options.maxBytes} bytes`);
    if (Number(header(res.headers['content-length']) ?? 0) > this.options.maxBytes) return drop(tooLarge);
    const chunks: Buffer[] = [];
    let size = 0;
    // Leaving the loop early destroys the body, which undici reports as an abort: no error of ours.
    res.body.on('error', () => {});
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > this.options.maxBytes) return tooLarge;
        chunks.push(chunk);
      }
    } catch (err) {
      return failure(signal.aborted ? signal.reason : err);
    }
    return { ok: true, type, body: Buffer.concat(chunks), maxAgeSeconds: maxAgeOf(header(res.headers['cache-control'])) };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
