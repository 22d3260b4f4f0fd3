// Request shapes of the repository routes (JSON schemas for Fastify) and the TypeScript types json-schema-to-ts derives from them.
import type { FromSchema } from 'json-schema-to-ts';
import { pagingQuery } from '../http/pagination.js';
import { pathParams, repoParams } from '../http/route-params.js';

const text = { type: ['string', 'null'] } as const;
const bool = { type: 'boolean' } as const;

/** The settings create and update share (GitHub's names); unknown fields are ignored, as GitHub does. */
const settingsProperties = {
  description: text,
  homepage: text,
  private: bool,
  visibility: { type: 'string', enum: ['public', 'private', 'internal'] },
  has_issues: bool,
  has_projects: bool,
  has_wiki: bool,
  has_downloads: bool,
  has_discussions: bool,
  is_template: bool,
  allow_forking: bool,
  web_commit_signoff_required: bool,
  allow_squash_merge: bool,
  allow_merge_commit: bool,
  allow_rebase_merge: bool,
  allow_auto_merge: bool,
  delete_branch_on_merge: bool,
  allow_update_branch: bool,
  use_squash_pr_title_as_default: bool,
  squash_merge_commit_title: { type: 'string', enum: ['PR_TITLE', 'COMMIT_OR_PR_TITLE'] },
  squash_merge_commit_message: { type: 'string', enum: ['PR_BODY', 'COMMIT_MESSAGES', 'BLANK'] },
  merge_commit_title: { type: 'string', enum: ['PR_TITLE', 'MERGE_MESSAGE'] },
  merge_commit_message: { type: 'string', enum: ['PR_BODY', 'PR_TITLE', 'BLANK'] },
} as const;

/** POST /user/repos and POST /orgs/{org}/repos. */
export const createBody = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    ...settingsProperties,
    auto_init: bool,
    gitignore_template: { type: 'string' },
    license_template: { type: 'string' },
    team_id: { type: 'integer' },
  },
} as const;

/** PATCH /repos/{owner}/{repo}. */
export const updateBody = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    ...settingsProperties,
    default_branch: { type: 'string' },
    archived: bool,
    security_and_analysis: { type: ['object', 'null'] },
  },
} as const;

/** POST /admin/repos/import; `path` is an absolute path on the server's machine (a bare repository or a working copy). */
export const importBody = {
  type: 'object',
  required: ['owner', 'name', 'path'],
  properties: { owner: { type: 'string' }, name: { type: 'string' }, path: { type: 'string' }, private: bool, description: text },
} as const;

/** POST /repos/{owner}/{repo}/transfer (GitHub's body; `team_ids` is accepted and not used: hublet has no teams). */
export const transferBody = {
  type: 'object',
  required: ['new_owner'],
  properties: { new_owner: { type: 'string' }, new_name: { type: 'string' }, team_ids: { type: 'array', items: { type: 'integer' } } },
} as const;

/** POST /repos/{owner}/{repo}/forks (the body is optional: an absent one forks into the caller's account). */
export const forkBody = {
  type: 'object',
  properties: { organization: { type: 'string' }, name: { type: 'string' }, default_branch_only: bool },
} as const;

/** GET /repos/{owner}/{repo}/forks. */
export const forksQuery = {
  type: 'object',
  properties: { ...pagingQuery, sort: { type: 'string', enum: ['newest', 'oldest', 'stargazers', 'watchers'] } },
} as const;

/** PUT /repos/{owner}/{repo}/topics: the names replace all the repository's topics. */
export const topicsBody = {
  type: 'object',
  required: ['names'],
  properties: { names: { type: 'array', items: { type: 'string' } } },
} as const;

// The path parameters are the pipeline's shared schemas (http/route-params.ts), under the names the routes use.
export { orgParams, userParams } from '../http/route-params.js';
/** `/repos/{owner}/{repo}…` */
export const ownerRepo = repoParams;
/** `/repositories/{id}` */
export const idParams = pathParams('id');

const sortProperties = {
  sort: { type: 'string', enum: ['created', 'updated', 'pushed', 'full_name'] },
  direction: { type: 'string', enum: ['asc', 'desc'] },
} as const;
const sortQuery = { type: 'object', properties: sortProperties } as const;

/** GET /user/repos. */
export const userReposQuery = {
  type: 'object',
  properties: {
    ...pagingQuery,
    ...sortProperties,
    visibility: { type: 'string', enum: ['all', 'public', 'private'] },
    affiliation: { type: 'string' },
    type: { type: 'string', enum: ['all', 'owner', 'public', 'private', 'member'] },
    since: { type: 'string' },
    before: { type: 'string' },
  },
} as const;

/** GET /orgs/{org}/repos. */
export const orgReposQuery = {
  type: 'object',
  properties: {
    ...pagingQuery,
    ...sortProperties,
    type: { type: 'string', enum: ['all', 'public', 'private', 'forks', 'sources', 'member'] },
  },
} as const;

/** GET /users/{username}/repos. */
export const userReposForQuery = {
  type: 'object',
  properties: { ...pagingQuery, ...sortProperties, type: { type: 'string', enum: ['all', 'owner', 'member'] } },
} as const;

/** GET /repositories: `since` is a repository id (read leniently, as GitHub does). */
export const publicReposQuery = { type: 'object', properties: { since: { type: 'string' } } } as const;

/** A create body as its schema admits it. */
export type CreateBody = FromSchema<typeof createBody>;
/** An update body as its schema admits it. */
export type UpdateBody = FromSchema<typeof updateBody>;
/** What create and update both read: the shared settings (and `name`, required only on create). */
export type RepositoryInput = CreateBody | UpdateBody;
export type ImportBody = FromSchema<typeof importBody>;
export type ForkBody = FromSchema<typeof forkBody>;
export type SortOptions = FromSchema<typeof sortQuery>;
export type UserReposQuery = FromSchema<typeof userReposQuery>;
export type OrgReposQuery = FromSchema<typeof orgReposQuery>;
export type UserReposForQuery = FromSchema<typeof userReposForQuery>;
