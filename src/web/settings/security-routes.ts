// The signed-in person's password at /settings/security: GET shows the form, POST changes it (the old password checked
// and throttled, the new one by NIST's rules; every other session of theirs ends, this one stays), and, with single
// sign-on set up, whether their account is connected to the provider (the button posts to /login/oidc/connect).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { linkedSubject } from '../../accounts/oidc-identities.js';
import { changeOwnPassword, hasPassword } from '../../accounts/own-account.js';
import type { ServiceContext } from '../../core/context.js';
import { HttpError, ValidationFailed, type FieldError } from '../../core/errors.js';
import { typed } from '../../http/typed.js';
import { csrfToken } from '../csrf.js';
import { field, formSchema, formErrors } from '../forms.js';
import { providerName } from '../sign-in/oidc-client.js';
import { securityPage, type SecurityPageOptions } from './security-page.js';
import { htmlPage, send, webConfig as config } from '../serve.js';
import { asViewer, type Viewer } from '../viewer.js';

const LABELS = {
  old_password: { field: 'old_password', label: 'Old password' },
  password: { field: 'password', label: 'New password' },
  password_confirmation: { field: 'password_confirmation', label: 'Confirm new password' },
};

async function sendSecurityPage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: ServiceContext,
  viewer: Viewer,
  status: number,
  extra: Pick<SecurityPageOptions, 'errors' | 'notice'> = {},
): Promise<FastifyReply> {
  const issuer = ctx.config.oidcIssuer;
  const sso = issuer
    ? { name: providerName(ctx.config), connected: (await linkedSubject(ctx.db, viewer.user.id, issuer)) !== undefined }
    : undefined;
  const markup = securityPage({
    base: ctx.urls.base,
    csrf: csrfToken(request, reply),
    hasPassword: await hasPassword(ctx, viewer.user.id),
    sso,
    ...extra,
  });
  return send(reply, htmlPage(markup, status));
}

export function securityRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);

  app.get('/settings/security', { schema: { querystring: { type: 'object' } }, config }, async (request, reply) =>
    asViewer(request, reply, (ctx, viewer) => sendSecurityPage(request, reply, ctx, viewer, 200)),
  );

  app.post('/settings/security', { schema: formSchema, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx, viewer) => {
        const body = request.body;
        try {
          await changeOwnPassword(ctx, {
            oldPassword: field(body, 'old_password'),
            password: field(body, 'password'),
            confirmation: field(body, 'password_confirmation'),
            keepSessionId: viewer.sessionId,
          });
        } catch (err) {
          if (err instanceof ValidationFailed)
            return sendSecurityPage(request, reply, ctx, viewer, 422, { errors: formErrors(err.extra.errors as FieldError[], LABELS) });
          if (err instanceof HttpError && err.status === 429)
            return sendSecurityPage(request, reply, ctx, viewer, 429, { notice: { message: err.message, kind: 'error' } });
          throw err;
        }
        return sendSecurityPage(request, reply, ctx, viewer, 200, {
          notice: { message: 'Password changed successfully.', kind: 'notice' },
        });
      },
      '/settings/security',
    ),
  );
}
