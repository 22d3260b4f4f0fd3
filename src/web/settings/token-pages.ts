// The personal access token pages, in GitHub's words: the list at /settings/tokens ("Delete" on each; a new token shown once, above it), "Generate
// new token (classic)" with "Note", "Expiration" and a checkbox per scope, and "Generate new token" (fine-grained) with
// "Token name", "Expiration" and a control per permission; both end in "Generate token".
import { FINE_GRAINED_PERMISSIONS, KNOWN_SCOPES, type FineGrainedPermission, type PermissionLevel } from '../../core/scopes.js';
import type { TokenRow } from '../../db/schema.js';
import { field, fieldValues, flash, input, tokenInput, type FormBody, type FormErrors } from '../forms.js';
import { html, type Html } from '../html.js';
import { day, settingsPage } from './settings-layout.js';

function expiry(row: TokenRow, now: Date): Html {
  if (!row.expires_at) return html`<span class="token-expiry">This token has no expiration date.</span>`;
  if (Date.parse(row.expires_at) <= now.getTime())
    return html`<span class="token-expiry expired">Expired on ${day(row.expires_at)}.</span>`;
  return html`<span class="token-expiry">Expires on ${day(row.expires_at)}.</span>`;
}

function grants(row: TokenRow): string {
  if (row.kind === 'fine_grained') {
    const permissions = Object.entries(JSON.parse(row.permissions) as Record<string, string>);
    return permissions.length ? permissions.map(([p, level]) => `${p}: ${level}`).join(', ') : 'No permissions (public read-only)';
  }
  const scopes = JSON.parse(row.scopes) as string[];
  return scopes.length ? scopes.join(', ') : 'No scopes (public read-only)';
}

export interface TokenListOptions {
  base: string;
  csrf: string;
  tokens: TokenRow[];
  now: Date;
  /** A token just made: shown once, here. */
  created?: string;
}

export function tokenListPage(o: TokenListOptions): Html {
  const created = o.created
    ? html`${flash('Make sure to copy your personal access token now. You won’t be able to see it again!', 'notice')}
<p class="secret-value" id="new-token"><code>${o.created}</code></p>`
    : '';
  const items = o.tokens.map(
    (t) => html`<li class="token" id="token-${t.id}">
<div><strong>${t.note ?? 'Untitled token'}</strong> <span class="meta">${t.kind === 'fine_grained' ? 'fine-grained' : 'classic'} · …${t.token_last_eight}</span></div>
<div class="meta">${grants(t)}</div>
<div class="meta">Created on ${day(t.created_at)}. ${expiry(t, o.now)}</div>
<form method="post" action="${o.base}/settings/tokens/${t.id}/delete">${tokenInput(o.csrf)}<button type="submit" class="danger">Delete</button></form>
</li>`,
  );
  const list = items.length ? html`<ul class="list tokens">${items}</ul>` : html`<p class="meta">You have no personal access tokens.</p>`;
  return settingsPage({
    base: o.base,
    title: 'Personal access tokens',
    current: '/settings/tokens',
    body: html`${created}<p>Tokens you have generated that can be used to access the hublet API, as you.</p>
<p class="token-actions"><a class="button" href="${o.base}/settings/personal-access-tokens/new">Generate new token</a>
<a class="button" href="${o.base}/settings/tokens/new">Generate new token (classic)</a></p>
${list}`,
  });
}

/** The choices of "Expiration", GitHub's: days from now, a custom date, or none. */
const EXPIRATIONS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '60', label: '60 days' },
  { value: '90', label: '90 days' },
  { value: 'custom', label: 'Custom…' },
  { value: 'none', label: 'No expiration' },
] as const;
const DEFAULT_EXPIRATION = '30';

function expirationFields(submitted: FormBody, errors: FormErrors): Html {
  const chosen = field(submitted, 'expiration') || DEFAULT_EXPIRATION;
  const options = EXPIRATIONS.map((e) => html`<option value="${e.value}"${e.value === chosen ? html` selected` : ''}>${e.label}</option>`);
  const error = errors.expiration;
  return html`<div class="field">
<label for="field-expiration">Expiration</label>
<select id="field-expiration" name="expiration"${error ? html` aria-invalid="true" aria-describedby="field-expiration-error"` : ''}>${options}</select>
${error ? html`<p class="field-error" id="field-expiration-error">${error}</p>` : ''}
</div>
${input({ label: 'Custom expiration date', name: 'expiration_date', type: 'date', value: field(submitted, 'expiration_date'), hint: 'Used when Expiration is Custom: the token expires at the end of that day (UTC).', error: errors.expiration_date })}`;
}

