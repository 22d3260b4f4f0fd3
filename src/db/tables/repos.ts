// Table types of repositories, their migration locks and the redirects renames leave behind.
import type { Generated, Selectable } from 'kysely';

export interface RepositoriesTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  name_lower: string;
  description: string | null;
  homepage: string | null;
  visibility: 'public' | 'private';
  default_branch: string;
  topics: Generated<string>;
  has_issues: Generated<number>;
  has_projects: Generated<number>;
  has_wiki: Generated<number>;
  has_downloads: Generated<number>;
  has_discussions: Generated<number>;
  is_template: Generated<number>;
  archived: Generated<number>;
  allow_forking: Generated<number>;
  web_commit_signoff_required: Generated<number>;
  /** JSON: allow_squash_merge, allow_merge_commit, … (the pull-request settings hublet stores but does not act on). */
  merge_settings: Generated<string>;
  /** Kilobytes of the bare repository on disk, measured after every change to its git data. */
  size_kb: Generated<number>;
  language: string | null;
  pushed_at: string;
  created_at: string;
  updated_at: string;
  /** A fork's parent (the repository it was forked from) and source (its network's root); null for a repository that is no fork. */
  parent_id: Generated<number | null>;
  source_id: Generated<number | null>;
  /** Direct forks, kept by the repos area's fork and delete transactions. */
  forks_count: Generated<number>;
}

interface RepositoryLocksTable {
  repository_id: number;
  migration_id: number;
  locked_at: string;
}

interface RepositoryRedirectsTable {
  owner_id: number;
  name_lower: string;
  repository_id: number;
  created_at: string;
}

export interface RepoTables {
  repositories: RepositoriesTable;
  repository_locks: RepositoryLocksTable;
  repository_redirects: RepositoryRedirectsTable;
}

export type RepositoryRow = Selectable<RepositoriesTable>;
