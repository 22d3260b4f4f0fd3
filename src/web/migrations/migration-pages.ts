// The migrations page of a person (/settings/migrations) and of an organization's owners
// (/organizations/<org>/settings/migrations): each export with the API's state (pending, exporting, exported, failed),
// when it was started, its repositories and, while its archive exists, a download link (a page route that hands out
// the archive's short-lived signed URL, migration-routes.ts); a failed one says why.
import type { UserRow } from '../../db/schema.js';
import type { MigrationRow } from '../../db/tables/migrations.js';
import { archiveAvailable } from '../../migrations/present.js';
import { html, type Html } from '../html.js';
import { plural } from '../links.js';
import { day, settingsPage, type SettingsNav } from '../settings/settings-layout.js';

/** A repository a migration names, as the page links it. */
export interface NamedRepository {
  owner: string;
  name: string;
}

export interface MigrationListOptions {
  base: string;
  /** The person or the organization whose migrations these are. */
  owner: UserRow;
  /** The page's own path (`/settings/migrations`); each archive is at `<path>/<id>/archive`. */
  path: string;
  /** The organization's settings navigation; none for a person's own settings. */
  nav?: SettingsNav;
  migrations: MigrationRow[];
  repositories: Map<number, NamedRepository[]>;
  now: Date;
  pages: Html | '';
}

function archiveCell(o: MigrationListOptions, m: MigrationRow): Html {
  if (archiveAvailable(m, o.now))
    return html`<a href="${o.base}${o.path}/${m.id}/archive" download>Download<span class="visually-hidden"> the archive of migration ${m.id}</span></a>`;
  if (m.state === 'failed') return html`<span class="delivery-state failed">${m.failure_reason ?? 'The export failed.'}</span>`;
  if (m.state === 'exported') return html`<span class="meta">Deleted or expired</span>`;
  return html`<span class="meta">Not ready yet</span>`;
}

function repositoryCell(o: MigrationListOptions, m: MigrationRow): Html {
  const repos = o.repositories.get(m.id) ?? [];
  if (!repos.length) return html`<span class="meta">${m.org_metadata_only ? 'Organization metadata only' : 'None'}</span>`;
  const links = repos.map(
    (r) => html`<li><a href="${o.base}/${encodeURIComponent(r.owner)}/${encodeURIComponent(r.name)}">${r.owner}/${r.name}</a></li>`,
  );
  return html`<ul class="plain">${links}</ul>`;
}

export function migrationListPage(o: MigrationListOptions): Html {
  const rows = o.migrations.map(
    (m) => html`<tr id="migration-${m.id}">
<td><code>${m.guid}</code></td>
<td><span class="state state-${m.state}">${m.state}</span></td>
<td><time datetime="${m.created_at}">${day(m.created_at)}</time></td>
<td>${repositoryCell(o, m)}</td>
<td>${archiveCell(o, m)}</td>
</tr>`,
  );
  const whose = o.owner.type === 'Organization' ? html`<strong>${o.owner.login}</strong>’s repositories` : 'your repositories';
  const table = rows.length
    ? html`<div class="table-scroll"><table class="migrations"><caption class="visually-hidden">Migrations</caption>
<thead><tr><th scope="col">GUID</th><th scope="col">State</th><th scope="col">Created</th><th scope="col">Repositories</th><th scope="col">Archive</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
    : html`<p class="empty">There are no migrations yet.</p>`;
  return settingsPage({
    base: o.base,
    title: 'Migrations',
    current: o.path,
    nav: o.nav,
    body: html`<p>Exports of ${whose}, newest first (${plural(o.migrations.length, 'migration')} on this page). Start one with the API
(<code>POST ${o.owner.type === 'Organization' ? `/orgs/${o.owner.login}/migrations` : '/user/migrations'}</code>); an archive can be
downloaded here until it is deleted or expires.</p>
${table}${o.pages}`,
  });
}
