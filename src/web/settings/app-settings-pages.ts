// The OAuth app settings pages, in GitHub's words: /settings/applications (the apps a person authorized, each with
// its scopes and "Revoke", and the apps they registered), "Register a new OAuth app" ("Application name", "Homepage
// URL", "Application description", "Authorization callback URL", "Register application"), and an app's own page
// (its client id, "Generate a new client secret", a new secret shown once).
import type { AuthorizedApp } from '../../accounts/oauth-grants.js';
import type { OauthAppRow } from '../../db/tables/sign-in.js';
import { field, flash, input, tokenInput, type FormBody, type FormErrors } from '../forms.js';
import { html, type Html } from '../html.js';
import { day, settingsPage } from './settings-layout.js';

const CURRENT = '/settings/applications';

/** The registration form's fields, by the names the service reports problems under. */
export const APP_FIELDS = {
  name: { field: 'name', label: 'Application name' },
  homepage_url: { field: 'homepage_url', label: 'Homepage URL' },
  description: { field: 'description', label: 'Application description' },
  callback_url: { field: 'callback_url', label: 'Authorization callback URL' },
} as const;

export interface ApplicationsPageOptions {
  base: string;
  csrf: string;
  authorized: readonly AuthorizedApp[];
  owned: readonly OauthAppRow[];
  notice?: string;
}

function authorizedItem(o: ApplicationsPageOptions, a: AuthorizedApp): Html {
  const scopes = a.scopes.length ? html`${a.scopes.map((s, i) => html`${i ? ', ' : ''}<code>${s}</code>`)}` : 'public data only';
  return html`<li id="app-${a.app.client_id}"><strong>${a.app.name}</strong>
<span class="meta">Scopes: ${scopes} · authorized ${day(a.authorizedAt)}</span>
<form method="post" action="${o.base}/settings/connections/applications/${a.app.client_id}/revoke">${tokenInput(o.csrf)}<button type="submit" class="danger">Revoke</button></form></li>`;
}

export function applicationsPage(o: ApplicationsPageOptions): Html {
  const authorized = o.authorized.length
    ? html`<ul class="apps">${o.authorized.map((a) => authorizedItem(o, a))}</ul>`
    : html`<p>You have no authorized applications.</p>`;
  const owned = o.owned.length
    ? html`<ul class="apps">${o.owned.map((a) => html`<li><a href="${o.base}/settings/applications/${a.id}">${a.name}</a> <span class="meta">${a.client_id}</span></li>`)}</ul>`
    : html`<p>You have not registered any OAuth app.</p>`;
  return settingsPage({
    base: o.base,
    title: 'Applications',
    current: CURRENT,
    body: html`${flash(o.notice, 'notice')}<h2>Authorized OAuth Apps</h2>
${authorized}
<h2>OAuth Apps</h2>
${owned}
<p><a class="button" href="${o.base}/settings/applications/new">New OAuth App</a></p>`,
  });
}

export function newApplicationPage(o: { base: string; csrf: string; submitted?: FormBody; errors?: FormErrors }): Html {
  const errors = o.errors ?? {};
  const value = (name: string) => field(o.submitted, name);
  return settingsPage({
    base: o.base,
    title: 'Register a new OAuth app',
    current: CURRENT,
    body: html`${flash(errors[''])}<form class="form" method="post" action="${o.base}/settings/applications">
${tokenInput(o.csrf)}
${input({ label: 'Application name', name: 'name', value: value('name'), required: true, autofocus: true, error: errors.name, hint: 'Something people will recognize and trust.' })}
${input({ label: 'Homepage URL', name: 'homepage_url', type: 'url', value: value('homepage_url'), required: true, error: errors.homepage_url, hint: 'The full URL to your application homepage.' })}
${input({ label: 'Application description', name: 'description', value: value('description'), error: errors.description, hint: 'Shown to people who are asked to authorize the app.' })}
${input({ label: 'Authorization callback URL', name: 'callback_url', type: 'url', value: value('callback_url'), required: true, error: errors.callback_url, hint: "Your application's callback URL." })}
<button type="submit" class="primary">Register application</button>
</form>`,
  });
}

export function applicationPage(o: { base: string; csrf: string; app: OauthAppRow; secret?: string }): Html {
  const a = o.app;
  const secret = o.secret
    ? html`${flash("Make sure to copy your new client secret now. You won't be able to see it again.", 'notice')}<p class="secret-value">${o.secret}</p>`
    : a.client_secret_last_eight
      ? html`<p>Client secret <code>*****${a.client_secret_last_eight}</code></p>`
      : html`<p>You need a client secret to authenticate as the application to the API.</p>`;
  return settingsPage({
    base: o.base,
    title: a.name,
    current: CURRENT,
    body: html`<dl class="app-facts">
<dt>Client ID</dt><dd><code>${a.client_id}</code></dd>
<dt>Homepage URL</dt><dd>${a.homepage_url ?? ''}</dd>
<dt>Application description</dt><dd>${a.description ?? ''}</dd>
<dt>Authorization callback URL</dt><dd>${a.callback_url}</dd>
</dl>
<h2>Client secrets</h2>
${secret}
<form method="post" action="${o.base}/settings/applications/${a.id}/client_secret">${tokenInput(o.csrf)}<button type="submit">Generate a new client secret</button></form>`,
  });
}
