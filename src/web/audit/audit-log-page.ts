// An organization's audit log page (/organizations/<org>/settings/audit-log, its owners): a search form in GitHub's
// phrase (GET, nothing changes), the entries newest first (when, who and from where, the action, what it concerns and
// the action's own fields) and Newer/Older links by cursor. Everything an entry holds was written by someone: escaped.
import type { UserRow } from '../../db/schema.js';
import { html, type Html } from '../html.js';
import { flash } from '../forms.js';
import { settingsPage, type SettingsNav } from '../settings/settings-layout.js';

/** One entry as the page shows it: the API's event (auditEvent) split into what every entry has and its own fields. */
export interface ShownEntry {
  documentId: string;
  /** ISO time. */
  at: string;
  action: string;
  actor: string | null;
  actorIp: string | null;
  org: string | null;
  repo: string | null;
  user: string | null;
  /** The action's own fields, each value as JSON when it is not a string. */
  fields: [string, string][];
}

export interface AuditLogPageOptions {
  base: string;
  org: UserRow;
  /** The page's path: `/organizations/<org>/settings/audit-log`. */
  path: string;
  nav: SettingsNav;
  phrase: string;
  entries: ShownEntry[];
  /** Cursors of the newer and the older page, when there are entries there. */
  newer?: string;
  older?: string;
  /** A phrase or cursor the log refused. */
  error?: string;
}

function pageLink(o: AuditLogPageOptions, param: 'before' | 'after', cursor: string, label: string): Html {
  const q = new URLSearchParams(o.phrase ? { q: o.phrase, [param]: cursor } : { [param]: cursor });
  return html`<a href="${o.base}${o.path}?${q.toString()}">${label}</a>`;
}

function concerns(e: ShownEntry): Html {
  const parts: Html[] = [];
  if (e.repo) parts.push(html`<span>repository <strong>${e.repo}</strong></span>`);
  if (e.user) parts.push(html`<span>user <strong>${e.user}</strong></span>`);
  if (e.org && !e.repo) parts.push(html`<span>organization <strong>${e.org}</strong></span>`);
  return html`${parts.map((p, i) => html`${i ? ', ' : ''}${p}`)}`;
}

function fieldList(e: ShownEntry): Html | '' {
  if (!e.fields.length) return '';
  return html`<dl class="audit-fields">${e.fields.map(([k, v]) => html`<dt>${k}</dt><dd><code>${v}</code></dd>`)}</dl>`;
}

export function auditLogPage(o: AuditLogPageOptions): Html {
  const rows = o.entries.map(
    (e) => html`<tr id="entry-${e.documentId}">
<td><time datetime="${e.at}">${e.at.slice(0, 19).replace('T', ' ')} UTC</time></td>
<td>${e.actor ?? html`<span class="meta">nobody signed in</span>`}${e.actorIp ? html`<br><span class="meta">${e.actorIp}</span>` : ''}</td>
<td><code>${e.action}</code></td>
<td>${concerns(e)}${fieldList(e)}</td>
</tr>`,
  );
  const table = rows.length
    ? html`<div class="table-scroll"><table class="audit-log"><caption class="visually-hidden">Audit log entries</caption>
<thead><tr><th scope="col">When</th><th scope="col">Actor</th><th scope="col">Action</th><th scope="col">Details</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
    : html`<p class="empty">No entries match.</p>`;
  const pages =
    o.newer || o.older
      ? html`<nav class="pages" aria-label="Pages">${o.newer ? pageLink(o, 'before', o.newer, 'Newer') : ''}${o.older ? pageLink(o, 'after', o.older, 'Older') : ''}</nav>`
      : '';
  return settingsPage({
    base: o.base,
    title: 'Audit log',
    current: o.path,
    nav: o.nav,
    body: html`<p>What was done in <strong>${o.org.login}</strong>, newest first: the last three months unless the search names a
<code>created:</code> range. The same entries are at <code>GET /orgs/${o.org.login}/audit-log</code>.</p>
${flash(o.error)}
<form class="search-form" action="${o.base}${o.path}" method="get">
<label for="audit-q">Search the audit log</label>
<input id="audit-q" type="search" name="q" value="${o.phrase}" maxlength="1024" placeholder="action:hook.create actor:alice created:>=2026-01-01">
<button type="submit">Search</button>
</form>
<p class="hint">Qualifiers: <code>action:</code> (an action, or its category: <code>action:hook</code>), <code>actor:</code>, <code>user:</code>,
<code>repo:owner/name</code>, <code>operation:</code>, <code>created:</code> (<code>&gt;=2026-01-01</code>, <code>2026-01-01..2026-01-31</code>); a
<code>-</code> before one leaves its matches out.</p>
${table}${pages}`,
  });
}
