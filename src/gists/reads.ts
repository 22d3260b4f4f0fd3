// Gist reads: the single form (files, history, forks, parent), a past revision, and every list with its visibility rules.
import { accountsByIds } from '../accounts/store.js';
import { requireActor } from '../core/grants.js';
import { accountsCounts } from '../accounts/counts.js';
import { requireAnyAccount } from '../accounts/service.js';
import type { UserRow } from '../db/schema.js';
import type { ServiceContext } from '../core/context.js';
import { NotFound, Unprocessable, ValidationFailed } from '../core/errors.js';
import type { Paging } from '../http/pagination.js';
import { gistRepoDir, readBlob, readTreeEntries } from './git.js';
import type { FileView, FileWithContent, ForkView, HistoryView, SingleGist } from './present.js';
import { requireGist } from './service.js';
import {
  allForks,
  countRevisions,
  fileMetas,
  filesWithContent,
  findGist,
  findRevision,
  listGists,
  listRevisions,
  type GistFileMeta,
  type GistFilter,
} from './store.js';
import type { GistRevisionRow, GistRow } from '../db/tables/gists.js';
import { fileRow } from './write.js';

/** Whether a file's bytes are binary (not UTF-8 text, or holding a NUL): the rule the raw route's type and `binary` follow. */
export { isBinary } from './language.js';

/** How deep `GET /gists/public` (and anonymous `GET /gists`) may page, as GitHub limits it. */
const PUBLIC_LISTING_DEPTH = 3000;
const PAGINATION_LIMITED =
  'In order to keep the API fast for everyone, pagination is limited for this resource. Check the rel=last link relation in the Link response header to see how far back you can traverse.';

async function historyViews(ctx: ServiceContext, revisions: GistRevisionRow[]): Promise<HistoryView[]> {
  const users = await accountsByIds(
    ctx.db,
    revisions.map((r) => r.user_id).filter((u): u is number => u !== null),
  );
  return revisions.map((revision) => ({ revision, user: revision.user_id === null ? null : (users.get(revision.user_id) ?? null) }));
}

/** The forks with their owners and the owners' profile counts: a constant number of queries however many forks. */
async function forkViews(ctx: ServiceContext, forks: GistRow[]): Promise<ForkView[]> {
  const owners = await accountsByIds(
    ctx.db,
    forks.map((f) => f.owner_id),
  );
  const counts = await accountsCounts(ctx, [...owners.values()], false);
  return forks.map((gist) => ({ gist, owner: owners.get(gist.owner_id)!, counts: counts.get(gist.owner_id)! }));
}

async function ownerOf(ctx: ServiceContext, gist: GistRow): Promise<UserRow> {
  return (await accountsByIds(ctx.db, [gist.owner_id])).get(gist.owner_id)!;
}

async function parentView(ctx: ServiceContext, gist: GistRow): Promise<SingleGist['forkOf']> {
  if (!gist.fork_of) return null;
  const parent = await findGist(ctx.db, gist.fork_of);
  if (!parent) return null;
  const files = (await fileMetas(ctx.db, [parent.id])).get(parent.id) ?? [];
  return { gist: parent, owner: await ownerOf(ctx, parent), files };
}

/**
 * Everything the single form shows: files with bytes, full history, forks and the parent. The hot read: the owner is
 * fetched beside files, history and forks (one round of parallel queries), and the history's authors are looked up
 * only when someone other than the owner wrote a revision.
 */
export async function singleView(
  ctx: ServiceContext,
  gist: GistRow,
  known: { files?: FileWithContent[]; owner?: UserRow } = {},
): Promise<SingleGist> {
  const [files, revisions, forks, users] = await Promise.all([
    known.files ?? filesWithContent(ctx.db, gist.id),
    listRevisions(ctx.db, gist.id),
    allForks(ctx.db, gist.id),
    known.owner ? new Map([[known.owner.id, known.owner]]) : accountsByIds(ctx.db, [gist.owner_id]),
  ]);
  const others = revisions.map((r) => r.user_id).filter((u): u is number => u !== null && !users.has(u));
  if (others.length) for (const [id, user] of await accountsByIds(ctx.db, others)) users.set(id, user);
  return {
    gist,
    owner: users.get(gist.owner_id)!,
    files,
    history: revisions.map((revision) => ({ revision, user: revision.user_id === null ? null : (users.get(revision.user_id) ?? null) })),
    forks: forks.length ? await forkViews(ctx, forks) : [],
    forkOf: gist.fork_of ? await parentView(ctx, gist) : null,
  };
}

