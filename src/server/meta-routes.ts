// Service-level endpoints: the API root, GET /rate_limit and GET /versions.
import type { FastifyInstance } from 'fastify';
import { PUBLIC } from './http/grants.js';
import { rateKey, type RateLimiter } from './http/rate-limit.js';
import { SUPPORTED_API_VERSIONS } from './http/versioning.js';

/** GitHub's search limits per minute, reported by GET /rate_limit. */
const SEARCH_LIMIT_AUTHENTICATED = 30;
const SEARCH_LIMIT_ANONYMOUS = 10;

export function metaRoutes(limiter: RateLimiter) {
  return async (app: FastifyInstance): Promise<void> => {
    const config = { grant: PUBLIC };
    app.get('/', { config }, async (request) => {
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

    app.get('/versions', { config }, async () => [...SUPPORTED_API_VERSIONS]);

    app.get('/rate_limit', { config }, async (request) => {
      const { key, limit } = rateKey(request);
      const s = limiter.peek(key, limit);
      const core = { limit: s.limit, used: s.used, remaining: s.remaining, reset: s.reset };
      // hublet has no search API, so its search budget (GitHub's per-minute limits) is always untouched.
      const searchLimit = request.ctx.actor ? SEARCH_LIMIT_AUTHENTICATED : SEARCH_LIMIT_ANONYMOUS;
      const resetInAMinute = Math.floor(request.ctx.clock.now().getTime() / 1000) + 60;
      const search = { limit: searchLimit, used: 0, remaining: searchLimit, reset: resetInAMinute };
      const resources = { core, search };
      // API version 2026-03-10 drops the deprecated top-level `rate` (a copy of resources.core), as GitHub does.
      return request.apiVersion >= '2026-03-10' ? { resources } : { resources, rate: core };
    });
  };
}
