// JSON request logs (pino): one line per request with id, method, route, status and duration; never a credential.
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters that could carry a secret are masked before a URL is logged. */
const SECRET_QUERY = /([?&](?:access_token|token|client_secret|secret|password)=)[^&]*/gi;

export function maskUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1********');
}

export function requestLogger(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.token', '*.secret', '*.password', 'config.secret'],
      censor: '********',
    },
    serializers: {
      req: (req: { method?: string; url?: string }) => ({ method: req.method, url: maskUrl(req.url ?? '') }),
    },
  };
}

export async function logResponse(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  request.log.info(
    {
      method: request.method,
      route: request.routeOptions.url ?? null,
      url: maskUrl(request.url),
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      user: request.ctx?.actor?.user.login,
    },
    'request completed',
  );
}