/** A gist's files as they were at one of its revisions (a commit SHA of its history), read from git, in name order. */
export async function filesAtRevision(ctx: ServiceContext, gist: GistRow, version: string): Promise<FileWithContent[]> {
  const dir = gistRepoDir(ctx.config, gist.id);
  const cache = {};
  const files: FileWithContent[] = [];
  for (const e of await readTreeEntries(dir, version, cache)) {
    const content = await readBlob(dir, e.oid, cache);
    if (content) files.push(await fileRow(gist.id, e.filename, content, e.oid));
  }
  return files;
}

/** The gist as it was at one revision: that commit's files (read from git) and the history up to it. */
export async function revisionView(ctx: ServiceContext, id: string, sha: string): Promise<SingleGist> {
  const gist = await requireGist(ctx, id);
  if (!/^[0-9a-f]{4,40}$/i.test(sha)) {
    throw new ValidationFailed([
      { resource: 'Gist', field: 'sha', code: 'invalid', message: 'sha must be a commit SHA (4 to 40 hex digits)' },
    ]);
  }
  const revision = await findRevision(ctx.db, gist.id, sha);
  if (!revision) throw new NotFound();
  const files = await filesAtRevision(ctx, gist, revision.version);
  const view = await singleView(ctx, gist);
  const history = await historyViews(ctx, await listRevisions(ctx.db, gist.id, undefined, revision.position));
  return { ...view, files, history };
}

export interface ListView {
  gist: GistRow;
  owner: UserRow;
  files: FileView[];
}

export interface ListPage {
  items: ListView[];
  total: number;
}

/** Gists in list form: each with its owner and its files' metadata (GET /gists, the lists, search results). */
export async function listViews(ctx: ServiceContext, rows: GistRow[]): Promise<ListView[]> {
  const [owners, files] = await Promise.all([
    accountsByIds(
      ctx.db,
      rows.map((r) => r.owner_id),
    ),
    fileMetas(
      ctx.db,
      rows.map((r) => r.id),
    ),
  ]);
  return rows.map((gist) => ({ gist, owner: owners.get(gist.owner_id)!, files: (files.get(gist.id) ?? []) as GistFileMeta[] }));
}

async function page(ctx: ServiceContext, filter: GistFilter, paging: Paging, order: 'updated' | 'created' = 'updated'): Promise<ListPage> {
  const { rows, total } = await listGists(ctx.db, filter, { offset: paging.offset, limit: paging.perPage }, order);
  return { items: await listViews(ctx, rows), total };
}

/** Public gists, newest updated first, at most PUBLIC_LISTING_DEPTH deep (deeper pages: 422). */
export async function listPublic(ctx: ServiceContext, paging: Paging, since?: string): Promise<ListPage> {
  if (paging.offset >= PUBLIC_LISTING_DEPTH) throw new Unprocessable(PAGINATION_LIMITED);
  const limit = Math.min(paging.perPage, PUBLIC_LISTING_DEPTH - paging.offset);
  const { rows, total } = await listGists(
    ctx.db,
    { publicOnly: true, since },
    { offset: paging.offset, limit },
    'updated',
    PUBLIC_LISTING_DEPTH,
  );
  return { items: await listViews(ctx, rows), total: Math.min(total, PUBLIC_LISTING_DEPTH) };
}

/** `GET /gists`: the caller's own gists (secret ones too), or the public listing when anonymous. */
export async function listMine(ctx: ServiceContext, paging: Paging, since?: string): Promise<ListPage> {
  if (!ctx.actor) return listPublic(ctx, paging, since);
  return page(ctx, { ownerId: ctx.actor.user.id, since }, paging);
}

/** A user's gists: public ones, and secret ones too when the caller is that user. */
export async function listForUser(ctx: ServiceContext, login: string, paging: Paging, since?: string): Promise<ListPage> {
  const account = await requireAnyAccount(ctx, login);
  const own = ctx.actor?.user.id === account.id;
  return page(ctx, { ownerId: account.id, publicOnly: !own, since }, paging);
}

/** Gists the caller starred (secret ones too). */
export async function listStarred(ctx: ServiceContext, paging: Paging, since?: string): Promise<ListPage> {
  const actor = requireActor(ctx.actor);
  return page(ctx, { starredBy: actor.user.id, since }, paging);
}

/** A gist's forks, oldest first. */
export async function listForks(ctx: ServiceContext, id: string, paging: Paging): Promise<ListPage> {
  const gist = await requireGist(ctx, id);
  return page(ctx, { forkOf: gist.id }, paging, 'created');
}

/** A gist's revisions, newest first, and how many there are. */
export async function listCommits(
  ctx: ServiceContext,
  id: string,
  paging: Paging,
): Promise<{ gist: GistRow; items: HistoryView[]; total: number }> {
  const gist = await requireGist(ctx, id);
  const [revisions, total] = await Promise.all([
    listRevisions(ctx.db, gist.id, { offset: paging.offset, limit: paging.perPage }),
    countRevisions(ctx.db, gist.id),
  ]);
  return { gist, items: await historyViews(ctx, revisions), total };
}
