// What the web's route families share: their state (the page cache, the image proxy), their route config and query
// schema, the anonymous context pages read with, not-found reads, and built pages (HTML, redirects) and how they are sent.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../core/context.js';
import { HttpError, NotFound } from '../core/errors.js';
import { PUBLIC } from '../core/grants.js';
import { parsePaging, type Paging } from '../http/pagination.js';
import type { Html } from './html.js';
import type { ImageProxy } from './image-proxy.js';
import { csrfToken } from './csrf.js';
import { tokenInput } from './forms.js';
import { FORM_TOKEN_SLOT, VIEWER_SLOT } from './layout.js';
import type { BuiltPage, PageCache } from './page-cache.js';
import { viewerHeader } from './viewer-header.js';

const HTML_TYPE = 'text/html; charset=utf-8';

/** One per app, shared by the families: pages kept by the change stamp, and the proxy that signs their images' addresses. */
export interface WebState {
  cache: PageCache;
  images: ImageProxy;
}

/** Whether the client asked for HTML (browsers do): a refusal is a page for it, and the API's JSON for any other client. */
export function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(request.headers.accept ?? '');
}

/** Every web route: public to the API's rules (a token changes nothing a page shows; the session cookie does). */
export const webConfig = { grant: PUBLIC };

/**
 * A query parameter as the pages read it: a string, or the strings of a repeated one, never refused (a page takes the
 * last `page`, and a repeated `file` or `v` as none given), so the schema turns no page into a 400.
 */
export const queryValue = { type: ['string', 'array'], items: { type: 'string' } } as const;

/** `?page=` of the paged pages. */
export const pagedQuery = { type: 'object', properties: { page: queryValue } } as const;

/** The page of `?page=` (the last of a repeated one; the first page when it is no positive number), `size` a page. */
export function paging(page: string | string[] | undefined, size: number): Paging {
  return parsePaging({ page, per_page: String(size) }, size);
}

/** The request's context without its caller: pages show what anyone may see, whoever asks. */
export function anonymous(requestCtx: ServiceContext): ServiceContext {
  const ctx = Object.create(requestCtx) as ServiceContext;
  ctx.actor = null;
  return ctx;
}

/**
 * A refusal in the page's own words: browsers get a page titled `title` saying `message` (routes.ts's error handler),
 * programs the API's JSON error with the same status and message.
 */
export class PageRefusal extends HttpError {
  constructor(
    status: number,
    readonly title: string,
    message: string,
  ) {
    super(status, message);
  }
}

/** A read the page needs, where any refusal of the API (404, 422) is simply "not here". */
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof HttpError && err.status >= 400 && err.status < 500) throw new NotFound();
    throw err;
  }
}

/** A page; one with forms (their token slots, layout.ts) is filled with the request's token when sent. */
export function htmlPage(markup: Html, status = 200): BuiltPage {
  const forms = markup.text.includes(TOKEN_SLOT) || undefined;
  return { status, body: Buffer.from(markup.text), type: HTML_TYPE, forms };
}

/** A redirect, kept in the page cache like a page (a path's kind changes only with a push). */
export function redirect(location: string): BuiltPage {
  return { status: 302, body: Buffer.alloc(0), type: HTML_TYPE, headers: { location } };
}

const SLOT = Buffer.from(VIEWER_SLOT.text);
const TOKEN_SLOT = FORM_TOKEN_SLOT.text;

/**
 * The page's body with its viewer slot holding `header` and its forms' token slots `token`: the one filled last time
 * when both are the same (a cached page's visitors at one address share it; a person's pages, per session).
 */
function filled(built: BuiltPage, header: string, token: string): Buffer {
  const key = header + token;
  if (built.filled?.key === key) return built.filled.body;
  const at = built.body.indexOf(SLOT);
  if (at < 0 && !built.forms) return built.body;
  let body = at < 0 ? built.body : Buffer.concat([built.body.subarray(0, at), Buffer.from(header), built.body.subarray(at + SLOT.length)]);
  if (built.forms) body = Buffer.from(body.toString().replaceAll(TOKEN_SLOT, token));
  built.filled = { key, body };
  return body;
}

/**
 * Sends a built page, its header's viewer slot filled for this request (viewer-header.ts): a cached page's visitors at
 * one address share one filled copy (the header differs only by where Sign in brings them back). Pages depend on the
 * cookie: `Vary: Cookie`, and a signed-in person's pages are kept by no shared cache.
 */
export function send(reply: FastifyReply, built: BuiltPage): FastifyReply {
  if (built.headers) reply.headers(built.headers);
  let body = built.body;
  if (built.type === HTML_TYPE) {
    reply.header('vary', 'Cookie');
    if (reply.request.viewer) reply.header('cache-control', 'private, no-store');
    const token = built.forms ? tokenInput(csrfToken(reply.request, reply)).text : '';
    body = filled(built, viewerHeader(reply).text, token);
  }
  return reply.code(built.status).type(built.type).send(body);
}
