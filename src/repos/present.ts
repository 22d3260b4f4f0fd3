// The only place that shapes repositories as REST JSON: the list form, the full form, and the URL fields both share.
import type { UserRow } from '../db/schema.js';
import { simpleOrganization, simpleUser } from '../accounts/present.js';
import { nodeId, type Urls } from '../core/urls.js';
import { isoUtc } from '../core/timestamps.js';
import type { RepositoryRow } from '../db/tables/repos.js';

/** What the caller may do, as GitHub's `permissions` object. */
export interface Permissions {
  admin: boolean;
  maintain: boolean;
  push: boolean;
  triage: boolean;
  pull: boolean;
}

/** The pull-request settings stored with a repository (hublet has no pull requests; the values round-trip). */
export interface MergeSettings {
  allow_squash_merge: boolean;
  allow_merge_commit: boolean;
  allow_rebase_merge: boolean;
  allow_auto_merge: boolean;
  delete_branch_on_merge: boolean;
  allow_update_branch: boolean;
  use_squash_pr_title_as_default: boolean;
  squash_merge_commit_title: 'PR_TITLE' | 'COMMIT_OR_PR_TITLE';
  squash_merge_commit_message: 'PR_BODY' | 'COMMIT_MESSAGES' | 'BLANK';
  merge_commit_title: 'PR_TITLE' | 'MERGE_MESSAGE';
  merge_commit_message: 'PR_BODY' | 'PR_TITLE' | 'BLANK';
}

export const DEFAULT_MERGE_SETTINGS: MergeSettings = {
  allow_squash_merge: true,
  allow_merge_commit: true,
  allow_rebase_merge: true,
  allow_auto_merge: false,
  delete_branch_on_merge: false,
  allow_update_branch: false,
  use_squash_pr_title_as_default: false,
  squash_merge_commit_title: 'COMMIT_OR_PR_TITLE',
  squash_merge_commit_message: 'COMMIT_MESSAGES',
  merge_commit_title: 'MERGE_MESSAGE',
  merge_commit_message: 'PR_TITLE',
};

export function mergeSettings(repo: RepositoryRow): MergeSettings {
  return { ...DEFAULT_MERGE_SETTINGS, ...(JSON.parse(repo.merge_settings) as Partial<MergeSettings>) };
}

/** `html_url`, `clone_url`, `git_url`, `ssh_url` and the API URL templates of a repository, all absolute. */
export function repositoryUrls(urls: Urls, ownerLogin: string, name: string) {
  const api = urls.api(`/repos/${ownerLogin}/${name}`);
  const html = urls.html(`/${ownerLogin}/${name}`);
  const host = new URL(urls.base).host;
  const hostname = new URL(urls.base).hostname;
  return {
    html_url: html,
    url: api,
    forks_url: `${api}/forks`,
    keys_url: `${api}/keys{/key_id}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    teams_url: `${api}/teams`,
    hooks_url: `${api}/hooks`,
    issue_events_url: `${api}/issues/events{/number}`,
    events_url: `${api}/events`,
    assignees_url: `${api}/assignees{/user}`,
    branches_url: `${api}/branches{/branch}`,
    tags_url: `${api}/tags`,
    blobs_url: `${api}/git/blobs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    trees_url: `${api}/git/trees{/sha}`,
    statuses_url: `${api}/statuses/{sha}`,
    languages_url: `${api}/languages`,
    stargazers_url: `${api}/stargazers`,
    contributors_url: `${api}/contributors`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    commits_url: `${api}/commits{/sha}`,
    git_commits_url: `${api}/git/commits{/sha}`,
    comments_url: `${api}/comments{/number}`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`,
    merges_url: `${api}/merges`,
    archive_url: `${api}/{archive_format}{/ref}`,
    downloads_url: `${api}/downloads`,
    issues_url: `${api}/issues{/number}`,
    pulls_url: `${api}/pulls{/number}`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    labels_url: `${api}/labels{/name}`,
    releases_url: `${api}/releases{/id}`,
    deployments_url: `${api}/deployments`,
    /** Not served: hublet speaks git over HTTP only (documented); the fields keep GitHub's shape. */
    git_url: `git://${host}/${ownerLogin}/${name}.git`,
    ssh_url: `git@${hostname}:${ownerLogin}/${name}.git`,
    clone_url: `${html}.git`,
    svn_url: html,
  };
}

/** A repository's topics, as stored (a JSON array of names). */
export function topicsOf(repo: RepositoryRow): string[] {
  return JSON.parse(repo.topics) as string[];
}

/**
 * The identity and API URLs every repository shape starts with, in GitHub's order: all that GET /repositories shows of
 * each repository (api.github.com's list of public repositories stops at `deployments_url`).
 */
export function repositoryHead(repo: RepositoryRow, owner: UserRow, urls: Urls, u = repositoryUrls(urls, owner.login, repo.name)) {
  return {
    id: repo.id,
    node_id: nodeId('Repository', repo.id),
    name: repo.name,
    full_name: `${owner.login}/${repo.name}`,
    private: repo.visibility !== 'public',
    owner: simpleUser(owner, urls),
    html_url: u.html_url,
    description: repo.description,
    fork: repo.parent_id !== null,
    url: u.url,
    forks_url: u.forks_url,
    keys_url: u.keys_url,
    collaborators_url: u.collaborators_url,
    teams_url: u.teams_url,
    hooks_url: u.hooks_url,
    issue_events_url: u.issue_events_url,
    events_url: u.events_url,
    assignees_url: u.assignees_url,
    branches_url: u.branches_url,
    tags_url: u.tags_url,
    blobs_url: u.blobs_url,
    git_tags_url: u.git_tags_url,
    git_refs_url: u.git_refs_url,
    trees_url: u.trees_url,
    statuses_url: u.statuses_url,
    languages_url: u.languages_url,
    stargazers_url: u.stargazers_url,
    contributors_url: u.contributors_url,
    subscribers_url: u.subscribers_url,
    subscription_url: u.subscription_url,
    commits_url: u.commits_url,
    git_commits_url: u.git_commits_url,
    comments_url: u.comments_url,
    issue_comment_url: u.issue_comment_url,
    contents_url: u.contents_url,
    compare_url: u.compare_url,
    merges_url: u.merges_url,
    archive_url: u.archive_url,
    downloads_url: u.downloads_url,
    issues_url: u.issues_url,
    pulls_url: u.pulls_url,
    milestones_url: u.milestones_url,
    notifications_url: u.notifications_url,
    labels_url: u.labels_url,
    releases_url: u.releases_url,
    deployments_url: u.deployments_url,
  };
}

