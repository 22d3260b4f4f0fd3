// Sign-up at GitHub's address: GET /signup (the form) and POST /signup (makes the account through the same service as
// a site admin's, signs the person in, on to /gist/LOGIN). Off by default (404); HUBLET_SIGNUP=open lets anyone in
// (throttled per client address), `invite` only those holding a good invitation (`?invitation=TOKEN`; 403 otherwise).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { signUp, signupInvitation } from '../../accounts/own-account.js';
import { Forbidden, HttpError, ValidationFailed, type FieldError } from '../../core/errors.js';
import { typed } from '../../http/typed.js';
import { csrfToken } from '../csrf.js';
import { field, formSchema, type FormBody, formErrors } from '../forms.js';
import { htmlPage, queryValue, send, webConfig as config } from '../serve.js';
import { invitationNeededPage, signupPage, type SignupPageOptions } from './signup-page.js';
import { pageContext, signIn } from '../viewer.js';

const LABELS = {
  login: { field: 'login', label: 'Username' },
  email: { field: 'email', label: 'Email address' },
  password: { field: 'password', label: 'Password' },
};

function sendSignupPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  o: Pick<SignupPageOptions, 'invitation' | 'submitted' | 'errors' | 'error'>,
): FastifyReply {
  return send(reply, htmlPage(signupPage({ base: request.ctx.urls.base, csrf: csrfToken(request, reply), ...o }), status));
}

/** The answer to a refusal a page can show (no invitation, too many sign-ups, problems with the fields); else undefined. */
function refusal(request: FastifyRequest, reply: FastifyReply, err: unknown, body: FormBody): FastifyReply | undefined {
  const invitation = field(body, 'invitation');
  if (err instanceof Forbidden) return send(reply, htmlPage(invitationNeededPage(request.ctx.urls.base, err.message), 403));
  if (err instanceof HttpError && err.status === 429)
    return sendSignupPage(request, reply, 429, { invitation, submitted: body, error: err.message });
  if (err instanceof ValidationFailed) {
    const errors = formErrors(err.extra.errors as FieldError[], LABELS);
    return sendSignupPage(request, reply, 422, { invitation, submitted: body, errors });
  }
  return undefined;
}

export function signupRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);

  const signupQuery = { type: 'object', properties: { invitation: queryValue } } as const;
  app.get('/signup', { schema: { querystring: signupQuery }, config }, async (request, reply) => {
    const invitation = field({ invitation: request.query.invitation }, 'invitation');
    try {
      await signupInvitation(pageContext(request), invitation);
    } catch (err) {
      const answer = refusal(request, reply, err, { invitation });
      if (answer) return answer;
      throw err;
    }
    return sendSignupPage(request, reply, 200, { invitation });
  });

  app.post('/signup', { schema: formSchema, config }, async (request, reply) => {
    const body = request.body;
    try {
      const user = await signUp(pageContext(request), {
        login: field(body, 'login'),
        email: field(body, 'email'),
        password: field(body, 'password'),
        invitation: field(body, 'invitation'),
        address: request.ip,
      });
      await signIn(request, reply, user, 'password');
      return reply.redirect(`${request.ctx.urls.base}/gist/${user.login}`, 303);
    } catch (err) {
      const answer = refusal(request, reply, err, body);
      if (answer) return answer;
      throw err;
    }
  });
}
