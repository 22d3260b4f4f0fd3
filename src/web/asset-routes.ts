// What the pages load besides themselves: the stylesheets (`/-/web.css`, `/-/embed.css`; immutable when asked for by
// their version) and the image proxy (`GET /camo/<digest>/<hex>`, image-proxy.ts) that shows Markdown's images from
// other hosts, its answers sandboxed and its refusals plain text (docs/web.md, The image proxy).
import type { FastifyInstance } from 'fastify';
import { pathParams } from '../http/route-params.js';
import { typed } from '../http/typed.js';
import type { ImageProxy } from './image-proxy.js';
import { queryValue, webConfig as config } from './serve.js';
import { embedStylesheet, pageStylesheet } from './styles.js';

/** Every proxy answer: never a document of this origin (an SVG opened directly runs nothing), never sniffed. */
const SANDBOX = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

/** `?v=<version>` of a stylesheet (a repeated `v` names no version). */
const stylesheetQuery = { type: 'object', properties: { v: queryValue } } as const;
const proxyParams = pathParams('digest', 'address');

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
