// Gist operations: create, read, list, update, delete, fork, star, history and revisions, with visibility and ownership rules.
import crypto from 'node:crypto';
import type { Actor } from '../accounts/actor.js';
import { requireActor } from '../accounts/actor.js';
import { accountCounts } from '../accounts/counts.js';
import { hasPermission } from '../accounts/scopes.js';
import { requireAnyAccount } from '../accounts/service.js';
import type { UserRow } from '../db/schema.js';
import type { ServiceContext } from '../server/context.js';
import { Conflict, Forbidden, NotFound, Unprocessable, ValidationFailed } from '../server/http/errors.js';
import type { Paging } from '../server/http/pagination.js';
import { copyObjects, createRepo, gistRepoDir, readBlob, readTreeEntries, removeRepo, setHead, withGistLock } from './git.js';
import type { FileView, FileWithContent, ForkView, HistoryView, SingleGist } from './present.js';
import { parseCreate, planUpdate, type CreateBody, type GistLimits, type UpdateBody } from './schemas.js';
import {
  addStar,
  advanceHead,
  allForks,
  countRevisions,
  deleteGistRow,
  fileMetas,
  filesWithContent,
  findFork,
  findGist,
  findRevision,
  insertFiles,
  insertGist,
  insertRevisions,
  isStarred,
  listGists,
  listRevisions,
  removeStar,
  usersByIds,
  type GistFileMeta,
  type GistFilter,
} from './store.js';
import type { GistRevisionRow, GistRow } from './tables.js';
import { fileRow, writeFiles } from './write.js';

/** How deep `GET /gists/public` (and anonymous `GET /gists`) may page, as GitHub limits it. */
export const PUBLIC_LISTING_DEPTH = 3000;
const PAGINATION_LIMITED =
  'In order to keep the API fast for everyone, pagination is limited for this resource. Check the rel=last link relation in the Link response header to see how far back you can traverse.';

const WRITE_ATTEMPTS = 3;

/** The configured limits on gist files and descriptions. */
export function gistLimits(ctx: ServiceContext): GistLimits {
  return { maxFiles: ctx.config.gistMaxFiles, maxFileBytes: ctx.config.gistMaxFileBytes, maxDescription: ctx.config.gistMaxDescription };
}

/** The caller who may write gists: signed in; app tokens only as a user with the Gists permission (never installations). */
export function requireWriter(ctx: ServiceContext): Actor {
  const actor = requireActor(ctx.actor);
  if (actor.kind === 'installation') throw new Forbidden('Resource not accessible by integration');
  if (actor.kind === 'app_user' && !hasPermission(actor.permissions, 'gists', 'write')) throw new Forbidden('Resource not accessible by integration');
  return actor;
}

/** A gist anyone may read (secret gists too: their id is the secret), or 404. */
export async function requireGist(ctx: ServiceContext, id: string): Promise<GistRow> {
  const gist = await findGist(ctx.db, id);
  if (!gist) throw new NotFound();
  return gist;
}

/** A gist the caller owns; 404 for everyone else, as GitHub hides what you may not change. */
async function requireOwnGist(ctx: ServiceContext, id: string): Promise<{ gist: GistRow; actor: Actor }> {
  const actor = requireWriter(ctx);
  const gist = await requireGist(ctx, id);
  if (gist.owner_id !== actor.user.id) throw new NotFound();
  return { gist, actor };
}

function newGistId(): string {
  return crypto.randomBytes(16).toString('hex');
}

/** Seconds precision, as git records time (rows keep the clock's milliseconds, so lists order changes made in one second). */
function now(ctx: ServiceContext): Date {
  return new Date(Math.floor(ctx.clock.now().getTime() / 1000) * 1000);
}

/** Creates a gist with its first revision: a new bare repository, one commit, the rows. */
export async function createGist(ctx: ServiceContext, body: CreateBody): Promise<GistRow> {
  const actor = requireWriter(ctx);
  const input = parseCreate(body, gistLimits(ctx));
  const id = newGistId();
  const dir = gistRepoDir(ctx.config, id);
  const when = now(ctx);
  const at = ctx.clock.now().toISOString();
  let row: GistRow | undefined;
  await createRepo(dir, gistLimits(ctx));
  try {
    await writeFiles(ctx, {
      gistId: id,
      dir,
      parent: null,
      current: [],
      next: input.files,
      author: actor.user,
      when,
      claimHead: async (trx, head) => {
        row = {
          id,
          owner_id: actor.user.id,
          description: input.description,
          public: input.public ? 1 : 0,
          fork_of: null,
          head_sha: head,
          comments: 0,
          created_at: at,
          updated_at: at,
        };
        await insertGist(trx, row);
        return true;
      },
    });
  } catch (err) {
    removeRepo(dir);
    throw err;
  }
  return row!;
}

