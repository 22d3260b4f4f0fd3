// The sign-in page (GitHub's /login: "Username or email address", "Password", "Sign in"), with the single sign-on
// button when OpenID Connect is set up, and the sign-out confirmation page of GET /logout.
import { field, flash, input, tokenInput, type FormBody } from '../forms.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';

export interface SignInPageOptions {
  base: string;
  token: string;
  returnTo: string;
  /** The submitted form (a refused sign-in shows the name again, never the password). */
  submitted?: FormBody;
  error?: string;
  passwordSignIn: boolean;
  /** "Sign in with NAME" when single sign-on is set up. */
  sso?: { name: string; href: string };
  signupHref?: string;
}

export function signInPage(o: SignInPageOptions): Html {
  const passwordForm = o.passwordSignIn
    ? html`<form class="form" method="post" action="${o.base}/session">
${tokenInput(o.token)}<input type="hidden" name="return_to" value="${o.returnTo}">
${input({ label: 'Username or email address', name: 'login', value: field(o.submitted, 'login'), autocomplete: 'username', required: true, autofocus: true })}
${input({ label: 'Password', name: 'password', type: 'password', autocomplete: 'current-password', required: true })}
<button type="submit" class="primary">Sign in</button>
</form>`
    : '';
  const sso = o.sso ? html`<p class="sso"><a class="button" href="${o.sso.href}">Sign in with ${o.sso.name}</a></p>` : '';
  const signup = o.signupHref ? html`<p class="meta">New here? <a href="${o.signupHref}">Create an account</a>.</p>` : '';
  return page({
    title: 'Sign in · hublet',
    base: o.base,
    noindex: true,
    body: html`<div class="form-page"><h1>Sign in to hublet</h1>
${flash(o.error)}${passwordForm}${sso}${signup}</div>`,
  });
}

export function signOutPage(base: string, token: string): Html {
  return page({
    title: 'Sign out · hublet',
    base,
    noindex: true,
    body: html`<div class="form-page"><h1>Sign out</h1><p>Sign out of hublet in this browser?</p>
<form class="form" method="post" action="${base}/logout">${tokenInput(token)}<button type="submit" class="primary">Sign out</button></form></div>`,
  });
}
