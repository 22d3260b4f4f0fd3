// Types of things hublet keeps none of (issues, pull requests, labels, milestones, projects, releases, licenses, codes
// of conduct, issue and pull-request templates, funding and contact links): their fields exist, with GitHub's names, so
// that gh's `repo view --json` / `repo list --json` queries validate, and a repository answers GitHub's empty value for
// them (null, [], an empty connection). Each type carries the fields GitHub's clients commonly read.
const PAGE = `
  pageInfo: PageInfo!
  totalCount: Int!`;

/** A connection type and its edge type over `node`, as GitHub shapes them. */
function connectionOf(node: string): string {
  return `
"""The connection type for ${node}."""
type ${node}Connection {
  edges: [${node}Edge]
  nodes: [${node}]${PAGE}
}

"""An edge in a connection."""
type ${node}Edge {
  cursor: String!
  node: ${node}
}
`;
}

export const ABSENT_SDL = /* GraphQL */ `
"""The possible states of an issue."""
enum IssueState {
  CLOSED
  OPEN
}

"""An Issue is a place to discuss ideas, enhancements, tasks, and bugs for a project."""
type Issue implements Node & UniformResourceLocatable {
  body: String!
  closed: Boolean!
  createdAt: DateTime!
  id: ID!
  number: Int!
  resourcePath: URI!
  state: IssueState!
  title: String!
  updatedAt: DateTime!
  url: URI!
}
${connectionOf('Issue')}
"""The possible states of a pull request."""
enum PullRequestState {
  CLOSED
  MERGED
  OPEN
}

"""A repository pull request."""
type PullRequest implements Node & UniformResourceLocatable {
  body: String!
  closed: Boolean!
  createdAt: DateTime!
  id: ID!
  merged: Boolean!
  number: Int!
  resourcePath: URI!
  state: PullRequestState!
  title: String!
  updatedAt: DateTime!
  url: URI!
}
${connectionOf('PullRequest')}
"""A label for categorizing Issues, Pull Requests, Milestones, or Discussions with a given Repository."""
type Label implements Node {
  color: String!
  createdAt: DateTime
  description: String
  id: ID!
  isDefault: Boolean!
  name: String!
  resourcePath: URI!
  updatedAt: DateTime
  url: URI!
}
${connectionOf('Label')}
"""The possible states of a milestone."""
enum MilestoneState {
  CLOSED
  OPEN
}

"""Represents a Milestone object on a given repository."""
type Milestone implements Node & UniformResourceLocatable {
  closed: Boolean!
  createdAt: DateTime!
  description: String
  dueOn: DateTime
  id: ID!
  number: Int!
  resourcePath: URI!
  state: MilestoneState!
  title: String!
  updatedAt: DateTime!
  url: URI!
}
${connectionOf('Milestone')}
"""State of the project; either 'open' or 'closed'"""
enum ProjectState {
  CLOSED
  OPEN
}

"""Projects manage issues, pull requests and notes within a project owner."""
type Project implements Node {
  body: String
  closed: Boolean!
  createdAt: DateTime!
  id: ID!
  name: String!
  number: Int!
  resourcePath: URI!
  state: ProjectState!
  updatedAt: DateTime!
  url: URI!
}
${connectionOf('Project')}
"""A release contains the content for a release."""
type Release implements Node & UniformResourceLocatable {
  createdAt: DateTime!
  description: String
  id: ID!
  isDraft: Boolean!
  isLatest: Boolean!
  isPrerelease: Boolean!
  name: String
  publishedAt: DateTime
  resourcePath: URI!
  tagName: String!
  updatedAt: DateTime!
  url: URI!
}

"""A repository's open source license"""
type License implements Node {
  body: String!
  description: String
  id: ID!
  key: String!
  name: String!
  nickname: String
  spdxId: String
  url: URI
}

"""The Code of Conduct for a repository"""
type CodeOfConduct implements Node {
  body: String
  id: ID!
  key: String!
  name: String!
  resourcePath: URI
  url: URI
}

"""A repository issue template."""
type IssueTemplate {
  about: String
  body: String
  filename: String!
  name: String!
  title: String
}

"""A repository pull request template."""
type PullRequestTemplate {
  body: String
  filename: String
}

"""A repository contact link."""
type RepositoryContactLink {
  about: String!
  name: String!
  url: URI!
}

"""The possible funding platforms for repository funding links."""
enum FundingPlatform {
  BUY_ME_A_COFFEE
  COMMUNITY_BRIDGE
  CUSTOM
  GITHUB
  ISSUEHUNT
  KO_FI
  LFX_CROWDFUNDING
  LIBERAPAY
  OPEN_COLLECTIVE
  PATREON
  POLAR
  THANKS_DEV
  TIDELIFT
}

"""A funding platform link for a repository."""
type FundingLink {
  platform: FundingPlatform!
  url: URI!
}
`;
