// The only place that shapes gists, their files, history entries, forks and comments as JSON (list vs single form).
import { publicUser, simpleUser, type AccountCounts } from '../accounts/present.js';
import type { UserRow } from '../db/schema.js';
import { nodeId, type Urls } from '../core/urls.js';
import { isoUtc } from '../core/timestamps.js';
import type { GistCommentRow, GistRevisionRow, GistRow } from '../db/tables/gists.js';

/** Content returned per file in a single gist; the raw URL serves the rest. */
const CONTENT_LIMIT_BYTES = 1024 * 1024;
/** Files returned per gist; the rest need a clone. */
const FILES_LIMIT = 300;

/** `application/vnd.service.raw+json` (the default) or `application/vnd.service.base64+json`. */
export type GistMedia = 'raw' | 'base64';

export function gistMedia(param: string | undefined): GistMedia {
  return param === 'base64' ? 'base64' : 'raw';
}

export interface FileView {
  filename: string;
  size: number;
  blob_sha: string;
  language: string | null;
  type: string;
}

export interface FileWithContent extends FileView {
  content: Buffer;
}

/** Where git clones and pushes a gist, and where a person would look at it (GitHub Enterprise's single-host layout). */
function gitUrl(urls: Urls, id: string): string {
  return urls.html(`/gist/${id}.git`);
}

function rawUrl(urls: Urls, owner: string, gistId: string, blobSha: string, filename: string): string {
  return urls.html(`/gist/${encodeURIComponent(owner)}/${gistId}/raw/${blobSha}/${encodeURIComponent(filename)}`);
}

function listFile(f: FileView, owner: UserRow, gistId: string, urls: Urls) {
  return {
    filename: f.filename,
    type: f.type,
    language: f.language,
    raw_url: rawUrl(urls, owner.login, gistId, f.blob_sha, f.filename),
    size: f.size,
  };
}

/** The first `limit` bytes of UTF-8 text, never splitting a character. */
function utf8Prefix(bytes: Buffer, limit: number): Buffer {
  if (bytes.length <= limit) return bytes;
  let end = limit;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

function fullFile(f: FileWithContent, owner: UserRow, gistId: string, urls: Urls, media: GistMedia) {
  const truncated = f.content.length > CONTENT_LIMIT_BYTES;
  const content =
    media === 'base64'
      ? f.content.subarray(0, CONTENT_LIMIT_BYTES).toString('base64')
      : utf8Prefix(f.content, CONTENT_LIMIT_BYTES).toString('utf8');
  return { ...listFile(f, owner, gistId, urls), truncated, content, encoding: media === 'base64' ? 'base64' : 'utf-8' };
}

/**
 * The `files` object keyed by file name. Without a prototype: a file may be named `__proto__` (assigning that key on a
 * plain object would set its prototype and drop the file) or `constructor`; JSON.stringify emits own keys alone.
 */
function fileMap<F extends { filename: string }, T>(files: F[], shape: (f: F) => T): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const f of files.slice(0, FILES_LIMIT)) out[f.filename] = shape(f);
  return out;
}

/**
 * The user objects of one response (owners of list items, authors of history entries), built once per user row: a page
 * of 100 gists or a long history mostly repeats a few users (the rows of one read are shared per id).
 */
class UserObjects {
  private readonly built = new Map<UserRow, ReturnType<typeof simpleUser>>();
  constructor(private readonly urls: Urls) {}

  of(user: UserRow): ReturnType<typeof simpleUser> {
    let json = this.built.get(user);
    if (!json) {
      json = simpleUser(user, this.urls);
      this.built.set(user, json);
    }
    return json;
  }
}

/** A page of gists in list form (one user object per owner). */
export function gistListItems(items: readonly { gist: GistRow; owner: UserRow; files: FileView[] }[], urls: Urls) {
  const users = new UserObjects(urls);
  return items.map((v) => gistListItem(v.gist, v.owner, v.files, urls, users));
}

