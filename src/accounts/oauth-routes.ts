// The OAuth endpoints programs call, at GitHub's addresses: POST /login/device/code starts the device flow, and
// POST /login/oauth/access_token exchanges a web flow code (with the client secret) or polls a device code for the
// token. Parameters come as a form (what gh and most clients send), as JSON, or in the query string; answers are
// form-encoded unless the client accepts JSON, and errors are HTTP 200 with `error`, `error_description` and
// `error_uri`, as GitHub documents them. Outside the web pages' form checks, and outside the API's rate limit (gh polls
// anonymously every 5 seconds); the site admin API for apps is registered beside them (oauth-app-routes.ts).
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC } from '../core/grants.js';
import { absentBodyIsEmpty } from '../http/body.js';
import { exemptFromRateLimit } from '../http/rate-limit.js';
import { typed } from '../http/typed.js';
import { pollDevice, startDeviceAuthorization } from './device-flow.js';
import { oauthAppRoutes } from './oauth-app-routes.js';
import { clientSecretMatches, ensureBuiltinApps, findAppByClientId } from './oauth-apps.js';
import { parseScopes, redeemAuthorizationCode, scopeList } from './oauth-grants.js';

const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

const TOKEN_ERRORS_URI = 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors';
const DEVICE_ERRORS_URI = 'https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow';

/** GitHub's descriptions and documentation links of each error the endpoints answer. */
const ERRORS: Record<string, { description: string; uri: string }> = {
  incorrect_client_credentials: {
    description: 'The client_id and/or client_secret passed are incorrect.',
    uri: `${TOKEN_ERRORS_URI}/#incorrect-client-credentials`,
  },
  redirect_uri_mismatch: {
    description: 'The redirect_uri MUST match the registered callback URL for this application.',
    uri: `${TOKEN_ERRORS_URI}/#redirect-uri-mismatch`,
  },
  bad_verification_code: { description: 'The code passed is incorrect or expired.', uri: `${TOKEN_ERRORS_URI}/#bad-verification-code` },
  unsupported_grant_type: {
    description: `The grant type must be authorization_code or ${DEVICE_GRANT_TYPE}.`,
    uri: DEVICE_ERRORS_URI,
  },
  authorization_pending: { description: 'The authorization request is still pending.', uri: DEVICE_ERRORS_URI },
  slow_down: { description: 'Too many requests have been made in the same timeframe.', uri: DEVICE_ERRORS_URI },
  expired_token: { description: 'The `device_code` has expired.', uri: DEVICE_ERRORS_URI },
  access_denied: { description: 'The authorization request was denied.', uri: DEVICE_ERRORS_URI },
  incorrect_device_code: { description: 'The device_code provided is not valid.', uri: DEVICE_ERRORS_URI },
};

/** Parameters from the query string and the body (form or JSON; the body wins), each a string or nothing. */
type Params = Record<string, unknown>;

function param(params: Params, name: string): string {
  const value = params[name];
  if (Array.isArray(value)) return typeof value.at(-1) === 'string' ? (value.at(-1) as string) : '';
  return typeof value === 'string' ? value : '';
}

/** client_id and client_secret sent with HTTP Basic (RFC 6749 2.3.1), which GitHub accepts beside the body's. */
function basicCredentials(request: FastifyRequest): Params {
  const m = /^\s*basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(request.headers.authorization ?? '');
  if (!m) return {};
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return {};
  const formDecoded = (v: string) => {
    try {
      return decodeURIComponent(v.replace(/\+/g, ' '));
    } catch {
      return v;
    }
  };
  return { client_id: formDecoded(decoded.slice(0, colon)), client_secret: formDecoded(decoded.slice(colon + 1)) };
}

function paramsOf(request: FastifyRequest): Params {
  const query = (request.query ?? {}) as Params;
  const body = (request.body ?? {}) as Params;
  return { ...basicCredentials(request), ...query, ...body };
}

/** JSON for clients that accept it (`application/json`, GitHub's `application/vnd.github+json`), else a form. */
function wantsJson(request: FastifyRequest): boolean {
  return /\bapplication\/(?:[\w.-]+\+)?json\b/i.test(request.headers.accept ?? '');
}

