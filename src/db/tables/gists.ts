// Table types of the gists area: gists, their current files, revisions (history), stars and comments.
import type { Generated, Selectable } from 'kysely';

export interface GistsTable {
  /** 32 lowercase hex characters. */
  id: string;
  owner_id: number;
  description: string;
  public: number;
  /** The gist this one was forked from (null when not a fork, or when the parent was deleted). */
  fork_of: string | null;
  /** The commit the gist's files are at: the newest revision's `version`. */
  head_sha: string;
  comments: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** The files of the current revision, with their bytes, for fast reads (the history lives in git). */
interface GistFilesTable {
  gist_id: string;
  filename: string;
  content: Buffer;
  size: number;
  blob_sha: string;
  language: string | null;
  type: string;
  /** 1 when the bytes are not valid UTF-8. */
  binary: number;
}

interface GistRevisionsTable {
  gist_id: string;
  /** The git commit SHA. */
  version: string;
  /** 0 for the first revision, counting up along the first-parent chain. */
  position: number;
  user_id: number | null;
  committed_at: string;
  additions: number;
  deletions: number;
  total: number;
}

interface GistStarsTable {
  gist_id: string;
  user_id: number;
  created_at: string;
}

interface GistCommentsTable {
  id: Generated<number>;
  gist_id: string;
  user_id: number;
  body: string;
  created_at: string;
  updated_at: string;
}

/** Which gist holds a user's copy of a gist of another server (`hublet gist import`). */
interface GistImportsTable {
  gist_id: string;
  user_id: number;
  /** The source gist's API URL. */
  source: string;
  /** The revision the import created before the source's history was pushed. */
  placeholder_sha: string;
  created_at: string;
}

/**
 * A gist's entry in the search index (gists/search-store.ts): `seq` is new with every write of a document (counting down
 * on SQLite, up on PostgreSQL); PostgreSQL keeps the words here (`document`, a tsvector), SQLite in its FTS5 table
 * `gist_search_fts` (rowid = seq).
 */
interface GistSearchTable {
  seq: Generated<number>;
  gist_id: string;
  /** PostgreSQL: every word; `title`, those of the description and file names (for scoring). */
  document?: string;
  title?: string;
}

export interface GistTables {
  gists: GistsTable;
  gist_files: GistFilesTable;
  gist_revisions: GistRevisionsTable;
  gist_stars: GistStarsTable;
  gist_comments: GistCommentsTable;
  gist_imports: GistImportsTable;
  gist_search: GistSearchTable;
}

export type GistRow = Selectable<GistsTable>;
export type GistFileRow = Selectable<GistFilesTable>;
export type GistRevisionRow = Selectable<GistRevisionsTable>;
export type GistCommentRow = Selectable<GistCommentsTable>;
export type GistImportRow = Selectable<GistImportsTable>;