/** A gist in list form: files carry only filename, type, language, raw_url and size. */
function gistListItem(gist: GistRow, owner: UserRow, files: FileView[], urls: Urls, users: UserObjects) {
  // One literal in the response's key order (the fields of `links` first), not a spread: a page builds 100 of these,
  // and spreading made each a slow dictionary-mode object (node --cpu-prof of GET /gists/public).
  const id = gist.id;
  const url = urls.api(`/gists/${id}`);
  const git = gitUrl(urls, id);
  return {
    url,
    forks_url: `${url}/forks`,
    commits_url: `${url}/commits`,
    id,
    node_id: nodeId('Gist', id),
    git_pull_url: git,
    git_push_url: git,
    html_url: urls.html(`/gist/${id}`),
    files: fileMap(files, (f) => listFile(f, owner, id, urls)),
    public: Boolean(gist.public),
    created_at: isoUtc(gist.created_at),
    updated_at: isoUtc(gist.updated_at),
    description: gist.description,
    comments: gist.comments,
    user: null,
    comments_url: `${url}/comments`,
    owner: users.of(owner),
    truncated: files.length > FILES_LIMIT,
  };
}

export interface HistoryView {
  revision: GistRevisionRow;
  user: UserRow | null;
}

function changeStatus(r: GistRevisionRow) {
  return { total: r.total, additions: r.additions, deletions: r.deletions };
}

/** An entry of a single gist's `history`. */
function historyEntry(h: HistoryView, gistId: string, urls: Urls, users: UserObjects) {
  return {
    user: h.user ? users.of(h.user) : null,
    version: h.revision.version,
    committed_at: isoUtc(h.revision.committed_at),
    change_status: changeStatus(h.revision),
    url: urls.api(`/gists/${gistId}/${h.revision.version}`),
  };
}

/** A page of `GET /gists/{gist_id}/commits`. */
export function commitItems(items: readonly HistoryView[], gistId: string, urls: Urls) {
  const users = new UserObjects(urls);
  return items.map((h) => commitItem(h, gistId, urls, users));
}

function commitItem(h: HistoryView, gistId: string, urls: Urls, users: UserObjects) {
  return {
    url: urls.api(`/gists/${gistId}/${h.revision.version}`),
    version: h.revision.version,
    user: h.user ? users.of(h.user) : null,
    change_status: changeStatus(h.revision),
    committed_at: isoUtc(h.revision.committed_at),
  };
}

export interface ForkView {
  gist: GistRow;
  owner: UserRow;
  counts: AccountCounts;
}

/** An entry of a single gist's `forks`. */
function forkEntry(f: ForkView, urls: Urls) {
  return {
    url: urls.api(`/gists/${f.gist.id}`),
    user: publicUser(f.owner, urls, f.counts),
    id: f.gist.id,
    created_at: isoUtc(f.gist.created_at),
    updated_at: isoUtc(f.gist.updated_at),
  };
}

export interface SingleGist {
  gist: GistRow;
  owner: UserRow;
  files: FileWithContent[];
  history: HistoryView[];
  forks: ForkView[];
  /** The parent in list form, for forks whose parent still exists. */
  forkOf?: { gist: GistRow; owner: UserRow; files: FileView[] } | null;
}

/** A gist in single form: file contents (cut at 1 MiB), history, forks, comments_enabled, and fork_of on forks. */
export function gistSingle(s: SingleGist, urls: Urls, media: GistMedia) {
  const users = new UserObjects(urls);
  const base = gistListItem(s.gist, s.owner, s.files, urls, users);
  return {
    ...base,
    files: fileMap(s.files, (f) => fullFile(f, s.owner, s.gist.id, urls, media)),
    comments_enabled: true,
    ...(s.forkOf ? { fork_of: gistListItem(s.forkOf.gist, s.forkOf.owner, s.forkOf.files, urls, users) } : {}),
    forks: s.forks.map((f) => forkEntry(f, urls)),
    history: s.history.map((h) => historyEntry(h, s.gist.id, urls, users)),
    truncated: base.truncated,
  };
}

/** GitHub's author_association for a gist comment: the gist's owner, or nobody in particular. */
export function gistComment(c: GistCommentRow, author: UserRow, gist: GistRow, urls: Urls) {
  return {
    url: urls.api(`/gists/${gist.id}/comments/${c.id}`),
    id: c.id,
    node_id: nodeId('GistComment', c.id),
    user: simpleUser(author, urls),
    author_association: author.id === gist.owner_id ? 'OWNER' : 'NONE',
    body: c.body,
    created_at: isoUtc(c.created_at),
    updated_at: isoUtc(c.updated_at),
  };
}
