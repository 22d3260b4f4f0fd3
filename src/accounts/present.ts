// The only place that shapes users, organizations and memberships as JSON.
import type { TokenRow, UserRow } from '../db/schema.js';
import { nodeId, type Urls } from '../core/urls.js';
import { isoUtc } from '../core/timestamps.js';

/** The short user object GitHub embeds as owner, user and sender. */
export function simpleUser(row: UserRow, urls: Urls) {
  const login = row.login;
  const users = urls.api(`/users/${login}`);
  return {
    login,
    id: row.id,
    node_id: nodeId(row.type, row.id),
    avatar_url: urls.html(`/avatars/${login}`),
    gravatar_id: '',
    url: users,
    html_url: urls.html(`/${login}`),
    followers_url: `${users}/followers`,
    following_url: `${users}/following{/other_user}`,
    gists_url: `${users}/gists{/gist_id}`,
    starred_url: `${users}/starred{/owner}{/repo}`,
    subscriptions_url: `${users}/subscriptions`,
    organizations_url: `${users}/orgs`,
    repos_url: `${users}/repos`,
    events_url: `${users}/events{/privacy}`,
    received_events_url: `${users}/received_events`,
    type: row.type,
    user_view_type: 'public',
    site_admin: Boolean(row.site_admin),
  };
}

export interface AccountCounts {
  public_repos: number;
  public_gists: number;
}

/** The profile fields users and organizations share, in GitHub's order. */
function profileFields(row: UserRow) {
  return { name: row.name, company: row.company, blog: row.blog ?? '', location: row.location, email: row.email };
}

/** `GET /users/{username}`: the public profile. */
export function publicUser(row: UserRow, urls: Urls, counts: AccountCounts) {
  return {
    ...simpleUser(row, urls),
    ...profileFields(row),
    hireable: null,
    bio: row.bio,
    twitter_username: null,
    public_repos: counts.public_repos,
    public_gists: counts.public_gists,
    followers: 0,
    following: 0,
    created_at: isoUtc(row.created_at),
    updated_at: isoUtc(row.updated_at),
  };
}

/** `GET /user`: the signed-in user's own profile (GitHub's private view: `user_view_type` is `private`). */
export function privateUser(
  row: UserRow,
  urls: Urls,
  counts: AccountCounts & { private_gists: number; owned_private_repos: number; total_private_repos: number },
) {
  return {
    ...publicUser(row, urls, counts),
    user_view_type: 'private',
    private_gists: counts.private_gists,
    total_private_repos: counts.total_private_repos,
    owned_private_repos: counts.owned_private_repos,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: false,
    plan: { name: 'free', space: 976562499, private_repos: 10000, collaborators: 0 },
  };
}

/** The short organization object (`organization` in payloads, memberships). */
export function simpleOrganization(row: UserRow, urls: Urls) {
  const org = urls.api(`/orgs/${row.login}`);
  return {
    login: row.login,
    id: row.id,
    node_id: nodeId('Organization', row.id),
    url: org,
    repos_url: `${org}/repos`,
    events_url: `${org}/events`,
    hooks_url: `${org}/hooks`,
    issues_url: `${org}/issues`,
    members_url: `${org}/members{/member}`,
    public_members_url: `${org}/public_members{/member}`,
    avatar_url: urls.html(`/avatars/${row.login}`),
    description: row.bio,
  };
}

/** `GET /orgs/{org}`. */
export function fullOrganization(row: UserRow, urls: Urls, counts: { public_repos: number }) {
  return {
    ...simpleOrganization(row, urls),
    ...profileFields(row),
    twitter_username: null,
    is_verified: false,
    has_organization_projects: true,
    has_repository_projects: true,
    public_repos: counts.public_repos,
    public_gists: 0,
    followers: 0,
    following: 0,
    html_url: urls.html(`/${row.login}`),
    created_at: isoUtc(row.created_at),
    updated_at: isoUtc(row.updated_at),
    archived_at: null,
    type: 'Organization',
    members_can_create_repositories: Boolean(row.members_can_create_repositories),
  };
}

/** `GET /orgs/{org}/memberships/{username}`. */
export function membership(org: UserRow, user: UserRow, role: 'admin' | 'member', urls: Urls) {
  return {
    url: urls.api(`/orgs/${org.login}/memberships/${user.login}`),
    state: 'active',
    role,
    organization_url: urls.api(`/orgs/${org.login}`),
    organization: simpleOrganization(org, urls),
    user: simpleUser(user, urls),
  };
}

/**
 * A token as GitHub's OAuth authorization object. `token` holds the secret only in the response that created it;
 * every later read shows an empty string (the secret is not stored, only its SHA-256 hash).
 */
export function authorization(row: TokenRow, user: UserRow, urls: Urls, token = '') {
  return {
    id: row.id,
    url: urls.api(`/authorizations/${row.id}`),
    token,
    token_last_eight: row.token_last_eight,
    hashed_token: row.token_hash,
    kind: row.kind,
    scopes: JSON.parse(row.scopes) as string[],
    permissions: JSON.parse(row.permissions) as Record<string, string>,
    app: {
      name: row.app_id ? `app ${row.app_id}` : 'hublet admin',
      url: urls.base,
      client_id: row.app_id ? String(row.app_id) : '00000000000000000000',
    },
    note: row.note,
    note_url: null,
    fingerprint: null,
    user: simpleUser(user, urls),
    created_at: isoUtc(row.created_at),
    updated_at: isoUtc(row.created_at),
    expires_at: row.expires_at ? isoUtc(row.expires_at) : null,
  };
}
