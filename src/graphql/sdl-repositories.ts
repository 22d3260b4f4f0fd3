// The repository part of the schema (sdl.ts joins it in): Repository with every field gh's `repo view --json` and
// `repo list --json` can ask, accounts' `repositories` connection and its arguments, refs, topics, and the connection
// and node types of what hublet keeps none of (sdl-absent.ts). GitHub's names; arguments hublet does not honour are left
// out, so a query using them fails validation rather than being silently ignored.
const PAGE_ARGS = 'after: String, before: String, first: Int, last: Int';

/** The arguments of `repositories` on RepositoryOwner, User and Organization (an interface field's arguments must match). */
export const REPOSITORIES_FIELD = `repositories(${PAGE_ARGS}, isFork: Boolean, orderBy: RepositoryOrder, ownerAffiliations: [RepositoryAffiliation] = [OWNER, COLLABORATOR], privacy: RepositoryPrivacy, visibility: RepositoryVisibility): RepositoryConnection!`;

export const REPOSITORY_SDL = /* GraphQL */ `
"""The access level to a repository"""
enum RepositoryPermission {
  ADMIN
  MAINTAIN
  READ
  TRIAGE
  WRITE
}

"""The repository's visibility level."""
enum RepositoryVisibility {
  INTERNAL
  PRIVATE
  PUBLIC
}

"""The privacy of a repository"""
enum RepositoryPrivacy {
  PRIVATE
  PUBLIC
}

"""The affiliation of a user to a repository"""
enum RepositoryAffiliation {
  COLLABORATOR
  ORGANIZATION_MEMBER
  OWNER
}

"""Ordering options for repository connections"""
input RepositoryOrder {
  direction: OrderDirection!
  field: RepositoryOrderField!
}

"""Properties by which repository connections can be ordered."""
enum RepositoryOrderField {
  CREATED_AT
  NAME
  PUSHED_AT
  STARGAZERS
  UPDATED_AT
}

"""A list of repositories owned by the subject."""
type RepositoryConnection {
  edges: [RepositoryEdge]
  nodes: [Repository]
  pageInfo: PageInfo!
  totalCount: Int!
}

"""An edge in a connection."""
type RepositoryEdge {
  cursor: String!
  node: Repository
}

"""The possible reasons a given repository could be in a locked state."""
enum RepositoryLockReason {
  BILLING
  MIGRATING
  MOVING
  RENAME
  TRADE_RESTRICTION
  TRANSFERRING_OWNERSHIP
}

"""The possible states of a subscription."""
enum SubscriptionState {
  IGNORED
  SUBSCRIBED
  UNSUBSCRIBED
}

"""Represents available types of methods to use when merging a pull request."""
enum PullRequestMergeMethod {
  MERGE
  REBASE
  SQUASH
}

"""Represents a Git reference."""
type Ref implements Node {
  id: ID!
  name: String!
  prefix: String!
}

"""A topic aggregates entities that are related to a subject."""
type Topic implements Node {
  id: ID!
  name: String!
}

"""A repository-topic connects a repository to a topic."""
type RepositoryTopic implements Node & UniformResourceLocatable {
  id: ID!
  resourcePath: URI!
  topic: Topic!
  url: URI!
}

"""The connection type for RepositoryTopic."""
type RepositoryTopicConnection {
  edges: [RepositoryTopicEdge]
  nodes: [RepositoryTopic]
  pageInfo: PageInfo!
  totalCount: Int!
}

"""An edge in a connection."""
type RepositoryTopicEdge {
  cursor: String!
  node: RepositoryTopic
}

"""The connection type for User."""
type UserConnection {
  edges: [UserEdge]
  nodes: [User]
  pageInfo: PageInfo!
  totalCount: Int!
}

"""Represents a user."""
type UserEdge {
  cursor: String!
  node: User
}

"""A list of languages associated with the parent."""
type LanguageConnection {
  edges: [LanguageEdge]
  nodes: [Language]
  pageInfo: PageInfo!
  totalCount: Int!
  totalSize: Int!
}

"""Represents the language of a repository."""
type LanguageEdge {
  cursor: String!
  node: Language!
  size: Int!
}

"""A repository contains the content for a project."""
type Repository implements Node & Starrable & UniformResourceLocatable {
  assignableUsers(${PAGE_ARGS}, query: String): UserConnection!
  autoMergeAllowed: Boolean!
  codeOfConduct: CodeOfConduct
  contactLinks: [RepositoryContactLink!]
  createdAt: DateTime!
  databaseId: Int
  defaultBranchRef: Ref
  deleteBranchOnMerge: Boolean!
  description: String
  diskUsage: Int
  forkCount: Int!
  forkingAllowed: Boolean!
  forks(${PAGE_ARGS}): RepositoryConnection!
  fundingLinks: [FundingLink!]!
  hasDiscussionsEnabled: Boolean!
  hasIssuesEnabled: Boolean!
  hasProjectsEnabled: Boolean!
  hasWikiEnabled: Boolean!
  homepageUrl: URI
  id: ID!
  isArchived: Boolean!
  isBlankIssuesEnabled: Boolean!
  isDisabled: Boolean!
  isEmpty: Boolean!
  isFork: Boolean!
  isInOrganization: Boolean!
  isLocked: Boolean!
  isMirror: Boolean!
  isPrivate: Boolean!
  isSecurityPolicyEnabled: Boolean
  isTemplate: Boolean!
  isUserConfigurationRepository: Boolean!
  issueTemplates: [IssueTemplate!]
  issues(${PAGE_ARGS}, states: [IssueState!]): IssueConnection!
  labels(${PAGE_ARGS}, query: String): LabelConnection
  languages(${PAGE_ARGS}): LanguageConnection
  latestRelease: Release
  licenseInfo: License
  lockReason: RepositoryLockReason
  mentionableUsers(${PAGE_ARGS}, query: String): UserConnection!
  mergeCommitAllowed: Boolean!
  milestones(${PAGE_ARGS}, query: String, states: [MilestoneState!]): MilestoneConnection
  mirrorUrl: URI
  name: String!
  nameWithOwner: String!
  openGraphImageUrl: URI!
  owner: RepositoryOwner!
  parent: Repository
  primaryLanguage: Language
  projects(${PAGE_ARGS}, search: String, states: [ProjectState!]): ProjectConnection!
  pullRequestTemplates: [PullRequestTemplate!]
  pullRequests(${PAGE_ARGS}, states: [PullRequestState!]): PullRequestConnection!
  pushedAt: DateTime
  rebaseMergeAllowed: Boolean!
  repositoryTopics(${PAGE_ARGS}): RepositoryTopicConnection!
  resourcePath: URI!
  securityPolicyUrl: URI
  squashMergeAllowed: Boolean!
  sshUrl: GitSSHRemote!
  stargazerCount: Int!
  templateRepository: Repository
  updatedAt: DateTime!
  url: URI!
  usesCustomOpenGraphImage: Boolean!
  viewerCanAdminister: Boolean!
  viewerDefaultCommitEmail: String
  viewerDefaultMergeMethod: PullRequestMergeMethod!
  viewerHasStarred: Boolean!
  viewerPermission: RepositoryPermission
  viewerPossibleCommitEmails: [String!]
  viewerSubscription: SubscriptionState
  visibility: RepositoryVisibility!
  watchers(${PAGE_ARGS}): UserConnection!
  webCommitSignoffRequired: Boolean!
}
`;
