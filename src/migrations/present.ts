// The only place that shapes migrations as JSON (GitHub's `migration` object) and their numeric-offset timestamps.
import { simpleUser } from '../accounts/present.js';
import type { UserRow } from '../db/schema.js';
import { nodeId, type Urls } from '../core/urls.js';
import type { MigrationRow } from '../db/tables/migrations.js';

/** Migration timestamps carry a numeric UTC offset and whole seconds, as GitHub writes them: `2015-07-06T22:33:38+00:00`. */
function offsetTime(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** The API URL of a migration: under the organization, or under /user for a user migration. */
function migrationUrl(m: MigrationRow, owner: UserRow, urls: Urls): string {
  return m.kind === 'organization' ? urls.api(`/orgs/${owner.login}/migrations/${m.id}`) : urls.api(`/user/migrations/${m.id}`);
}

/** The migration's owner: the user, or the organization with its /orgs links (GitHub's short organization owner). */
function migrationOwner(owner: UserRow, urls: Urls) {
  const base = simpleUser(owner, urls);
  if (owner.type !== 'Organization') return base;
  const org = urls.api(`/orgs/${owner.login}`);
  return { ...base, url: org, repos_url: `${org}/repos`, events_url: `${org}/events` };
}

/** Whether the archive can be downloaded now (exported, not deleted, not past its lifetime). */
export function archiveAvailable(m: MigrationRow, now: Date): boolean {
  return (
    m.state === 'exported' &&
    m.archive_key !== null &&
    m.archive_deleted_at === null &&
    (m.archive_expires_at === null || Date.parse(m.archive_expires_at) > now.getTime())
  );
}

export interface MigrationView {
  owner: UserRow;
  /** Full Repository objects; undefined when the caller asked to `exclude` them. */
  repositories?: unknown[];
  now: Date;
}

export function migration(m: MigrationRow, view: MigrationView, urls: Urls) {
  const url = migrationUrl(m, view.owner, urls);
  return {
    id: m.id,
    node_id: nodeId('Migration', m.id),
    owner: migrationOwner(view.owner, urls),
    guid: m.guid,
    state: m.state,
    lock_repositories: Boolean(m.lock_repositories),
    exclude_metadata: Boolean(m.exclude_metadata),
    exclude_git_data: Boolean(m.exclude_git_data),
    exclude_attachments: Boolean(m.exclude_attachments),
    exclude_releases: Boolean(m.exclude_releases),
    exclude_owner_projects: Boolean(m.exclude_owner_projects),
    org_metadata_only: Boolean(m.org_metadata_only),
    ...(view.repositories ? { repositories: view.repositories } : { exclude: ['repositories'] }),
    url,
    ...(archiveAvailable(m, view.now) ? { archive_url: `${url}/archive` } : {}),
    ...(m.state === 'failed' && m.failure_reason ? { failure_reason: m.failure_reason } : {}),
    created_at: offsetTime(m.created_at),
    updated_at: offsetTime(m.updated_at),
  };
}
