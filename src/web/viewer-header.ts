// The header's right side, per request: who is signed in, their links and the Sign out button (a CSRF-checked form
// posting to /logout), or the Sign in link that brings the visitor back to the page they were on.
import type { FastifyReply } from 'fastify';
import { csrfToken } from './csrf.js';
import { tokenInput } from './forms.js';
import { html, type Html } from './html.js';

/** The path to come back to after signing in from this page (never the sign-in pages themselves). */
function comingBack(url: string): string | undefined {
  return /^\/(login|session|logout|signup)\b/.test(url) ? undefined : url;
}

export function viewerHeader(reply: FastifyReply): Html {
  const request = reply.request;
  const base = request.ctx.urls.base;
  const viewer = request.viewer;
  if (viewer) {
    const login = viewer.user.login;
    return html`<div class="viewer"><span>Signed in as <a href="${base}/gist/${login}"><strong>${login}</strong></a></span>
<a href="${base}/settings/tokens">Settings</a>
<form method="post" action="${base}/logout">${tokenInput(csrfToken(request, reply))}<button type="submit">Sign out</button></form></div>`;
  }
  const back = request.method === 'GET' ? comingBack(request.url) : undefined;
  const signIn = back ? `${base}/login?return_to=${encodeURIComponent(back)}` : `${base}/login`;
  const signup = request.ctx.config.signup === 'open' ? html`<a href="${base}/signup">Sign up</a>` : '';
  return html`<div class="viewer"><a href="${signIn}">Sign in</a>${signup}</div>`;
}
