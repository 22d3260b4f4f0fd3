// API versions (`X-Service-Api-Version`) and media types (`Accept: application/vnd.service[.param]+json`): the rules, as
// plain functions the onRequest hook and the cached-read fast path (fast-path.ts) both call.
import type { FastifyInstance } from 'fastify';
import { BadRequest } from '../core/errors.js';

export const SUPPORTED_API_VERSIONS = ['2022-11-28', '2026-03-10'] as const;
const DEFAULT_API_VERSION = '2022-11-28';

/** The `param` of `application/vnd.service.<param>+json` (or `vnd.github…`), e.g. `raw` or `base64`. */
function mediaParam(accept: string | undefined): string | undefined {
  if (!accept) return undefined;
  const m = /application\/vnd\.(?:service|github)(?:\.v3)?\.([a-z0-9-]+)(?:\+json)?/i.exec(accept);
  return m ? m[1].toLowerCase() : undefined;
}

/**
 * The media type's name in X-Service-Media-Type, as GitHub's X-GitHub-Media-Type: `service.v3` with a `param=` (raw,
 * base64…) after it, or a preview's own name (`application/vnd.github.wyandotte-preview+json`, which Octokit.rb sends
 * for migrations, is `service.wyandotte-preview`).
 */
function mediaTypeName(param: string | undefined): string {
  if (param === undefined || param === 'v3') return 'service.v3';
  return param.endsWith('-preview') ? `service.${param}` : `service.v3; param=${param}`;
}

/** The API version a request selects (the default when it names none); undefined for one this server does not serve. */
export function apiVersionOf(header: string | string[] | undefined): string | undefined {
  const requested = Array.isArray(header) ? header[0] : header;
  if (requested === undefined) return DEFAULT_API_VERSION;
  return (SUPPORTED_API_VERSIONS as readonly string[]).includes(requested) ? requested : undefined;
}

/** As apiVersionOf, but a version this server does not serve is GitHub's 400. */
function selectedApiVersion(header: string | string[] | undefined): string {
  const version = apiVersionOf(header);
  if (version !== undefined) return version;
  const requested = Array.isArray(header) ? header[0] : header;
  throw new BadRequest(`API version '${requested}' is not supported. Supported versions are: ${SUPPORTED_API_VERSIONS.join(', ')}.`);
}

/** What an Accept header asks for: the media param, and the X-Service-Media-Type header that says so. */
export interface MediaType {
  param: string | undefined;
  header: string;
}

/** The media type of each Accept header an app has seen, parsed once (one per app, shared by both request paths). */
export class MediaTypes {
  private readonly known = new Map<string | undefined, MediaType>();

  of(accept: string | undefined): MediaType {
    let media = this.known.get(accept);
    if (!media) {
      const param = mediaParam(accept);
      media = { param, header: `${mediaTypeName(param)}; format=json` };
      // Clients send few distinct Accept headers; a hostile stream of them is simply not remembered past the bound.
      if (this.known.size < 1000) this.known.set(accept, media);
    }
    return media;
  }
}

export function registerVersioning(app: FastifyInstance, media: MediaTypes): void {
  app.addHook('onRequest', async (request, reply) => {
    request.apiVersion = selectedApiVersion(request.headers['x-service-api-version']);
    const type = media.of(request.headers.accept);
    request.mediaParam = type.param;
    reply.header('x-service-api-version-selected', request.apiVersion);
    reply.header('x-service-media-type', type.header);
  });
}
