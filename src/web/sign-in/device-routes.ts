// The device flow's pages (RFC 8628's verification URI, GitHub's /login/device): a signed-in person enters the code
// their device shows, sees which app asks for which scopes, and authorizes or cancels; every form CSRF-checked (the
// web scope's hook). Wrong codes are counted per person and per address (accounts/device-flow.ts): past 50 in an
// hour, every code is refused until the hour is over.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decideDevice, displayUserCode, lookUpUserCode, type PendingDevice } from '../../accounts/device-flow.js';
import { oauthAuthorizationEntry } from '../../accounts/oauth-grants.js';
import { findAccountById } from '../../accounts/store.js';
import { typed } from '../../http/typed.js';
import { csrfToken } from '../csrf.js';
import { deviceAuthorizePage, deviceCodePage, deviceDonePage } from './device-pages.js';
import { field, formSchema } from '../forms.js';
import { htmlPage, queryValue, send, webConfig as config } from '../serve.js';
import { asViewer, type Viewer } from '../viewer.js';

const REFUSED = {
  invalid: { status: 422, message: "That code didn't work. Check the code and try again." },
  throttled: { status: 429, message: 'Too many wrong codes. Wait an hour, then try again.' },
} as const;

function sendCodePage(
  request: FastifyRequest,
  reply: FastifyReply,
  o: { typed?: string; error?: string; status?: number } = {},
): FastifyReply {
  const markup = deviceCodePage({ base: request.ctx.urls.base, token: csrfToken(request, reply), typed: o.typed, error: o.error });
  return send(reply, htmlPage(markup, o.status ?? 200));
}

/** The pending authorization the form's code names, or the code page again saying why not. */
async function pendingOrRefusal(request: FastifyRequest, reply: FastifyReply, viewer: Viewer, typed: string) {
  const found = await lookUpUserCode(request.ctx.db, { typed, userId: viewer.user.id, address: request.ip }, request.ctx.clock.now());
  if (found.ok) return found.pending;
  const refusal = REFUSED[found.reason];
  return sendCodePage(request, reply, { typed, error: refusal.message, status: refusal.status });
}

async function sendAuthorizePage(request: FastifyRequest, reply: FastifyReply, viewer: Viewer, pending: PendingDevice) {
  const owner = pending.app.owner_id === null ? undefined : await findAccountById(request.ctx.db, pending.app.owner_id);
  const markup = deviceAuthorizePage({
    base: request.ctx.urls.base,
    token: csrfToken(request, reply),
    login: viewer.user.login,
    appName: pending.app.name,
    appOwner: owner?.login ?? null,
    homepageUrl: pending.app.homepage_url,
    userCode: displayUserCode(pending.device.user_code),
    scopes: JSON.parse(pending.device.scopes) as string[],
  });
  return send(reply, htmlPage(markup));
}

const codeQuery = { type: 'object', properties: { user_code: queryValue } } as const;

export function deviceRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);

  app.get('/login/device', { schema: { querystring: codeQuery }, config }, async (request, reply) =>
    asViewer(request, reply, async () => {
      const prefilled = request.query.user_code;
      return sendCodePage(request, reply, { typed: typeof prefilled === 'string' ? prefilled : undefined });
    }),
  );

  app.post('/login/device', { schema: formSchema, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (_ctx, viewer) => {
        const pending = await pendingOrRefusal(request, reply, viewer, field(request.body, 'user_code'));
        if (!('device' in pending)) return pending;
        return sendAuthorizePage(request, reply, viewer, pending);
      },
      '/login/device',
    ),
  );

  app.post('/login/device/authorize', { schema: formSchema, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (_ctx, viewer) => {
        const pending = await pendingOrRefusal(request, reply, viewer, field(request.body, 'user_code'));
        if (!('device' in pending)) return pending;
        const approve = field(request.body, 'authorize') === '1';
        const ctx = request.ctx;
        const decided = await decideDevice(
          ctx.db,
          { deviceId: pending.device.id, userId: viewer.user.id, approve },
          ctx.clock.now(),
          (trx, grant) =>
            ctx.audit.record(trx, ctx, oauthAuthorizationEntry('create', pending.app, viewer.user, grant.scopes, grant.scopesWere)),
        );
        if (!decided) return sendCodePage(request, reply, { error: REFUSED.invalid.message, status: REFUSED.invalid.status });
        return send(reply, htmlPage(deviceDonePage(request.ctx.urls.base, pending.app.name, approve)));
      },
      '/login/device',
    ),
  );
}
