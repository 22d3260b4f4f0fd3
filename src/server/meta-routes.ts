// Service-level endpoints: the API root, GET /rate_limit and GET /versions.
import type { FastifyInstance } from 'fastify';
import { rateKey, type RateLimiter } from './http/rate-limit.js';
import { SUPPORTED_API_VERSIONS } from './http/versioning.js';

export function metaRoutes(limiter: RateLimiter) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/', async (request) => {
      const u = request.ctx.urls;
      return {
        current_user_url: u.api('/user'),
        gists_url: u.api('/gists{/gist_id}'),
        public_gists_url: u.api('/gists/public'),
        starred_gists_url: u.api('/gists/starred'),
        organization_url: u.api('/orgs/{org}'),
        organization_repositories_url: u.api('/orgs/{org}/repos{?type,page,per_page,sort}'),
        rate_limit_url: u.api('/rate_limit'),
        repository_url: u.api('/repos/{owner}/{repo}'),
        user_url: u.api('/users/{user}'),
        user_repositories_url: u.api('/users/{user}/repos{?type,page,per_page,sort}'),
      };
    });

    app.get('/versions', async () => [...SUPPORTED_API_VERSIONS]);

    app.get('/rate_limit', async (request) => {
      const { key, limit } = rateKey(request);
      const s = limiter.peek(key, limit);
      const core = { limit: s.limit, used: s.used, remaining: s.remaining, reset: s.reset };
      return { resources: { core }, rate: core };
    });
  };
}