/**
 * Updates description and files; a change of files is a new revision (git commit). Concurrent writers meet at the
 * head's compare-and-set: the loser re-reads the gist and applies its change again.
 */
export async function updateGist(ctx: ServiceContext, id: string, body: UpdateBody): Promise<GistRow> {
  const { gist: first, actor } = await requireOwnGist(ctx, id);
  return withGistLock(first.id, async () => {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const gist = await findGist(ctx.db, first.id);
      if (!gist) throw new NotFound();
      const current = await filesWithContent(ctx.db, gist.id);
      const plan = planUpdate(body, new Map(current.map((f) => [f.filename, f.content])), gistLimits(ctx));
      const when = now(ctx);
      const at = ctx.clock.now().toISOString();
      const description = plan.description ?? gist.description;
      const filesChanged =
        plan.files !== undefined &&
        (plan.files.length !== current.length || plan.files.some((f) => !current.find((c) => c.filename === f.filename)?.content.equals(f.content)));
      if (!filesChanged) {
        if (description === gist.description) return gist;
        const changes = { description, updated_at: at };
        if (await advanceHead(ctx.db, gist.id, gist.head_sha, changes)) return { ...gist, ...changes };
        continue;
      }
      const written = await writeFiles(ctx, {
        gistId: gist.id,
        dir: gistRepoDir(ctx.config, gist.id),
        parent: gist.head_sha,
        current,
        next: plan.files!,
        author: actor.user,
        when,
        claimHead: (trx, head) => advanceHead(trx, gist.id, gist.head_sha, { head_sha: head, description, updated_at: at }),
      });
      if (written) return { ...gist, head_sha: written.head, description, updated_at: at };
    }
    throw new Conflict('The gist changed while it was being updated; try again.');
  });
}

/** Deletes a gist, its rows and its repository. */
export async function deleteGist(ctx: ServiceContext, id: string): Promise<void> {
  const { gist } = await requireOwnGist(ctx, id);
  await withGistLock(gist.id, async () => {
    // Rows first: once they are gone nothing refers to the repository, so removing it cannot leave a half-gist behind.
    await deleteGistRow(ctx.db, gist.id);
    removeRepo(gistRepoDir(ctx.config, gist.id));
  });
}

/** Forks a gist for the caller: a new gist with the same files and history (its own copy of the objects). */
export async function forkGist(ctx: ServiceContext, id: string): Promise<GistRow> {
  const actor = requireWriter(ctx);
  const parent = await requireGist(ctx, id);
  if (parent.owner_id === actor.user.id) {
    throw new ValidationFailed([{ resource: 'Gist', field: 'forks', code: 'custom', message: 'You cannot fork your own gist' }], 'You cannot fork your own gist');
  }
  const existing = await findFork(ctx.db, parent.id, actor.user.id);
  if (existing) return existing;

  const forkId = newGistId();
  const dir = gistRepoDir(ctx.config, forkId);
  const when = ctx.clock.now().toISOString();
  await createRepo(dir, gistLimits(ctx));
  try {
    const fork = await ctx.db.transaction().execute(async (trx) => {
      // Locked (PostgreSQL) or serialised (SQLite) so the head, the files and the copied objects are one state.
      const p = await findGist(trx, parent.id, { forUpdate: true });
      if (!p) throw new NotFound();
      copyObjects(gistRepoDir(ctx.config, p.id), dir);
      const row: GistRow = { ...p, id: forkId, owner_id: actor.user.id, fork_of: p.id, comments: 0, created_at: when, updated_at: when };
      await insertGist(trx, row);
      await insertFiles(trx, (await filesWithContent(trx, p.id)).map((f) => ({ ...f, gist_id: forkId })));
      const history = await listRevisions(trx, p.id);
      await insertRevisions(trx, history.map((r) => ({ ...r, gist_id: forkId })));
      return row;
    });
    await setHead(dir, fork.head_sha);
    return fork;
  } catch (err) {
    removeRepo(dir);
    throw err;
  }
}

// Reads.

async function historyViews(ctx: ServiceContext, revisions: GistRevisionRow[]): Promise<HistoryView[]> {
  const users = await usersByIds(ctx.db, revisions.map((r) => r.user_id).filter((u): u is number => u !== null));
  return revisions.map((revision) => ({ revision, user: revision.user_id === null ? null : users.get(revision.user_id) ?? null }));
}