/** An answer in the client's format; token answers are never cached (RFC 6749 §5.1). */
function answer(request: FastifyRequest, reply: FastifyReply, fields: Record<string, string | number>, status = 200): FastifyReply {
  reply.code(status).header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (wantsJson(request)) return reply.type('application/json; charset=utf-8').send(JSON.stringify(fields));
  const form = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  return reply.type('application/x-www-form-urlencoded; charset=utf-8').send(form.toString());
}

function error(request: FastifyRequest, reply: FastifyReply, code: string, extra: Record<string, number> = {}, status = 200): FastifyReply {
  const known = ERRORS[code];
  return answer(request, reply, { error: code, error_description: known.description, error_uri: known.uri, ...extra }, status);
}

function tokenAnswer(request: FastifyRequest, reply: FastifyReply, token: string, scopes: readonly string[]): FastifyReply {
  return answer(request, reply, { access_token: token, token_type: 'bearer', scope: scopeList(scopes) });
}

const anyParams = { type: 'object' } as const;

async function tokenEndpoints(fastify: FastifyInstance): Promise<void> {
  // Forms as programs post them (this scope only: the API reads every body as JSON), and no API rate limit.
  await fastify.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
  exemptFromRateLimit(fastify);
  const app = typed(fastify);
  const options = {
    schema: { body: anyParams, querystring: anyParams },
    config: { grant: PUBLIC, clientCredentials: true as const },
    preValidation: absentBodyIsEmpty,
  };

  app.post('/login/device/code', options, async (request, reply) => {
    const params = paramsOf(request);
    const now = request.ctx.clock.now();
    const client = await findAppByClientId(request.ctx.db, param(params, 'client_id'), now);
    if (!client) return error(request, reply, 'incorrect_client_credentials', {}, 400);
    const started = await startDeviceAuthorization(
      request.ctx.db,
      { app: client, scopes: parseScopes(param(params, 'scope')), ttlSeconds: request.ctx.config.deviceCodeTtlSeconds },
      now,
    );
    return answer(request, reply, {
      device_code: started.deviceCode,
      user_code: started.userCode,
      verification_uri: `${request.ctx.urls.base}/login/device`,
      expires_in: started.expiresIn,
      interval: started.interval,
    });
  });

  app.post('/login/oauth/access_token', options, async (request, reply) => {
    const params = paramsOf(request);
    const now = request.ctx.clock.now();
    const grantType = param(params, 'grant_type');
    if (grantType !== '' && grantType !== 'authorization_code' && grantType !== DEVICE_GRANT_TYPE)
      return error(request, reply, 'unsupported_grant_type');
    const client = await findAppByClientId(request.ctx.db, param(params, 'client_id'), now);

    if (grantType === DEVICE_GRANT_TYPE) {
      // The device flow needs no client secret (GitHub: "The client_secret is not needed for the device flow").
      if (!client) return error(request, reply, 'incorrect_client_credentials');
      const polled = await pollDevice(request.ctx.db, { app: client, deviceCode: param(params, 'device_code') }, now);
      if ('token' in polled) return tokenAnswer(request, reply, polled.token, polled.scopes);
      return error(request, reply, polled.error, 'interval' in polled ? { interval: polled.interval } : {});
    }

    if (!client || !clientSecretMatches(client, param(params, 'client_secret')))
      return error(request, reply, 'incorrect_client_credentials');
    const redeemed = await redeemAuthorizationCode(
      request.ctx.db,
      { app: client, code: param(params, 'code'), redirectUri: param(params, 'redirect_uri') },
      now,
    );
    if (!redeemed.ok) return error(request, reply, redeemed.error);
    return tokenAnswer(request, reply, redeemed.token, redeemed.scopes);
  });
}

/** The OAuth endpoints and the site admin API for apps; the built-in apps' rows are made when the app starts. */
export async function oauthRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onReady', async () => ensureBuiltinApps(fastify.hublet.db, fastify.hublet.clock.now()));
  await fastify.register(tokenEndpoints);
  await fastify.register(oauthAppRoutes);
}