interface TokenFormOptions {
  base: string;
  csrf: string;
  submitted?: FormBody;
  errors?: FormErrors;
}

function tokenForm(o: TokenFormOptions & { title: string; action: string; nameLabel: string; choices: Html }): Html {
  const errors = o.errors ?? {};
  return settingsPage({
    base: o.base,
    title: o.title,
    current: '/settings/tokens',
    body: html`${flash(errors[''])}<form class="form" method="post" action="${o.base}${o.action}">
${tokenInput(o.csrf)}
${input({ label: o.nameLabel, name: 'note', value: field(o.submitted, 'note'), required: true, autofocus: true, hint: 'What’s this token for?', error: errors.note })}
${expirationFields(o.submitted, errors)}
${o.choices}
<button type="submit" class="primary">Generate token</button>
</form>`,
  });
}

/** GitHub's classic form: a checkbox per scope, its value the scope's name. */
export function classicTokenPage(o: TokenFormOptions): Html {
  const checked = new Set(fieldValues(o.submitted, 'scopes'));
  const error = o.errors?.scopes;
  const boxes = KNOWN_SCOPES.map(
    (s) =>
      html`<label class="check"><input type="checkbox" name="scopes" value="${s}"${checked.has(s) ? html` checked` : ''}> <code>${s}</code></label>`,
  );
  return tokenForm({
    ...o,
    title: 'New personal access token (classic)',
    action: '/settings/tokens',
    nameLabel: 'Note',
    choices: html`<fieldset><legend>Select scopes</legend><p class="hint">Scopes define the access for personal tokens.</p>${boxes}
${error ? html`<p class="field-error">${error}</p>` : ''}</fieldset>`,
  });
}

/** The levels each fine-grained permission offers, GitHub's: metadata is read-only, the others read or read and write. */
const PERMISSION_LEVELS: Record<FineGrainedPermission, { title: string; levels: PermissionLevel[] }> = {
  administration: { title: 'Administration (repositories)', levels: ['read', 'write'] },
  contents: { title: 'Contents (repositories)', levels: ['read', 'write'] },
  metadata: { title: 'Metadata (repositories)', levels: ['read'] },
  repository_hooks: { title: 'Webhooks (repositories)', levels: ['read', 'write'] },
  organization_administration: { title: 'Administration (organizations)', levels: ['read', 'write'] },
  members: { title: 'Members (organizations)', levels: ['read', 'write'] },
  organization_hooks: { title: 'Webhooks (organizations)', levels: ['read', 'write'] },
  gists: { title: 'Gists (account)', levels: ['read', 'write'] },
  email_addresses: { title: 'Email addresses (account)', levels: ['read', 'write'] },
  profile: { title: 'Profile (account)', levels: ['read', 'write'] },
};

const LEVEL_LABELS: Record<PermissionLevel, string> = { read: 'Read-only', write: 'Read and write', admin: 'Admin' };

/** The form field of a fine-grained permission. */
export function permissionField(permission: string): string {
  return `permissions[${permission}]`;
}

/** GitHub's fine-grained form: a choice per permission (No access, Read-only, Read and write). */
export function fineGrainedTokenPage(o: TokenFormOptions): Html {
  const error = o.errors?.permissions;
  const controls = FINE_GRAINED_PERMISSIONS.map((p) => {
    const name = permissionField(p);
    const chosen = field(o.submitted, name);
    const options = ['', ...PERMISSION_LEVELS[p].levels].map(
      (level) =>
        html`<option value="${level}"${level === chosen ? html` selected` : ''}>${level ? LEVEL_LABELS[level as PermissionLevel] : 'No access'}</option>`,
    );
    return html`<div class="field"><label for="field-permission-${p}">${PERMISSION_LEVELS[p].title}</label><select id="field-permission-${p}" name="${name}">${options}</select></div>`;
  });
  return tokenForm({
    ...o,
    title: 'New fine-grained personal access token',
    action: '/settings/personal-access-tokens',
    nameLabel: 'Token name',
    choices: html`<fieldset><legend>Permissions</legend>${controls}
${error ? html`<p class="field-error">${error}</p>` : ''}</fieldset>`,
  });
}