async function forkViews(ctx: ServiceContext, forks: GistRow[]): Promise<ForkView[]> {
  const owners = await usersByIds(ctx.db, forks.map((f) => f.owner_id));
  const views: ForkView[] = [];
  for (const gist of forks) {
    const owner = owners.get(gist.owner_id)!;
    views.push({ gist, owner, counts: await accountCounts(ctx, owner, false) });
  }
  return views;
}

async function ownerOf(ctx: ServiceContext, gist: GistRow): Promise<UserRow> {
  return (await usersByIds(ctx.db, [gist.owner_id])).get(gist.owner_id)!;
}

async function parentView(ctx: ServiceContext, gist: GistRow): Promise<SingleGist['forkOf']> {
  if (!gist.fork_of) return null;
  const parent = await findGist(ctx.db, gist.fork_of);
  if (!parent) return null;
  const files = (await fileMetas(ctx.db, [parent.id])).get(parent.id) ?? [];
  return { gist: parent, owner: await ownerOf(ctx, parent), files };
}

/** Everything the single form shows: files with bytes, full history, forks and the parent. */
export async function singleView(ctx: ServiceContext, gist: GistRow): Promise<SingleGist> {
  const [files, revisions, forks] = await Promise.all([filesWithContent(ctx.db, gist.id), listRevisions(ctx.db, gist.id), allForks(ctx.db, gist.id)]);
  return {
    gist,
    owner: await ownerOf(ctx, gist),
    files,
    history: await historyViews(ctx, revisions),
    forks: await forkViews(ctx, forks),
    forkOf: await parentView(ctx, gist),
  };
}

/** The gist as it was at one revision: that commit's files (read from git) and the history up to it. */
export async function revisionView(ctx: ServiceContext, id: string, sha: string): Promise<SingleGist> {
  const gist = await requireGist(ctx, id);
  if (!/^[0-9a-f]{4,40}$/i.test(sha)) {
    throw new ValidationFailed([{ resource: 'Gist', field: 'sha', code: 'invalid', message: 'sha must be a commit SHA (4 to 40 hex digits)' }]);
  }
  const revision = await findRevision(ctx.db, gist.id, sha);
  if (!revision) throw new NotFound();
  const dir = gistRepoDir(ctx.config, gist.id);
  const cache = {};
  const entries = await readTreeEntries(dir, revision.version, cache);
  const files: FileWithContent[] = [];
  for (const e of entries) {
    const content = await readBlob(dir, e.oid, cache);
    if (content) files.push(await fileRow(gist.id, e.filename, content, e.oid));
  }
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

async function listViews(ctx: ServiceContext, rows: GistRow[]): Promise<ListView[]> {
  const [owners, files] = await Promise.all([usersByIds(ctx.db, rows.map((r) => r.owner_id)), fileMetas(ctx.db, rows.map((r) => r.id))]);
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
  const { rows, total } = await listGists(ctx.db, { publicOnly: true, since }, { offset: paging.offset, limit });
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
export async function listCommits(ctx: ServiceContext, id: string, paging: Paging): Promise<{ gist: GistRow; items: HistoryView[]; total: number }> {
  const gist = await requireGist(ctx, id);
  const [revisions, total] = await Promise.all([
    listRevisions(ctx.db, gist.id, { offset: paging.offset, limit: paging.perPage }),
    countRevisions(ctx.db, gist.id),
  ]);
  return { gist, items: await historyViews(ctx, revisions), total };
}

// Stars.

/** Stars a gist (idempotent). */
export async function starGist(ctx: ServiceContext, id: string): Promise<void> {
  const actor = requireWriter(ctx);
  const gist = await requireGist(ctx, id);
  await addStar(ctx.db, gist.id, actor.user.id, ctx.clock.now().toISOString());
}

/** Removes the caller's star (idempotent). */
export async function unstarGist(ctx: ServiceContext, id: string): Promise<void> {
  const actor = requireWriter(ctx);
  const gist = await requireGist(ctx, id);
  await removeStar(ctx.db, gist.id, actor.user.id);
}

/** True when the caller starred the gist (an anonymous caller has starred nothing). */
export async function isStarredByCaller(ctx: ServiceContext, id: string): Promise<boolean> {
  const gist = await requireGist(ctx, id);
  return ctx.actor ? isStarred(ctx.db, gist.id, ctx.actor.user.id) : false;
}
