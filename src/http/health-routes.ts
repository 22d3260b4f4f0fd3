// Health checks for load balancers and orchestrators: GET /_health/live (the event loop turns) and GET /_health/ready
// (the server can do its work: health-checks.ts). Anyone may call them, without a token, outside the rate limit.
import type { FastifyInstance } from 'fastify';
import { PUBLIC } from '../core/grants.js';
import type { Readiness } from './health-checks.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What GET /_health/ready reports; `serve` marks it stopping on SIGTERM, before it stops accepting requests. */
    readiness: Readiness;
  }
}

export function healthRoutes(readiness: Readiness) {
  return async (app: FastifyInstance): Promise<void> => {
    // Never counted against the rate limit: a probe must not be refused for the traffic of its address (nginx's, a
    // node's), nor use up the limit of the clients behind it. No actor is read from an Authorization header either
    // (clientCredentials: see fastify-types.ts), so a probe sending a stale token, or any token while the database is
    // down, still gets the health answer, not a 401 or a 500.
    const config = { grant: PUBLIC, rateLimit: false as const, clientCredentials: true as const };

    app.get('/_health/live', { config }, async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'pass' }));

    app.get('/_health/ready', { config }, async (_request, reply) => {
      const report = await readiness.report();
      return reply
        .code(report.status === 'pass' ? 200 : 503)
        .header('cache-control', 'no-store')
        .send(report);
    });
  };
}
