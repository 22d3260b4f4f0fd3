// API versions (`X-Service-Api-Version`) and media types (`Accept: application/vnd.service[.param]+json`).
import type { FastifyInstance } from 'fastify';
import { BadRequest } from './errors.js';

export const SUPPORTED_API_VERSIONS = ['2022-11-28', '2026-03-10'] as const;
export const DEFAULT_API_VERSION = '2022-11-28';

/** The `param` of `application/vnd.service.<param>+json` (or `vnd.github…`), e.g. `raw` or `base64`. */
export function mediaParam(accept: string | undefined): string | undefined {
  if (!accept) return undefined;
  const m = /application\/vnd\.(?:service|github)(?:\.v3)?\.([a-z0-9-]+)(?:\+json)?/i.exec(accept);
  return m ? m[1].toLowerCase() : undefined;
}

export function registerVersioning(app: FastifyInstance): void {
  // What each Accept header this app has seen asks for, parsed once.
  const mediaTypes = new Map<string | undefined, { param: string | undefined; header: string }>();
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers['x-service-api-version'];
    const requested = Array.isArray(header) ? header[0] : header;
    if (requested !== undefined && !(SUPPORTED_API_VERSIONS as readonly string[]).includes(requested)) {
      throw new BadRequest(
        `API version '${requested}' is not supported. Supported versions are: ${SUPPORTED_API_VERSIONS.join(', ')}.`,
      );
    }
    request.apiVersion = requested ?? DEFAULT_API_VERSION;
    const accept = request.headers.accept;
    let media = mediaTypes.get(accept);
    if (!media) {
      const param = mediaParam(accept);
      media = { param, header: `service.v3; ${param && param !== 'v3' ? `param=${param}; ` : ''}format=json` };
      // Clients send few distinct Accept headers; a hostile stream of them is simply not remembered past the bound.
      if (mediaTypes.size < 1000) mediaTypes.set(accept, media);
    }
    request.mediaParam = media.param;
    reply.header('x-service-api-version-selected', request.apiVersion);
    reply.header('x-service-media-type', media.header);
  });
}