/** The fields every repository shape shares (REST lists, single responses and webhook payloads), in GitHub's order. */
export function repositoryCore(repo: RepositoryRow, owner: UserRow, urls: Urls) {
  const u = repositoryUrls(urls, owner.login, repo.name);
  // Object.assign, not `{ ...head, … }`: spreading this ~50-field object and adding fields made V8 build fresh hidden
  // classes on every call (~25 KB of old-space garbage per repository presented, 60+ MiB of RSS under polling).
  return Object.assign(repositoryHead(repo, owner, urls, u), {
    created_at: isoUtc(repo.created_at),
    updated_at: isoUtc(repo.updated_at),
    pushed_at: isoUtc(repo.pushed_at),
    git_url: u.git_url,
    ssh_url: u.ssh_url,
    clone_url: u.clone_url,
    svn_url: u.svn_url,
    homepage: repo.homepage,
    size: repo.size_kb,
    stargazers_count: 0,
    watchers_count: 0,
    language: repo.language,
    has_issues: Boolean(repo.has_issues),
    has_projects: Boolean(repo.has_projects),
    has_downloads: Boolean(repo.has_downloads),
    has_wiki: Boolean(repo.has_wiki),
    has_pages: false,
    has_discussions: Boolean(repo.has_discussions),
    forks_count: repo.forks_count,
    mirror_url: null,
    archived: Boolean(repo.archived),
    disabled: false,
    open_issues_count: 0,
    license: null,
    allow_forking: Boolean(repo.allow_forking),
    is_template: Boolean(repo.is_template),
    web_commit_signoff_required: Boolean(repo.web_commit_signoff_required),
    topics: topicsOf(repo),
    visibility: repo.visibility,
    forks: repo.forks_count,
    open_issues: 0,
    watchers: 0,
    default_branch: repo.default_branch,
  });
}

export interface PresentOptions {
  /** The caller's permissions; left out for anonymous callers, as GitHub does. */
  permissions?: Permissions;
  /** The API version the request selected: 2026-03-10 no longer has `has_downloads`. */
  apiVersion?: string;
}

/** A repository of a fork's network, as the full object names it. */
interface NetworkMember {
  repo: RepositoryRow;
  owner: UserRow;
}

export interface FullOptions extends PresentOptions {
  /** A fork's parent and source (those the caller may read) and its network's number of forks. */
  network?: { parent?: NetworkMember; source?: NetworkMember; count: number };
}

function forVersion<T extends { has_downloads?: boolean }>(body: T, apiVersion: string | undefined): T {
  if (apiVersion && apiVersion >= '2026-03-10') delete body.has_downloads;
  return body;
}

/** The repository as list endpoints show it (GitHub's `repository` / `minimal-repository`). */
export function repositoryListItem(repo: RepositoryRow, owner: UserRow, urls: Urls, opts: PresentOptions = {}) {
  const body: ReturnType<typeof repositoryCore> & { permissions?: Permissions } = repositoryCore(repo, owner, urls);
  if (opts.permissions) body.permissions = opts.permissions;
  return forVersion(body as Partial<typeof body>, opts.apiVersion);
}

/** `GET /repos/{owner}/{repo}` and the answers of create and update (GitHub's `full-repository`). */
export function fullRepository(repo: RepositoryRow, owner: UserRow, urls: Urls, opts: FullOptions = {}) {
  const network = opts.network;
  const member = (m: NetworkMember | undefined) => (m ? forVersion(repositoryCore(m.repo, m.owner, urls), opts.apiVersion) : undefined);
  const settings = mergeSettings(repo);
  const canAdmin = opts.permissions?.admin ?? false;
  // Object.assign onto the core for the same reason as in repositoryCore (no spread of the large object).
  const body = Object.assign(repositoryCore(repo, owner, urls), {
    ...(opts.permissions ? { permissions: opts.permissions } : {}),
    ...(opts.permissions?.push ? settings : {}),
    template_repository: null,
    ...(owner.type === 'Organization' ? { organization: { ...simpleUser(owner, urls) } } : {}),
    ...(network?.parent ? { parent: member(network.parent), source: member(network.source) } : {}),
    network_count: network?.count ?? 0,
    subscribers_count: 0,
    custom_properties: {},
    ...(canAdmin
      ? {
          security_and_analysis: {
            secret_scanning: { status: 'disabled' },
            secret_scanning_push_protection: { status: 'disabled' },
            secret_scanning_non_provider_patterns: { status: 'disabled' },
          },
        }
      : {}),
  });
  return forVersion(body as Partial<typeof body>, opts.apiVersion);
}

/** The organization object embedded in repository payloads. */
export function payloadOrganization(owner: UserRow, urls: Urls) {
  return owner.type === 'Organization' ? simpleOrganization(owner, urls) : undefined;
}
