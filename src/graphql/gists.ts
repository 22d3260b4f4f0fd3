// Gists as GraphQL objects (Gist, GistFile, GistComment, Language): the gist row, its files' metadata (bytes loaded only
// when a file's `text` is asked), star counts and the caller's star through the request's batched lookups.
import type { UserRow } from '../db/schema.js';
import type { GistCommentRow, GistRow } from '../db/tables/gists.js';
import { filesWithContent, type GistFileMeta, fileMetas } from '../gists/store.js';
import { nodeId } from '../core/urls.js';
import { isoUtc } from '../core/timestamps.js';
import type { GraphqlContext } from './context.js';

/** What a Gist object is built from: list reads bring the owner and files' metadata along, single reads load them. */
export interface GistView {
  gist: GistRow;
  owner?: UserRow;
  files?: GistFileMeta[];
}

export interface GistObject {
  __typename: 'Gist';
  view: GistView;
}

/** The text a file's `text` answers at most (REST's `content` limit too): the rest needs the raw URL or a clone. */
const TEXT_LIMIT_BYTES = 1024 * 1024;
/** The most files `files(limit:)` answers (REST's limit per gist too). */
const FILES_LIMIT = 300;

export function languageObject(name: string) {
  return { __typename: 'Language', id: nodeId('Language', name), name, color: null };
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
}

/** The first `limit` bytes of UTF-8 text, never splitting a character. */
function utf8Prefix(bytes: Buffer, limit: number): string {
  if (bytes.length <= limit) return bytes.toString('utf8');
  let end = limit;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

function fileObject(meta: GistFileMeta, content: () => Promise<Buffer | undefined>) {
  const binary = Boolean(meta.binary);
  return {
    name: meta.filename,
    encodedName: encodeURIComponent(meta.filename),
    extension: extensionOf(meta.filename),
    encoding: binary ? 'ASCII-8BIT' : 'UTF-8',
    language: meta.language ? languageObject(meta.language) : null,
    size: meta.size,
    isImage: meta.type.startsWith('image/'),
    isTruncated: meta.size > TEXT_LIMIT_BYTES,
    text: async ({ truncate }: { truncate?: number | null }) => {
      if (binary) return null;
      const bytes = await content();
      if (!bytes) return null;
      const text = utf8Prefix(bytes, TEXT_LIMIT_BYTES);
      return truncate != null && truncate >= 0 ? text.slice(0, truncate) : text;
    },
  };
}

export function gistObject(view: GistView, g: GistContextPart): GistObject {
  const { gist } = view;
  const urls = g.ctx.urls;
  let contents: Promise<Map<string, Buffer>> | undefined;
  const contentOf = (name: string) => {
    contents ??= filesWithContent(g.ctx.db, gist.id).then((rows) => new Map(rows.map((r) => [r.filename, r.content])));
    return contents.then((m) => m.get(name));
  };
  return {
    __typename: 'Gist',
    view,
    id: nodeId('Gist', gist.id),
    name: gist.id,
    description: gist.description,
    isPublic: Boolean(gist.public),
    isFork: gist.fork_of !== null,
    createdAt: isoUtc(gist.created_at),
    updatedAt: isoUtc(gist.updated_at),
    // hublet records no push time apart from the update time.
    pushedAt: isoUtc(gist.updated_at),
    url: urls.html(`/gist/${gist.id}`),
    resourcePath: `/gist/${gist.id}`,
    stargazerCount: () => g.stars.add(gist.id),
    viewerHasStarred: () => g.starred.add(gist.id),
    files: async ({ limit }: { limit?: number | null }) => {
      const n = Math.max(0, Math.min(limit ?? 10, FILES_LIMIT));
      const metas = view.files ?? (await fileMetas(g.ctx.db, [gist.id])).get(gist.id) ?? [];
      return metas.slice(0, n).map((m) => fileObject(m, () => contentOf(m.filename)));
    },
  } as GistObject;
}

type GistContextPart = Pick<GraphqlContext, 'ctx' | 'stars' | 'starred'>;

/**
 * A comment on a gist the caller can see; `author` is the account object of its writer. Its author may edit it, its
 * author and the gist's owner may delete it (the REST rule, gists/comments.ts).
 */
export function gistCommentObject(row: GistCommentRow, author: unknown, gist: GistObject, g: Pick<GraphqlContext, 'ctx'>) {
  const viewer = g.ctx.actor?.user.id;
  const edited = row.updated_at !== row.created_at;
  return {
    __typename: 'GistComment',
    id: nodeId('GistComment', row.id),
    databaseId: row.id,
    body: row.body,
    bodyText: row.body,
    author,
    gist,
    createdAt: isoUtc(row.created_at),
    publishedAt: isoUtc(row.created_at),
    updatedAt: isoUtc(row.updated_at),
    lastEditedAt: edited ? isoUtc(row.updated_at) : null,
    viewerDidAuthor: viewer === row.user_id,
    viewerCanUpdate: viewer === row.user_id,
    viewerCanDelete: viewer === row.user_id || viewer === gist.view.gist.owner_id,
  };
}
