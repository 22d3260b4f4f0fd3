// Service-level endpoints: the API root, GET /rate_limit, /versions, /meta (GitHub Enterprise Server's shape), /zen,
// /octocat and /emojis.
import type { FastifyInstance } from 'fastify';
import { VERSION } from '../version.js';
import { PUBLIC } from '../core/grants.js';
import { rateHeaders, rateKey, type RateLimiter } from './rate-limit.js';
import type { Urls } from '../core/urls.js';
import { SUPPORTED_API_VERSIONS } from './versioning.js';

/**
 * hublet's version as a GitHub Enterprise Server version (`installed_version` of GET /meta): 0.MINOR.PATCH is
 * 3.MINOR.PATCH. GitHub Enterprise Importer reads it: below 3.8.0 it asks for blob storage credentials of its own and
 * moves each archive itself (it downloads it through the signed URL), as hublet's archives need.
 */
export function enterpriseVersion(version: string): string {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return m ? `3.${m[2]}.${m[3]}` : '3.0.0';
}

/** GitHub's design philosophies, one of which GET /zen answers. */
const ZEN = [
  'Responsive is better than fast.',
  "It's not fully shipped until it's fast.",
  'Anything added dilutes everything else.',
  'Practicality beats purity.',
  'Approachable is better than simple.',
  'Mind your words, they are important.',
  'Speak like a human.',
  'Half measures are as bad as nothing at all.',
  'Encourage flow.',
  'Non-blocking is better than blocking.',
  'Favor focus over features.',
  'Avoid administrative distraction.',
  'Design for failure.',
  'Keep it logically awesome.',
];

const OCTOCAT = [
  '               MMM.           .MMM',
  '               MMMMMMMMMMMMMMMMMMM',
  '               MMMMMMMMMMMMMMMMMMM      @TOP',
  '              MMMMMMMMMMMMMMMMMMMMM    |@PAD|',
  '             MMMMMMMMMMMMMMMMMMMMMMM   | @TEXT |',
  '            MMMMMMMMMMMMMMMMMMMMMMMM   |_   @BOTTOM|',
  '            MMMM::- -:::::::- -::MMMM    |/',
  '             MM~:~ 00~:::::~ 00~:~MM',
  '        .. MMMMM::.00:::+:::.00::MMMMM ..',
  '              .MM::::: ._. :::::MM.',
  '                 MMMM;:::::;MMMM',
  '          -MM        MMMMMMM',
  '          ^  M+     MMMMMMMMM',
  '              MMMMMMM MM MM MM',
  '                   MM MM MM MM',
  '                   MM MM MM MM',
  '                .~~MM~MM~MM~MM~~.',
  '             ~~~~MM:~MM~~~MM~:MM~~~~',
  '            ~~~~~~==~==~~~==~==~~~~~~',
  '             ~~~~~~==~==~==~==~~~~~~',
  '                 :~==~==~==~==~~',
];

/** The octocat saying `text` in a speech bubble (one line: control characters become spaces). */
function octocat(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a speech bubble holds one line of printable text
  const said = text.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 200);
  // The bubble's inner width: the text and a space either side, at least as wide as its tail (`_   `).
  const width = Math.max(said.length + 2, 4);
  return `${OCTOCAT.map((line) =>
    line
      .replace('@TOP', '_'.repeat(width))
      .replace('@PAD', ' '.repeat(width))
      .replace('@TEXT', said.padEnd(width - 2))
      .replace('@BOTTOM', '_'.repeat(width - 4)),
  ).join('\n')}\n`;
}

/** A few of GitHub's emoji names (GET /emojis), by their Unicode code points. */
const EMOJIS: Record<string, string> = {
  '+1': '1f44d',
  '-1': '1f44e',
  tada: '1f389',
  heart: '2764',
  rocket: '1f680',
  eyes: '1f440',
  smile: '1f604',
  laughing: '1f606',
  confused: '1f615',
  hooray: '1f389',
  thumbsup: '1f44d',
  thumbsdown: '1f44e',
  white_check_mark: '2705',
  x: '274c',
  warning: '26a0',
  bug: '1f41b',
  sparkles: '2728',
  fire: '1f525',
  memo: '1f4dd',
  octocat: 'octocat',
};

function emojis(urls: Urls): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, code] of Object.entries(EMOJIS)) {
    out[name] = urls.html(code === 'octocat' ? '/images/icons/emoji/octocat.png?v8' : `/images/icons/emoji/unicode/${code}.png?v8`);
  }
  return out;
}

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

    // GitHub Enterprise Server's GET /meta: no address lists to publish (hublet runs where it is deployed), passwords are
    // never accepted for git or the API (tokens only).
    app.get('/meta', { config }, async () => ({
      verifiable_password_authentication: false,
      packages: [],
      domains: { website: [], codespaces: [], copilot: [], packages: [], storage: [], actions: [] },
      installed_version: enterpriseVersion(VERSION),
    }));

    app.get('/zen', { config }, async (_request, reply) => {
      return reply.type('text/plain; charset=utf-8').send(ZEN[Math.floor(Math.random() * ZEN.length)]);
    });

    app.get(
      '/octocat',
      { config, schema: { querystring: { type: 'object', properties: { s: { type: 'string' } } } } },
      async (request, reply) => {
        const said = (request.query as { s?: string }).s || ZEN[Math.floor(Math.random() * ZEN.length)];
        // GitHub's media type for it (its OpenAPI description and api.github.com both say so).
        return reply.type('application/octocat-stream').send(octocat(said));
      },
    );

    app.get('/emojis', { config }, async (request) => emojis(request.ctx.urls));

    app.get('/rate_limit', { config }, async (request, reply) => {
      const { key, limit } = rateKey(request);
      const s = await limiter.current(key, limit);
      reply.headers(rateHeaders(s));
      const core = { limit: s.limit, used: s.used, remaining: s.remaining, reset: s.reset };
      // hublet's one search endpoint (GET /search/gists) counts against the core limit, so this budget (GitHub's
      // per-minute search limits) is always untouched.
      const searchLimit = request.ctx.actor ? SEARCH_LIMIT_AUTHENTICATED : SEARCH_LIMIT_ANONYMOUS;
      const resetInAMinute = Math.floor(request.ctx.clock.now().getTime() / 1000) + 60;
      const search = { limit: searchLimit, used: 0, remaining: searchLimit, reset: resetInAMinute };
      const resources = { core, search };
      // API version 2026-03-10 drops the deprecated top-level `rate` (a copy of resources.core), as GitHub does.
      return request.apiVersion >= '2026-03-10' ? { resources } : { resources, rate: core };
    });
  };
}
