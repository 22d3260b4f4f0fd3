// What hublet adds to Fastify's types: each request's service context, API version and media parameter; each route's
// grant, 422 resource, rate-limit exemption and whether Authorization holds client credentials; the app's context on the instance. Types only.
import type { AppContext, ServiceContext } from '../core/context.js';
import type { Grant } from '../core/grants.js';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: ServiceContext;
    apiVersion: string;
    mediaParam: string | undefined;
  }
  interface FastifyContextConfig {
    /** Who may call this route and what their token must carry (required on every route: see registerAuth). */
    grant?: Grant;
    /** The `resource` named in 422 errors of this route. */
    resource?: string;
    /** false: not counted against the REST rate limit (see exemptFromRateLimit). */
    rateLimit?: false;
    /**
     * true: the Authorization header carries an OAuth client's id and secret (RFC 6749 2.3.1, the token endpoint), not
     * an API credential: no actor is read from it (the route's grant must be PUBLIC).
     */
    clientCredentials?: true;
  }
  interface FastifyInstance {
    hublet: AppContext;
  }
}
