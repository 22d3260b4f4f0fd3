// Forged forms are refused: every state-changing form carries an `authenticity_token` (GitHub's field name), an HMAC of
// the signed-in person's session id (or, before sign-in, of a random cookie of its own) under a key derived for this
// use; and a POST that a browser marks as cross-site (Sec-Fetch-Site, or an Origin other than the site's) is refused
// before its token is even read.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden } from '../core/errors.js';
import { cookieName, setSiteCookie } from './viewer.js';

const KEY_PURPOSE = 'web form authenticity';
const ANONYMOUS_COOKIE = 'hublet_csrf';
export const CSRF_FIELD = 'authenticity_token';

function mac(key: Buffer, binding: string): string {
  return crypto.createHmac('sha256', key).update(binding).digest('base64url');
}

/** What the token is bound to: the session, or the visitor's anonymous cookie (made on the first form shown). */
function binding(request: FastifyRequest, reply?: FastifyReply): string | undefined {
  if (request.viewer) return `session:${request.viewer.sessionId}`;
  let anon = request.cookies[cookieName(request, ANONYMOUS_COOKIE)];
  if (!anon || !/^[A-Za-z0-9_-]{22,64}$/.test(anon)) {
    if (!reply) return undefined;
    anon = crypto.randomBytes(18).toString('base64url');
    setSiteCookie(reply, ANONYMOUS_COOKIE, anon);
    request.cookies[cookieName(request, ANONYMOUS_COOKIE)] = anon;
  }
  return `visitor:${anon}`;
}

/** The token the forms of this response carry (setting the visitor's cookie when there is none yet). */
export function csrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const bound = binding(request, reply) as string;
  return mac(request.ctx.secrets.derivedKeys(KEY_PURPOSE)[0], bound);
}

/** Refuses a cross-site POST, then one whose token does not match (any of the keys: a rotated key still checks). */
export function checkForm(request: FastifyRequest, submitted: unknown): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw new Forbidden('Cross-site form submission refused.');
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== new URL(request.ctx.urls.base).origin) throw new Forbidden('Cross-site form submission refused.');
  const bound = binding(request);
  if (typeof submitted !== 'string' || bound === undefined) throw new Forbidden('This form has expired. Reload the page and try again.');
  const given = Buffer.from(submitted);
  const ok = request.ctx.secrets.derivedKeys(KEY_PURPOSE).some((key) => {
    const expected = Buffer.from(mac(key, bound));
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  });
  if (!ok) throw new Forbidden('This form has expired. Reload the page and try again.');
}
