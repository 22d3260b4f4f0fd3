// The password change of /settings/security ("Password and authentication"), in GitHub's words: "Old password", "New
// password", "Confirm new password" and "Update password"; a user without a password (made by single sign-on) sets a
// first one without the old.
import { flash, input, tokenInput, type FormErrors } from '../forms.js';
import { html, type Html } from '../html.js';
import { settingsPage } from './settings-layout.js';

export interface SecurityPageOptions {
  base: string;
  csrf: string;
  /** Whether the user has a password now (the old one is then asked for). */
  hasPassword: boolean;
  errors?: FormErrors;
  /** A message above the form (the change made, or a refusal). */
  notice?: { message: string; kind: 'error' | 'notice' };
  /** Single sign-on, when set up: the provider's name and whether this person's account is connected to it. */
  sso?: { name: string; connected: boolean };
}

/** The single sign-on section: connected, or a button that connects the person's account at the provider. */
function ssoSection(o: SecurityPageOptions): Html | '' {
  if (!o.sso) return '';
  const body = o.sso.connected
    ? html`<p>Your ${o.sso.name} account is connected: you can sign in with it.</p>`
    : html`<form class="form" method="post" action="${o.base}/login/oidc/connect">${tokenInput(o.csrf)}
<p class="hint">Sign in at ${o.sso.name} once to connect it to this account; then “Sign in with ${o.sso.name}” signs you in here.</p>
<button type="submit">Connect your ${o.sso.name} account</button></form>`;
  return html`<h2>Single sign-on</h2>
${body}`;
}

export function securityPage(o: SecurityPageOptions): Html {
  const errors = o.errors ?? {};
  const old = o.hasPassword
    ? input({
        label: 'Old password',
        name: 'old_password',
        type: 'password',
        autocomplete: 'current-password',
        required: true,
        error: errors.old_password,
      })
    : html`<p class="meta">You have no password yet: set one to sign in with your username and password too.</p>`;
  return settingsPage({
    base: o.base,
    title: 'Password and authentication',
    current: '/settings/security',
    body: html`<h2>${o.hasPassword ? 'Change password' : 'Set a password'}</h2>
${flash(o.notice?.message, o.notice?.kind)}${flash(errors[''])}<form class="form" method="post" action="${o.base}/settings/security">
${tokenInput(o.csrf)}
${old}
${input({ label: 'New password', name: 'password', type: 'password', autocomplete: 'new-password', required: true, error: errors.password, hint: 'At least 15 characters, not one of the most common passwords.' })}
${input({ label: 'Confirm new password', name: 'password_confirmation', type: 'password', autocomplete: 'new-password', required: true, error: errors.password_confirmation })}
<p class="hint">Your other sessions are signed out when the password changes; this one stays.</p>
<button type="submit" class="primary">Update password</button>
</form>
${ssoSection(o)}`,
  });
}
