// One error handler: coded errors, schema failures (422 as GitHub answers), framework errors, Node's parser errors and bugs become GitHub bodies.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isForeignKeyViolation } from '../db/dialect.js';
import { HttpError, NotFound, type FieldError } from '../core/errors.js';

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
    // A row the write refers to was deleted meanwhile (a comment on a gist deleted at that moment): that is a 404.
    if (isForeignKeyViolation(error)) return reply.code(404).send(new NotFound().body());
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

/** Fastify's `frameworkErrors` (before any route runs): a path it cannot decode is 400, a path segment too long 414. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, message] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, 'Bad Request']
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, 'URI Too Long']
        : [500, 'Server Error'];
  void reply
    .code(status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify(new HttpError(status, message).body()));
}

/**
 * The server's `clientError` (Node's HTTP parser refused the request: bad chunk size, Content-Length with
 * Transfer-Encoding, NUL in a header, an unknown method, headers too large, too slow): a GitHub body, then the
 * connection is closed, as Node does. Nothing is written once a response on this socket has started.
 */
export function clientErrorHandler(error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : error.code === 'HPE_URI_TOO_LONG'
          ? [414, 'URI Too Long']
          : [400, 'Bad Request'];
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify(new HttpError(status, message).body());
    // The answer to a HEAD has no body (a client would read one as the next response): the bytes Node could not parse
    // still start with the request line when the refused request is the socket's first.
    const raw = error.rawPacket;
    const head = Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
    );
  }
  socket.destroy(error);
}
