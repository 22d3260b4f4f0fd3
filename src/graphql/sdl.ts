// The GraphQL schema hublet serves: a subset of GitHub's public schema (docs.github.com/graphql), with GitHub's own type,
// field, argument and enum names, so GitHub's clients (gh first) validate and run their queries unchanged. What is not
// here does not exist (a query naming it fails validation, as on GitHub for an unknown field).
export const SDL = /* GraphQL */ `
"""An ISO-8601 encoded UTC date string."""
scalar DateTime
"""An RFC 3986, RFC 3987, and RFC 6570 (level 4) compliant URI string."""
scalar URI
"""Git SSH string"""
scalar GitSSHRemote

"""An object with an ID."""
interface Node {
  id: ID!
}

"""Represents a type that can be retrieved by a URL."""
interface UniformResourceLocatable {
  resourcePath: URI!
  url: URI!
}

"""Represents an object which can take actions on GitHub. Typically a User or Bot."""
interface Actor {
  avatarUrl(size: Int): URI!
  login: String!
  resourcePath: URI!
  url: URI!
}

"""Represents an owner of a Repository."""
interface RepositoryOwner {
  avatarUrl(size: Int): URI!
  id: ID!
  login: String!
  repository(followRenames: Boolean = true, name: String!): Repository
  resourcePath: URI!
  url: URI!
}

"""Things that can be starred."""
interface Starrable {
  id: ID!
  stargazerCount: Int!
  viewerHasStarred: Boolean!
}

"""The query root of GitHub's GraphQL interface."""
type Query {
  node(id: ID!): Node
  nodes(ids: [ID!]!): [Node]!
  organization(login: String!): Organization
  rateLimit(dryRun: Boolean = false): RateLimit
  repository(followRenames: Boolean = true, name: String!, owner: String!): Repository
  repositoryOwner(login: String!): RepositoryOwner
  user(login: String!): User
  viewer: User!
}

"""Represents the client's rate limit."""
type RateLimit {
  cost: Int!
  limit: Int!
  nodeCount: Int!
  remaining: Int!
  resetAt: DateTime!
  used: Int!
}

"""Information about pagination in a connection."""
type PageInfo {
  endCursor: String
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
}

"""Possible directions in which to order a list of items when provided an orderBy argument."""
enum OrderDirection {
  ASC
  DESC
}

"""A user is an individual's account on GitHub that owns repositories and can make new content."""
type User implements Actor & Node & RepositoryOwner & UniformResourceLocatable {
  avatarUrl(size: Int): URI!
  bio: String
  company: String
  createdAt: DateTime!
  databaseId: Int
  email: String!
  gist(name: String!): Gist
  gists(after: String, before: String, first: Int, last: Int, orderBy: GistOrder = {field: CREATED_AT, direction: ASC}, privacy: GistPrivacy): GistConnection!
  id: ID!
  isSiteAdmin: Boolean!
  isViewer: Boolean!
  location: String
  login: String!
  name: String
  organization(login: String!): Organization
  organizations(after: String, before: String, first: Int, last: Int): OrganizationConnection!
  repository(followRenames: Boolean = true, name: String!): Repository
  resourcePath: URI!
  updatedAt: DateTime!
  url: URI!
  websiteUrl: URI
}

"""An account on GitHub, with one or more owners, that has repositories, members and teams."""
type Organization implements Actor & Node & RepositoryOwner & UniformResourceLocatable {
  avatarUrl(size: Int): URI!
  createdAt: DateTime!
  databaseId: Int
  description: String
  email: String
  id: ID!
  location: String
  login: String!
  name: String
  repository(followRenames: Boolean = true, name: String!): Repository
  resourcePath: URI!
  updatedAt: DateTime!
  url: URI!
  viewerCanAdminister: Boolean!
  viewerIsAMember: Boolean!
  websiteUrl: URI
}

"""A list of organizations managed by an enterprise."""
type OrganizationConnection {
  edges: [OrganizationEdge]
  nodes: [Organization]
  pageInfo: PageInfo!
  totalCount: Int!
}

"""An edge in a connection."""
type OrganizationEdge {
  cursor: String!
  node: Organization
}

"""The privacy of a Gist"""
enum GistPrivacy {
  ALL
  PUBLIC
  SECRET
}

"""Ordering options for gist connections"""
input GistOrder {
  direction: OrderDirection!
  field: GistOrderField!
}

"""Properties by which gist connections can be ordered."""
enum GistOrderField {
  CREATED_AT
  PUSHED_AT
  UPDATED_AT
}

"""A Gist."""
type Gist implements Node & Starrable & UniformResourceLocatable {
  createdAt: DateTime!
  description: String
  files(limit: Int = 10): [GistFile]
  id: ID!
  isFork: Boolean!
  isPublic: Boolean!
  name: String!
  owner: RepositoryOwner
  pushedAt: DateTime
  resourcePath: URI!
  stargazerCount: Int!
  updatedAt: DateTime!
  url: URI!
  viewerHasStarred: Boolean!
}

"""A file in a gist."""
type GistFile {
  encodedName: String
  encoding: String
  extension: String
  isImage: Boolean!
  isTruncated: Boolean!
  language: Language
  name: String
  size: Int
  text(truncate: Int): String
}

"""The connection type for Gist."""
type GistConnection {
  edges: [GistEdge]
  nodes: [Gist]
  pageInfo: PageInfo!
  totalCount: Int!
}

"""An edge in a connection."""
type GistEdge {
  cursor: String!
  node: Gist
}

"""Represents a given language found in repositories."""
type Language implements Node {
  color: String
  id: ID!
  name: String!
}

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

"""A repository contains the content for a project."""
type Repository implements Node & Starrable & UniformResourceLocatable {
  autoMergeAllowed: Boolean!
  createdAt: DateTime!
  databaseId: Int
  defaultBranchRef: Ref
  deleteBranchOnMerge: Boolean!
  description: String
  diskUsage: Int
  forkCount: Int!
  forkingAllowed: Boolean!
  hasDiscussionsEnabled: Boolean!
  hasIssuesEnabled: Boolean!
  hasProjectsEnabled: Boolean!
  hasWikiEnabled: Boolean!
  homepageUrl: URI
  id: ID!
  isArchived: Boolean!
  isDisabled: Boolean!
  isFork: Boolean!
  isInOrganization: Boolean!
  isMirror: Boolean!
  isPrivate: Boolean!
  isTemplate: Boolean!
  mergeCommitAllowed: Boolean!
  mirrorUrl: URI
  name: String!
  nameWithOwner: String!
  owner: RepositoryOwner!
  parent: Repository
  primaryLanguage: Language
  pushedAt: DateTime
  rebaseMergeAllowed: Boolean!
  repositoryTopics(after: String, before: String, first: Int, last: Int): RepositoryTopicConnection!
  resourcePath: URI!
  squashMergeAllowed: Boolean!
  sshUrl: GitSSHRemote!
  stargazerCount: Int!
  templateRepository: Repository
  updatedAt: DateTime!
  url: URI!
  viewerCanAdminister: Boolean!
  viewerHasStarred: Boolean!
  viewerPermission: RepositoryPermission
  visibility: RepositoryVisibility!
  webCommitSignoffRequired: Boolean!
}
`;
