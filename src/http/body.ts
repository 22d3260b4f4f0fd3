// Request bodies: every content type is read as JSON, as GitHub does (curl -d sends form encoding with a JSON body); an absent body as `{}` where a route says so.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest } from '../core/errors.js';

/** A preValidation hook: a request without a body means "all defaults" (a PUT membership adds a plain member); the schema then checks `{}`. */
export async function absentBodyIsEmpty(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) request.body = {};
}

export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return done(new BadRequest('Problems parsing JSON'), undefined);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return done(new BadRequest('Body should be a JSON object'), undefined);
    }
    done(null, value);
  });
}
