// The cached-read fast path: a GET or HEAD whose response the response cache holds, current, for a route an area
// declared a cached read, is answered from node's request event before Fastify routes it and runs its hooks, by the
// same rules those hooks apply (versioning.ts, auth.ts, grants.ts, rate-limit.ts, conditional.ts): the same status,
// headers and bytes, the same access-log line. Everything else (no entry, a stale one, a request a rule refuses, a
// server closing) goes to Fastify untouched, which answers it, or refuses it, the usual way.
import crypto from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import { changeStamp } from '../db/change-stamp.js';
import type { Db } from '../db/schema.js';
import type { Config } from '../config.js';
import type { Authenticate, ScopeHeaders } from './auth.js';
import { notModified, VARY, type BodyTags } from './conditional.js';
import { checkGrant, type Actor } from '../core/grants.js';
import { countRequest, type RateLimiter } from './rate-limit.js';
import { responseKey, viewerKey, type CachedResponse, type ResponseCache } from './response-cache.js';
import { originForm, withoutApiPrefix } from '../core/urls.js';
import { apiVersionOf, type MediaType, type MediaTypes } from './versioning.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** One line of the access log: what logging.ts writes for every answered request, whichever path answered it. */
export interface AccessRecord {
  reqId: string;
  method: string;
  /** The route's URL pattern (null: no route matched). */
  route: string | null;
  /** The request's URL (the API prefix removed), before masking. */
  url: string;
  status: number;
  durationMs: number;
  user: string | undefined;
  /** The client's address (request.ip: a trusted proxy's X-Forwarded-For, else the socket's peer). */
  ip: string;
}

/** What the fast path reads of the app's context, on every request (the config is replaced once, after listen). */
interface FastPathContext {
  db: Db;
  clock: { now(): Date };
  config: Readonly<Pick<Config, 'rateLimitAuthenticated' | 'rateLimitAnonymous'>>;
}

/** The app's rules, the very objects its hooks use. */
export interface FastPathRules {
  ctx: FastPathContext;
  /** The app's response cache (ctx.responses, seen here as what it is). */
  responses: ResponseCache;
  /** URL patterns of the GET routes the areas declare cached reads (Area.cachedReads). */
  cachedRoutes: ReadonlySet<string>;
  authenticate: Authenticate;
  limiter: RateLimiter;
  media: MediaTypes;
  scopes: ScopeHeaders;
  tags: BodyTags;
  /** The client's address by the rule request.ip follows (trusted proxies), which rate limits and logs key on. */
  clientAddress: (req: IncomingMessage) => string;
  /** Writes an access-log line; undefined when the access log is off. */
  access: ((record: AccessRecord) => void) | undefined;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export class FastPath {
  private closing = false;
  constructor(private readonly rules: FastPathRules) {}

  /**
   * Puts the fast path in front of the server's one request handler (Fastify's, which node calls for every request):
   * Fastify keeps its server as it set it up (timeouts, client errors, closing) and gets every request not answered here.
   */
  install(server: Server): void {
    const handlers = server.listeners('request') as RequestHandler[];
    if (handlers.length !== 1) throw new Error(`the fast path expects one request handler on the server, found ${handlers.length}`);
    const fastify = handlers[0];
    server.removeListener('request', fastify);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      // An absolute-form target is answered as its path, here and by Fastify alike.
      if (req.url && req.url[0] !== '/') req.url = originForm(req.url);
      this.serve(req, res, fastify);
    });
  }

  /** From now on every request goes to Fastify (which answers 503 while it closes). */
  close(): void {
    this.closing = true;
  }

  /** Answers the request if it is a current cached read, else hands it to `next` (Fastify's handler) untouched. */
  serve(req: IncomingMessage, res: ServerResponse, next: RequestHandler): void {
    const method = req.method;
    const version = method === 'GET' || method === 'HEAD' ? apiVersionOf(req.headers['x-service-api-version']) : undefined;
    if (version === undefined || this.closing) {
      next(req, res);
      return;
    }
    const received = req.url ?? '/';
    const url = withoutApiPrefix(received);
    const media = this.rules.media.of(req.headers.accept);
    // The entry every caller shares, else the one built for this caller's credential (viewerKey).
    let key = responseKey(media.param, received);
    if (!this.rules.responses.has(key)) {
      key = viewerKey(key, version, req.headers);
      if (!this.rules.responses.has(key)) {
        next(req, res);
        return;
      }
    }
    const started = performance.now();
    const fallBack = () => {
      if (!res.headersSent) next(req, res);
    };
    this.answer(req, res, url, key, version, media, started).then((answered) => answered || fallBack(), fallBack);
  }

  /**
   * Resolves true once answered; false, having sent nothing and counted nothing, when Fastify must answer instead: a
   * request any rule refuses (a credential, the grant, the rate limit) is left whole to Fastify's hooks, which refuse it
   * and count it once, as they count every request.
   */
  private async answer(
    req: IncomingMessage,
    res: ServerResponse,
    url: string,
    key: string,
    version: string,
    media: MediaType,
    started: number,
  ): Promise<boolean> {
    const { ctx, scopes, tags } = this.rules;
    // One stamp, taken after the request arrived, judges both the token cache and the response: a second stamp
    // after the token's would cost another pread (SQLite) or query (PostgreSQL) turn, and know no more.
    const stamp = await changeStamp(ctx.db);
    let actor: Actor | null;
    try {
      actor = await this.rules.authenticate({ headers: req.headers, ctx, stamp });
    } catch {
      return false;
    }
    const entry = this.rules.responses.current(key, stamp);
    if (!entry || !this.rules.cachedRoutes.has(entry.route.url) || !permitted(actor, entry)) return false;
    const ip = this.rules.clientAddress(req);
    const rate = countRequest(this.rules.limiter, ctx.config, actor, ip, entry.route);
    if (rate && !rate.ok) return false;

    // The headers in the order the hooks set them: version and media type, rate limit, the handler's, then onSend's.
    const headers: OutgoingHttpHeaders = { 'x-service-api-version-selected': version, 'x-service-media-type': media.header };
    if (rate) {
      headers['x-ratelimit-limit'] = String(rate.limit);
      headers['x-ratelimit-remaining'] = String(rate.remaining);
      headers['x-ratelimit-used'] = String(rate.used);
      headers['x-ratelimit-reset'] = String(rate.reset);
      headers['x-ratelimit-resource'] = rate.resource;
    }
    Object.assign(headers, entry.headers);
    const etag = tags.of(entry.body);
    const unchanged = notModified(req.headers, etag, entry.headers['last-modified']);
    if (!unchanged) headers['content-type'] = JSON_TYPE;
    headers.vary = VARY;
    headers.etag = etag;
    const scoped = scopes.of(actor, entry.route.grant);
    for (let i = 0; i < scoped.length; i += 2) headers[scoped[i]] = scoped[i + 1];
    headers['content-length'] = unchanged ? '0' : String(entry.body.length);
    const status = unchanged ? 304 : 200;
    res.writeHead(status, headers);
    if (unchanged) res.end();
    else res.end(entry.body);

    this.rules.access?.({
      reqId: crypto.randomUUID(),
      method: req.method as string,
      route: entry.route.url,
      url,
      status,
      durationMs: performance.now() - started,
      user: actor?.user.login,
      ip,
    });
    return true;
  }
}

/** Whether the route's grant lets this caller in (checkGrant, the one rule; a refusal is left to Fastify to answer). */
function permitted(actor: Actor | null, entry: CachedResponse): boolean {
  try {
    checkGrant(actor, entry.route.grant);
    return true;
  } catch {
    return false;
  }
}
