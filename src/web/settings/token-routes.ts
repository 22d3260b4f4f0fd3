// A person's own personal access tokens at GitHub's addresses: GET /settings/tokens (the list, "Delete" on each), GET
// /settings/tokens/new and POST /settings/tokens (classic), GET /settings/personal-access-tokens/new and POST
// /settings/personal-access-tokens (fine-grained), POST /settings/tokens/{id}/delete. Made through the same service as
// `hublet admin token create` (accounts/token-service.ts); a new token is shown once, on the page answering the POST.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createOwnToken, listOwnTokens, revokeOwnToken, type TokenRequest } from '../../accounts/token-service.js';
import type { ServiceContext } from '../../core/context.js';
import { NotFound, ValidationFailed, type FieldError } from '../../core/errors.js';
import { FINE_GRAINED_PERMISSIONS } from '../../core/scopes.js';
import { pathParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import { csrfToken } from '../csrf.js';
import { field, fieldValues, formSchema, type FormBody, formErrors, type FormErrors } from '../forms.js';
import type { Html } from '../html.js';
import { htmlPage, queryValue, send, webConfig as config } from '../serve.js';
import { classicTokenPage, fineGrainedTokenPage, permissionField, tokenListPage } from './token-pages.js';
import { asViewer } from '../viewer.js';

const DAY_MS = 24 * 3600 * 1000;

/** "Expiration" as the API's `expires_at`: days from now, the end of a custom day (UTC), or none. */
function expiresAt(body: FormBody, now: Date): { expiresAt: string | null; dateField: boolean } {
  const choice = field(body, 'expiration');
  if (choice === 'none') return { expiresAt: null, dateField: false };
  if (choice === 'custom') {
    const date = field(body, 'expiration_date').trim();
    return { expiresAt: /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T23:59:59Z` : date, dateField: true };
  }
  const days = /^(7|30|60|90)$/.test(choice) ? Number(choice) : 30;
  return { expiresAt: new Date(now.getTime() + days * DAY_MS).toISOString(), dateField: false };
}

/**
 * Makes the token a form asks for: the list with the new token shown once (201), or the form again (422), what was
 * typed kept and each problem next to its field.
 */
async function generate(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: ServiceContext,
  input: TokenRequest & { dateField: boolean },
  form: (errors: FormErrors) => Html,
): Promise<FastifyReply> {
  try {
    const { token } = await createOwnToken(ctx, input);
    const tokens = await listOwnTokens(ctx);
    const markup = tokenListPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), tokens, now: ctx.clock.now(), created: token });
    return send(reply, htmlPage(markup, 201));
  } catch (err) {
    if (!(err instanceof ValidationFailed)) throw err;
    const labels = {
      note: { field: 'note', label: input.kind === 'fine_grained' ? 'Token name' : 'Note' },
      expires_at: input.dateField
        ? { field: 'expiration_date', label: 'Custom expiration date' }
        : { field: 'expiration', label: 'Expiration' },
      scopes: { field: 'scopes', label: 'Scope' },
      permissions: { field: 'permissions', label: 'Permission' },
    };
    return send(reply, htmlPage(form(formErrors(err.extra.errors as FieldError[], labels)), 422));
  }
}

export function tokenRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);

  app.get('/settings/tokens', { schema: { querystring: { type: 'object' } }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const tokens = await listOwnTokens(ctx);
      return send(reply, htmlPage(tokenListPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), tokens, now: ctx.clock.now() })));
    }),
  );

  // GitHub's link that fills the form in: /settings/tokens/new?scopes=repo,gist&description=NAME
  const prefill = { type: 'object', properties: { scopes: queryValue, description: queryValue } } as const;
  app.get('/settings/tokens/new', { schema: { querystring: prefill }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const scopes = [request.query.scopes ?? []].flat().flatMap((s) => s.split(','));
      const submitted = { note: [request.query.description ?? ''].flat().at(-1) ?? '', scopes };
      return send(reply, htmlPage(classicTokenPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), submitted })));
    }),
  );

  app.post('/settings/tokens', { schema: formSchema, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const body = request.body;
        const expiry = expiresAt(body, ctx.clock.now());
        const input = { kind: 'classic', note: field(body, 'note'), scopes: fieldValues(body, 'scopes'), ...expiry };
        const form = (errors: FormErrors) =>
          classicTokenPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), submitted: body, errors });
        return generate(request, reply, ctx, input, form);
      },
      '/settings/tokens/new',
    ),
  );

  app.get('/settings/personal-access-tokens/new', { schema: { querystring: { type: 'object' } }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) =>
      send(reply, htmlPage(fineGrainedTokenPage({ base: ctx.urls.base, csrf: csrfToken(request, reply) }))),
    ),
  );

  app.post('/settings/personal-access-tokens', { schema: formSchema, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const body = request.body;
        const permissions: Record<string, string> = {};
        for (const p of FINE_GRAINED_PERMISSIONS) {
          const level = field(body, permissionField(p));
          if (level !== '') permissions[p] = level;
        }
        const input = { kind: 'fine_grained', note: field(body, 'note'), permissions, ...expiresAt(body, ctx.clock.now()) };
        const form = (errors: FormErrors) =>
          fineGrainedTokenPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), submitted: body, errors });
        return generate(request, reply, ctx, input, form);
      },
      '/settings/personal-access-tokens/new',
    ),
  );

  // "Delete": the token is refused from the next request on; someone else's token, or no token, is 404.
  app.post('/settings/tokens/:id/delete', { schema: { ...formSchema, params: pathParams('id') }, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        if (!/^[1-9]\d{0,9}$/.test(request.params.id)) throw new NotFound();
        await revokeOwnToken(ctx, Number(request.params.id));
        return reply.redirect(`${ctx.urls.base}/settings/tokens`, 303);
      },
      '/settings/tokens',
    ),
  );
}
