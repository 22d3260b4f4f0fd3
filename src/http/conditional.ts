// Conditional GETs: a weak ETag on every JSON 200, `If-None-Match` and `If-Modified-Since` answered with 304. The rules
// are plain functions the onSend hook and the cached-read fast path (fast-path.ts) both call.
import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Who may share a response (sent with every ETag). */
export const VARY = 'Accept, Authorization, Cookie, X-Service-OTP';

function matches(ifNoneMatch: string, etag: string): boolean {
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || strip(t) === strip(etag));
}

/** Whether a request's conditions (If-None-Match first, else If-Modified-Since) say the client holds this response. */
export function notModified(headers: IncomingHttpHeaders, etag: string, lastModified: string | undefined): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch) return matches(ifNoneMatch, etag);
  const ifModifiedSince = headers['if-modified-since'];
  if (!ifModifiedSince || !lastModified) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(Date.parse(lastModified) / 1000) <= Math.floor(since / 1000);
}

/**
 * The weak ETag of a body: a tag of the bytes alone (a caller who holds the same bytes may keep them; Vary names who may
 * share them). One per app: bodies served again and again from the response cache are the same Buffer, hashed once.
 */
export class BodyTags {
  private readonly tags = new WeakMap<Buffer, string>();

  of(body: Buffer): string {
    let tag = this.tags.get(body);
    if (tag === undefined) {
      tag = `W/"${crypto.hash('sha256', body, 'hex').slice(0, 40)}"`;
      this.tags.set(body, tag);
    }
    return tag;
  }
}

export function registerConditional(app: FastifyInstance, tags: BodyTags): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // Encoded once: the hash and the socket then share the bytes (a string was UTF-8 encoded twice, 150 µs per 200 KB).
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    reply.header('vary', VARY);
    const etag = (reply.getHeader('etag') as string | undefined) ?? tags.of(body);
    reply.header('etag', etag);
    if (!notModified(request.headers, etag, reply.getHeader('last-modified') as string | undefined)) return body;
    reply.code(304);
    reply.removeHeader('content-length');
    reply.removeHeader('content-type');
    return '';
  });
}

/** Sets `Last-Modified` from an ISO timestamp so If-Modified-Since can be answered. */
export function lastModified(iso: string): string {
  return new Date(iso).toUTCString();
}
