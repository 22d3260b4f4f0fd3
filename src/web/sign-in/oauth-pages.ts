// The web application flow's consent page (GitHub's /login/oauth/authorize: the app, who made it, the scopes it asks
// for, "Authorize APP" and "Cancel"), and the scope list every OAuth page shows, in GitHub's words.
import { tokenInput } from '../forms.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';

/** What GitHub's consent pages say each scope lets the app do (scopes not listed show their name alone). */
const SCOPE_WORDS: Record<string, string> = {
  repo: 'Full control of private repositories',
  public_repo: 'Access public repositories',
  'repo:status': 'Access commit status',
  gist: 'Create gists',
  user: 'Update ALL user data',
  'read:user': 'Read ALL user profile data',
  'user:email': 'Access user email addresses (read-only)',
  'read:org': 'Read org and team membership, read org projects',
  'write:org': 'Read and write org and team membership, read and write org projects',
  'admin:org': 'Full control of orgs and teams, read and write org projects',
  'admin:org_hook': 'Full control of organization hooks',
  'admin:repo_hook': 'Full control of repository hooks',
  'write:repo_hook': 'Write repository hooks',
  'read:repo_hook': 'Read repository hooks',
  delete_repo: 'Delete repositories',
  workflow: 'Update GitHub Action workflows',
  site_admin: 'Full control of the site (site administrators)',
};

/** The scopes as list items; none at all is GitHub's "public data only". */
export function scopeItems(scopes: readonly string[]): Html {
  if (scopes.length === 0) return html`<li><strong>Public data only</strong>: limited access to your public data</li>`;
  return html`${scopes.map((s) => html`<li><code>${s}</code>${SCOPE_WORDS[s] ? html`: ${SCOPE_WORDS[s]}` : ''}</li>`)}`;
}

export interface ConsentPageOptions {
  base: string;
  token: string;
  login: string;
  appName: string;
  appOwner: string | null;
  homepageUrl: string | null;
  clientId: string;
  redirectUri: string;
  /** The scope parameter as parsed (space-delimited), posted back with the decision. */
  scopes: readonly string[];
  state: string;
}

export function consentPage(o: ConsentPageOptions): Html {
  const by = o.appOwner ? html` by <strong>${o.appOwner}</strong>` : '';
  const homepage = o.homepageUrl ? html`<p class="meta">${o.homepageUrl}</p>` : '';
  return page({
    title: `Authorize ${o.appName} · hublet`,
    base: o.base,
    noindex: true,
    body: html`<div class="form-page"><h1>Authorize ${o.appName}</h1>
<p><strong>${o.appName}</strong>${by} wants to access your <strong>${o.login}</strong> account.</p>${homepage}
<ul class="scopes">${scopeItems(o.scopes)}</ul>
<form class="form" method="post" action="${o.base}/login/oauth/authorize">
${tokenInput(o.token)}<input type="hidden" name="client_id" value="${o.clientId}">
<input type="hidden" name="redirect_uri" value="${o.redirectUri}">
<input type="hidden" name="scope" value="${o.scopes.join(' ')}">
<input type="hidden" name="state" value="${o.state}">
<button type="submit" name="authorize" value="1" class="primary">Authorize ${o.appName}</button>
<button type="submit" name="authorize" value="0">Cancel</button>
</form>
<p class="meta">Authorizing will redirect to <strong>${new URL(o.redirectUri).origin}</strong></p></div>`,
  });
}
