// What the pages load besides themselves: the stylesheets (`/-/web.css`, `/-/embed.css`) and the script (`/-/web.js`;
// each immutable when asked for by its version), the image proxy (`GET /camo/<digest>/<hex>`, image-proxy.ts) that
// shows Markdown's images from other hosts, its answers sandboxed and its refusals plain text (docs/web.md, The image proxy), and every account's
// `avatar_url` (`GET /avatars/<login>?s=N`: the picture its owner uploaded, as it is, else an identicon, identicon.ts).
import type { FastifyInstance } from 'fastify';
import { avatarOf } from '../accounts/profile.js';
import { findAccount } from '../accounts/store.js';
import { NotFound } from '../core/errors.js';
import { pathParams } from '../http/route-params.js';
import { typed } from '../http/typed.js';
import { identiconPng } from './identicon.js';
import type { ImageProxy } from './image-proxy.js';
import { pageScript } from './page-script.js';
import { queryValue, webConfig as config } from './serve.js';
import { embedStylesheet, pageStylesheet } from './styles.js';

/** Every proxy and avatar answer: never a document of this origin (an SVG opened directly runs nothing), never sniffed. */
const SANDBOX = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

/** `?v=<version>` of a stylesheet (a repeated `v` names no version). */
const stylesheetQuery = { type: 'object', properties: { v: queryValue } } as const;
const proxyParams = pathParams('digest', 'address');
const avatarParams = pathParams('username');
/** `?s=` or `?size=` in pixels, as GitHub's avatar host takes them (the last of a repeated one). */
const avatarQuery = { type: 'object', properties: { s: queryValue, size: queryValue } } as const;
const AVATAR_SIZE = { fallback: 420, min: 16, max: 460 };

/** A requested avatar size within GitHub's bounds; anything else is the default. */
function avatarSize(raw: string | string[] | undefined): number {
  const n = Number(Array.isArray(raw) ? raw.at(-1) : raw);
  return Number.isInteger(n) && n > 0 ? Math.min(AVATAR_SIZE.max, Math.max(AVATAR_SIZE.min, n)) : AVATAR_SIZE.fallback;
}

/** Identicons drawn lately, by account and size (a few hundred bytes each). */
const identicons = new Map<string, Buffer>();
const IDENTICONS_KEPT = 2000;

export function assetRoutes(fastify: FastifyInstance, images: ImageProxy): void {
  const app = typed(fastify);

  for (const [path, sheet] of [
    ['/-/web.css', pageStylesheet],
    ['/-/embed.css', embedStylesheet],
  ] as const) {
    app.get(path, { schema: { querystring: stylesheetQuery }, config }, async (request, reply) => {
      const versioned = request.query.v === sheet.version;
      reply.header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      return reply.type('text/css; charset=utf-8').send(sheet.body);
    });
  }

  app.get('/-/web.js', { schema: { querystring: stylesheetQuery }, config }, async (request, reply) => {
    const versioned = request.query.v === pageScript.version;
    reply.header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    return reply.type('text/javascript; charset=utf-8').send(pageScript.body);
  });

  app.get('/avatars/:username', { schema: { params: avatarParams, querystring: avatarQuery }, config }, async (request, reply) => {
    const account = await findAccount(request.ctx.db, request.params.username);
    if (!account) throw new NotFound();
    reply.header('content-security-policy', SANDBOX);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'public, max-age=300');
    // An uploaded picture: its bytes as they are at every `?s=` (browsers scale it), tagged by its hash, so a new one is seen.
    const picture = await avatarOf(request.ctx.db, account.id);
    if (picture) return reply.header('etag', `"${picture.sha}"`).type(picture.media_type).send(picture.content);
    const size = avatarSize(request.query.s ?? request.query.size);
    const key = `${account.id}:${size}`;
    let png = identicons.get(key);
    if (!png) {
      png = identiconPng(account.id, size);
      if (identicons.size >= IDENTICONS_KEPT) identicons.delete(identicons.keys().next().value as string);
      identicons.set(key, png);
    }
    return reply.type('image/png').send(png);
  });

  app.get('/camo/:digest/:address', { schema: { params: proxyParams }, config }, async (request, reply) => {
    const answer = await images.answer(request.params.digest, request.params.address);
    reply.header('content-security-policy', SANDBOX);
    reply.header('x-content-type-options', 'nosniff');
    if (!answer.ok) {
      reply.header('cache-control', 'no-store');
      return reply.code(answer.status).type('text/plain; charset=utf-8').send(`${answer.message}\n`);
    }
    reply.header('cache-control', `public, max-age=${answer.maxAgeSeconds}`);
    return reply.type(answer.type).send(answer.body);
  });
}
