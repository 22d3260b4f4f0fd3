// Repositories as GraphQL objects (Repository, Ref, RepositoryTopic): the row, the caller's access as resolved by the
// repos area (resolveRepository: private repositories exist only for those who may read them), the REST URLs, the git
// refs (isEmpty, defaultBranchRef) and migration locks when asked. What hublet keeps none of (issues, pull requests,
// labels, releases, licenses, stars, watchers, the list of forks…) answers GitHub's empty value: null, false, [] or an empty connection.
import { refState } from '../repos/reads.js';
import type { ResolvedRepository } from '../repos/service.js';
import { mergeSettings, repositoryUrls } from '../repos/present.js';
import { nodeId } from '../core/urls.js';
import { isoUtc } from '../core/timestamps.js';
import { listConnection, type ConnectionArgs } from './connection.js';
import type { GraphqlContext } from './context.js';
import { languageObject } from './gists.js';

export interface RepositoryObject {
  __typename: 'Repository';
  resolved: ResolvedRepository;
}

const PERMISSION = { admin: 'ADMIN', write: 'WRITE', read: 'READ', none: null } as const;

/** A connection of something hublet has none of. */
const none = (args: ConnectionArgs) => listConnection([], args);

/** The method GitHub preselects for the viewer: the first the repository allows, in GitHub's order. */
function defaultMergeMethod(s: { allow_merge_commit: boolean; allow_squash_merge: boolean; allow_rebase_merge: boolean }) {
  if (s.allow_merge_commit || !(s.allow_squash_merge || s.allow_rebase_merge)) return 'MERGE';
  return s.allow_squash_merge ? 'SQUASH' : 'REBASE';
}

export function repositoryObject(resolved: ResolvedRepository, g: Pick<GraphqlContext, 'ctx' | 'locked'>): RepositoryObject {
  const { repo, owner, access } = resolved;
  let refs: ReturnType<typeof refState> | undefined;
  const gitState = () => {
    refs ??= refState(g.ctx, repo);
    return refs;
  };
  const viewerEmail = g.ctx.actor?.user.email ?? null;
  const defaultBranchRef = {
    id: nodeId('Ref', `${repo.id}:refs/heads/${repo.default_branch}`),
    name: repo.default_branch,
    prefix: 'refs/heads/',
  };
  const u = repositoryUrls(g.ctx.urls, owner.login, repo.name);
  const settings = mergeSettings(repo);
  const path = `/${owner.login}/${repo.name}`;
  const topics = (JSON.parse(repo.topics) as string[]).map((name) => ({
    id: nodeId('RepositoryTopic', `${repo.id}:${name}`),
    topic: { id: nodeId('Topic', name), name },
    url: g.ctx.urls.html(`/topics/${name}`),
    resourcePath: `/topics/${name}`,
  }));
  return {
    __typename: 'Repository',
    resolved,
    id: nodeId('Repository', repo.id),
    databaseId: repo.id,
    name: repo.name,
    nameWithOwner: `${owner.login}/${repo.name}`,
    description: repo.description,
    homepageUrl: repo.homepage || null,
    url: u.html_url,
    sshUrl: u.ssh_url,
    resourcePath: path,
    mirrorUrl: null,
    createdAt: isoUtc(repo.created_at),
    updatedAt: isoUtc(repo.updated_at),
    pushedAt: isoUtc(repo.pushed_at),
    isPrivate: repo.visibility !== 'public',
    visibility: repo.visibility === 'public' ? 'PUBLIC' : 'PRIVATE',
    isArchived: Boolean(repo.archived),
    isDisabled: false,
    isEmpty: async () => (await gitState()).empty,
    isLocked: () => g.locked.add(repo.id),
    lockReason: async () => ((await g.locked.add(repo.id)) ? 'MIGRATING' : null),
    // A user's repository named after the user holds their profile README.
    isUserConfigurationRepository: owner.type === 'User' && repo.name_lower === owner.login_lower,
    // A fork's parent is a link (links.ts); hublet has no mirrors or templates made from others.
    isFork: repo.parent_id !== null,
    isMirror: false,
    templateRepository: null,
    forks: none,
    isInOrganization: owner.type === 'Organization',
    isTemplate: Boolean(repo.is_template),
    hasIssuesEnabled: Boolean(repo.has_issues),
    hasProjectsEnabled: Boolean(repo.has_projects),
    hasWikiEnabled: Boolean(repo.has_wiki),
    hasDiscussionsEnabled: Boolean(repo.has_discussions),
    forkingAllowed: Boolean(repo.allow_forking),
    webCommitSignoffRequired: Boolean(repo.web_commit_signoff_required),
    mergeCommitAllowed: settings.allow_merge_commit,
    squashMergeAllowed: settings.allow_squash_merge,
    rebaseMergeAllowed: settings.allow_rebase_merge,
    autoMergeAllowed: settings.allow_auto_merge,
    deleteBranchOnMerge: settings.delete_branch_on_merge,
    diskUsage: repo.size_kb,
    forkCount: repo.forks_count,
    stargazerCount: 0,
    viewerHasStarred: false,
    watchers: none,
    viewerSubscription: 'UNSUBSCRIBED',
    viewerPermission: PERMISSION[access],
    viewerCanAdminister: access === 'admin',
    viewerDefaultMergeMethod: defaultMergeMethod(settings),
    viewerDefaultCommitEmail: viewerEmail,
    viewerPossibleCommitEmails: viewerEmail ? [viewerEmail] : [],
    // As on GitHub, an empty repository (or one whose default branch is gone) has no default branch ref.
    defaultBranchRef: async () => ((await gitState()).defaultBranchExists ? defaultBranchRef : null),
    primaryLanguage: repo.language ? languageObject(repo.language) : null,
    // hublet measures no per-language sizes: the primary language is all it knows.
    languages: (args: ConnectionArgs) => ({ ...none(args), totalSize: 0 }),
    repositoryTopics: (args: ConnectionArgs) => listConnection(topics, args),
    openGraphImageUrl: g.ctx.urls.html(`/avatars/${owner.login}`),
    usesCustomOpenGraphImage: false,
    // No issues, pull requests, labels, milestones, projects, releases, license detection or community files.
    issues: none,
    pullRequests: none,
    labels: none,
    milestones: none,
    projects: none,
    assignableUsers: none,
    mentionableUsers: none,
    latestRelease: null,
    licenseInfo: null,
    codeOfConduct: null,
    securityPolicyUrl: null,
    isSecurityPolicyEnabled: false,
    isBlankIssuesEnabled: true,
    issueTemplates: [],
    pullRequestTemplates: [],
    contactLinks: [],
    fundingLinks: [],
  } as RepositoryObject;
}
