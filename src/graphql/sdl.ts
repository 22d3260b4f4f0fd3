// The GraphQL schema hublet serves: a subset of GitHub's public schema (docs.github.com/graphql), with GitHub's own type,
// field, argument and enum names, so GitHub's clients (gh first) validate and run their queries unchanged. What is not
// here does not exist (a query naming it fails validation, as on GitHub for an unknown field). Repositories are in
// sdl-repositories.ts, the types of what hublet keeps none of (issues, releases, licenses…) in sdl-absent.ts.
import { ABSENT_SDL } from './sdl-absent.js';
import { REPOSITORIES_FIELD, REPOSITORY_SDL } from './sdl-repositories.js';

const CORE_SDL = /* GraphQL */ `
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
  ${REPOSITORIES_FIELD}
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
  ${REPOSITORIES_FIELD}
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
  ${REPOSITORIES_FIELD}
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
  comments(after: String, before: String, first: Int, last: Int): GistCommentConnection!
  createdAt: DateTime!
  description: String
  files(limit: Int = 10): [GistFile]
  forks(after: String, before: String, first: Int, last: Int): GistConnection!
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

"""Represents a comment on an Gist."""
type GistComment implements Node {
  author: Actor
  body: String!
  bodyText: String!
  createdAt: DateTime!
  databaseId: Int
  gist: Gist!
  id: ID!
  lastEditedAt: DateTime
  publishedAt: DateTime
  updatedAt: DateTime!
  viewerCanDelete: Boolean!
  viewerCanUpdate: Boolean!
  viewerDidAuthor: Boolean!
}

"""The connection type for GistComment."""
type GistCommentConnection {
  edges: [GistCommentEdge]
  nodes: [GistComment]
  pageInfo: PageInfo!
  totalCount: Int!
}

"""An edge in a connection."""
type GistCommentEdge {
  cursor: String!
  node: GistComment
}

"""Represents a given language found in repositories."""
type Language implements Node {
  color: String
  id: ID!
  name: String!
}
`;

export const SDL = CORE_SDL + REPOSITORY_SDL + ABSENT_SDL;
