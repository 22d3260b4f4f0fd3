// Rows as the database would give them, for unit tests of pure code (plans) that take rows already read.
import type { UserRow } from '../../src/db/schema.js';
import type { RepositoryRow } from '../../src/db/tables/repos.js';

/** When every row here was made, unless `extra` says otherwise. */
const at = '2024-01-01T00:00:00.000Z';

/** A user or organization row with every column at its default (`extra` overrides). */
export function userRow(id: number, login: string, type: UserRow['type'] = 'User', extra: Partial<UserRow> = {}): UserRow {
  return {
    id,
    login,
    login_lower: login.toLowerCase(),
    type,
    name: null,
    email: null,
    company: null,
    blog: null,
    location: null,
    bio: null,
    site_admin: 0,
    members_can_create_repositories: 1,
    created_at: at,
    updated_at: at,
    suspended_at: null,
    ...extra,
  };
}

/** A public repository row with every column at its default (`extra` overrides). */
export function repositoryRow(id: number, owner: Pick<UserRow, 'id'>, name: string, extra: Partial<RepositoryRow> = {}): RepositoryRow {
  return {
    id,
    owner_id: owner.id,
    name,
    name_lower: name.toLowerCase(),
    description: null,
    homepage: null,
    visibility: 'public',
    default_branch: 'main',
    topics: '[]',
    has_issues: 1,
    has_projects: 1,
    has_wiki: 1,
    has_downloads: 1,
    has_discussions: 0,
    is_template: 0,
    archived: 0,
    allow_forking: 1,
    web_commit_signoff_required: 0,
    merge_settings: '{}',
    size_kb: 0,
    language: null,
    pushed_at: at,
    created_at: at,
    updated_at: at,
    parent_id: null,
    source_id: null,
    forks_count: 0,
    ...extra,
  };
}
