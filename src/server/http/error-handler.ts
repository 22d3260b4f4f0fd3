// One error handler: coded errors, schema failures (422 as GitHub answers), framework errors and bugs become GitHub bodies.
import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError, NotFound, type FieldError } from './errors.js';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Maps one JSON-schema failure to GitHub's `{resource, field, code}`. */
function fieldError(e: AjvError, resource: string): FieldError {
  const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') {
    const missing = String(e.params.missingProperty);
    return { resource, field: path ? `${path}.${missing}` : missing, code: 'missing_field' };
  }
  if (e.keyword === 'additionalProperties') {
    return { resource, field: path ? `${path}.${e.params.additionalProperty}` : String(e.params.additionalProperty), code: 'invalid' };
  }
  return { resource, field: path || undefined, code: 'invalid', message: `${path || 'body'} ${e.message ?? 'is invalid'}` };
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { validation?: AjvError[]; validationContext?: string }, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.status).headers(error.headers).send(error.body());
    }
    if (error.validation) {
      const resource = request.routeOptions.config?.resource ?? 'Resource';
      // Body, path and query failures alike are 422 naming the field, as GitHub answers (never the framework's 400).
      const errors = error.validation.map((e) => fieldError(e, resource));
      return reply.code(422).send(new HttpError(422, 'Validation Failed', { errors }).body());
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send(new HttpError(413, 'Request body is too large').body());
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
      return reply.code(400).send(new HttpError(400, 'Problems parsing JSON').body());
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send(new HttpError(status, error.message).body());
    }
    request.log.error({ reqId: request.id, err: error }, 'unhandled error');
    return reply.code(500).send(new HttpError(500, 'Server Error').body());
  });

  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).send(new NotFound().body());
  });
}
