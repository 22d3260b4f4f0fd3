// The header's right side, per request: "New gist" and a menu of the signed-in person's own pages (Your gists, Starred
// gists, settings, tokens) with the Sign out button (a CSRF-checked form posting to /logout), or the Sign in link that
// brings the visitor back to the page they were on.
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
    // A menu that opens without JavaScript (details/summary): the person's own pages, settings and Sign out.
    return html`<div class="viewer"><a class="button" href="${base}/gist/new">New gist</a>
<details class="menu"><summary><img class="menu-avatar" src="${base}/avatars/${login}?s=40" alt="" width="20" height="20"><span>Signed in as <strong>${login}</strong></span></summary>
<nav class="menu-items" aria-label="Your account"><a href="${base}/gist/${login}">Your gists</a><a href="${base}/gist/${login}/starred">Starred gists</a><a href="${base}/settings/profile">Your profile settings</a><a href="${base}/settings/tokens">Personal access tokens</a>
<form method="post" action="${base}/logout">${tokenInput(csrfToken(request, reply))}<button type="submit">Sign out</button></form></nav></details></div>`;
  }
  const back = request.method === 'GET' ? comingBack(request.url) : undefined;
  const signIn = back ? `${base}/login?return_to=${encodeURIComponent(back)}` : `${base}/login`;
  const signup = request.ctx.config.signup === 'open' ? html`<a href="${base}/signup">Sign up</a>` : '';
  return html`<div class="viewer"><a href="${signIn}">Sign in</a>${signup}</div>`;
}
