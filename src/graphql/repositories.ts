// Repositories as GraphQL objects (Repository, Ref, RepositoryTopic): the row, the caller's access as resolved by the
// repos area (resolveRepository: private repositories exist only for those who may read them), the REST URLs.
import type { ResolvedRepository } from '../repos/service.js';
import { mergeSettings, repositoryUrls } from '../repos/present.js';
import { isoUtc, nodeId } from '../server/http/urls.js';
import { listConnection, type ConnectionArgs } from './connection.js';
import type { GraphqlContext } from './context.js';
import { languageObject } from './gists.js';

export interface RepositoryObject {
  __typename: 'Repository';
  resolved: ResolvedRepository;
}

const PERMISSION = { admin: 'ADMIN', write: 'WRITE', read: 'READ', none: null } as const;

export function repositoryObject(resolved: ResolvedRepository, g: Pick<GraphqlContext, 'ctx'>): RepositoryObject {
  const { repo, owner, access } = resolved;
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
    // hublet has no repository forks or mirrors.
    isFork: false,
    isMirror: false,
    parent: null,
    templateRepository: null,
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
    forkCount: 0,
    stargazerCount: 0,
    viewerHasStarred: false,
    viewerPermission: PERMISSION[access],
    viewerCanAdminister: access === 'admin',
    defaultBranchRef: { id: nodeId('Ref', `${repo.id}:refs/heads/${repo.default_branch}`), name: repo.default_branch, prefix: 'refs/heads/' },
    primaryLanguage: repo.language ? languageObject(repo.language) : null,
    repositoryTopics: (args: ConnectionArgs) => listConnection(topics, args),
  } as RepositoryObject;
}
