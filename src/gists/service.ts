// Gist writes: create, update, delete, fork and star, with ownership rules and the token checks for writers.
import crypto from 'node:crypto';
import type { Db } from '../db/connect.js';
import type { Actor } from '../core/grants.js';
import { requireActor } from '../core/grants.js';
import { hasPermission } from '../core/scopes.js';
import type { ServiceContext } from '../core/context.js';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../core/errors.js';
import { copyObjects, createRepo, gistRepoDir, removeRepo, withGistLock } from './git.js';
import { untilHeadHolds } from './head-retry.js';
import type { GistLimits, Received } from './parse.js';
import { planCreate, planUpdate } from './plan.js';
import { bodyVerdict } from '../http/validation.js';
import { type CreateBody, createBody, type UpdateBody, updateBody } from './schemas.js';
import {
  addStar,
  advanceHead,
  deleteGistRow,
  filesWithContent,
  findFork,
  findGist,
  insertFiles,
  insertGist,
  insertRevisions,
  isStarred,
  listRevisions,
  removeStar,
} from './store.js';
import type { GistFileRow, GistRow } from '../db/tables/gists.js';
import type { UserRow } from '../db/schema.js';
import { moveHeadAfterCommit, writeFiles, type WriteResult } from './write.js';
import type { SingleGist } from './present.js';
import { byName } from './rules.js';

/** The configured limits on gist files and descriptions. */
export function gistLimits(ctx: ServiceContext): GistLimits {
  return { maxFiles: ctx.config.gistMaxFiles, maxFileBytes: ctx.config.gistMaxFileBytes, maxDescription: ctx.config.gistMaxDescription };
}

/** The caller who may write gists: signed in; app tokens only as a user with the Gists permission (never installations). */
export function requireWriter(ctx: ServiceContext): Actor {
  const actor = requireActor(ctx.actor);
  if (actor.kind === 'installation') throw new Forbidden('Resource not accessible by integration');
  if (actor.kind === 'app_user' && !hasPermission(actor.permissions, 'gists', 'write'))
    throw new Forbidden('Resource not accessible by integration');
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

/**
 * Creates a gist with its first revision: a new bare repository, one commit, the rows. `alsoRecord` writes rows that
 * belong with the new gist in the same transaction (an import's record of its source): a failure there creates nothing.
 */
export async function createGist(
  ctx: ServiceContext,
  body: Received<CreateBody>,
  alsoRecord?: (trx: Db, row: GistRow) => Promise<void>,
): Promise<GistRow> {
  return (await createGistAndView(ctx, body, alsoRecord)).gist;
}

/**
 * Creates a gist and returns it as the API shows a single gist, built from what was written (its files, its first
 * revision, its owner): the answer to a create reads nothing back.
 */
export async function createGistAndView(
  ctx: ServiceContext,
  body: Received<CreateBody>,
  alsoRecord?: (trx: Db, row: GistRow) => Promise<void>,
): Promise<SingleGist> {
  const actor = requireWriter(ctx);
  const plan = planCreate(body, gistLimits(ctx));
  const id = newGistId();
  const dir = gistRepoDir(ctx.config, id);
  const when = now(ctx);
  const at = ctx.clock.now().toISOString();
  let row: GistRow | undefined;
  let written: WriteResult | null;
  createRepo(dir);
  try {
    written = await writeFiles(ctx, {
      gistId: id,
      dir,
      parent: null,
      plan: plan.files,
      author: actor.user,
      when,
      claimHead: (head) => {
        row = {
          id,
          owner_id: actor.user.id,
          description: plan.description,
          public: plan.public ? 1 : 0,
          fork_of: null,
          head_sha: head,
          comments: 0,
          created_at: at,
          updated_at: at,
        };
        return { insert: row, alsoRecord };
      },
    });
  } catch (err) {
    removeRepo(dir);
    throw err;
  }
  const { head, change, rows } = written!;
  const revision = { gist_id: id, version: head, position: 0, user_id: actor.user.id, committed_at: when.toISOString(), ...change };
  return {
    gist: row!,
    owner: actor.user,
    files: [...rows].sort(byName),
    history: [{ revision, user: actor.user }],
    forks: [],
    forkOf: null,
  };
}

/** A create body another front end built (a web form): judged by the API route's schema, then created as the API would. */
export function createGistFrom(ctx: ServiceContext, body: CreateBody): Promise<GistRow> {
  return createGist(ctx, { body, schemaErrors: bodyVerdict(createBody, body) });
}

/** An update body another front end built (a web form): judged by the API route's schema, then applied as the API would. */
export function updateGistFrom(ctx: ServiceContext, id: string, body: UpdateBody): Promise<GistRow> {
  return updateGist(ctx, id, { body, schemaErrors: bodyVerdict(updateBody, body) });
}

/**
 * Updates description and files; a change of files is a new revision (git commit). Concurrent writers (of this
 * process or of others on the same database) meet at the head's compare-and-set: the loser re-reads the gist and
 * applies its change again, for as long as others keep winning (head-retry.ts), so no change is refused for that.
 */
async function updateGist(ctx: ServiceContext, id: string, body: Received<UpdateBody>): Promise<GistRow> {
  return (await updateGistAndFiles(ctx, id, body)).gist;
}

/** A gist as an update left it: its row, its files (as written, not read back) and its owner. */
export interface UpdatedGist {
  gist: GistRow;
  files: GistFileRow[];
  owner: UserRow;
}

/** updateGist, also returning the gist's files after the update and its owner (the API's answer reads neither back). */
export async function updateGistAndFiles(ctx: ServiceContext, id: string, body: Received<UpdateBody>): Promise<UpdatedGist> {
  const { gist: first, actor } = await requireOwnGist(ctx, id);
  const updated = (gist: GistRow, files: GistFileRow[]): UpdatedGist => ({ gist, files, owner: actor.user });
  return withGistLock(ctx.db, first.id, () =>
    untilHeadHolds<UpdatedGist>(
      async () => {
        const gist = await findGist(ctx.db, first.id);
        if (!gist) throw new NotFound();
        const current = await filesWithContent(ctx.db, gist.id);
        const plan = planUpdate(body, { description: gist.description, files: current }, gistLimits(ctx));
        const when = now(ctx);
        const at = ctx.clock.now().toISOString();
        const description = plan.description ?? gist.description;
        if (!plan.files) {
          if (plan.description === undefined) return updated(gist, current);
          const changes = { description, updated_at: at };
          if (await advanceHead(ctx.db, gist.id, gist.head_sha, changes)) return updated({ ...gist, ...changes }, current);
          return undefined; // the head moved: again on the new one
        }
        const files = plan.files;
        const written = await writeFiles(ctx, {
          gistId: gist.id,
          dir: gistRepoDir(ctx.config, gist.id),
          parent: gist.head_sha,
          plan: files,
          author: actor.user,
          when,
          claimHead: (head) => ({ move: { id: gist.id, from: gist.head_sha, changes: { head_sha: head, description, updated_at: at } } }),
        });
        if (!written) return undefined; // the head moved: re-read the gist and apply the change to it again
        // The files now: those kept as they were, and the rows written (new, changed or renamed), by name.
        const replaced = new Set([...files.gone, ...written.rows.map((r) => r.filename)]);
        const after = [...current.filter((f) => !replaced.has(f.filename)), ...written.rows].sort(byName);
        return updated({ ...gist, head_sha: written.head, description, updated_at: at }, after);
      },
      () => new Conflict('The gist changed while it was being updated; try again.'),
    ),
  );
}

/** Deletes a gist, its rows and its repository. */
export async function deleteGist(ctx: ServiceContext, id: string): Promise<void> {
  const { gist } = await requireOwnGist(ctx, id);
  await withGistLock(ctx.db, gist.id, async () => {
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
    throw new ValidationFailed(
      [{ resource: 'Gist', field: 'forks', code: 'custom', message: 'You cannot fork your own gist' }],
      'You cannot fork your own gist',
    );
  }
  const existing = await findFork(ctx.db, parent.id, actor.user.id);
  if (existing) return existing;

  const forkId = newGistId();
  const dir = gistRepoDir(ctx.config, forkId);
  const when = ctx.clock.now().toISOString();
  createRepo(dir);
  let fork: GistRow;
  try {
    fork = await ctx.db.transaction().execute(async (trx) => {
      // Locked (PostgreSQL) or serialised (SQLite) so the head, the files and the copied objects are one state.
      const p = await findGist(trx, parent.id, { forUpdate: true });
      if (!p) throw new NotFound();
      // The same caller forking at the same moment: the fork made first is the one (the parent's lock orders them).
      const made = await findFork(trx, p.id, actor.user.id);
      if (made) return made;
      copyObjects(gistRepoDir(ctx.config, p.id), dir);
      const row: GistRow = { ...p, id: forkId, owner_id: actor.user.id, fork_of: p.id, comments: 0, created_at: when, updated_at: when };
      await insertGist(trx, row);
      await insertFiles(
        trx,
        (await filesWithContent(trx, p.id)).map((f) => ({ ...f, gist_id: forkId })),
      );
      const history = await listRevisions(trx, p.id);
      await insertRevisions(
        trx,
        history.map((r) => ({ ...r, gist_id: forkId })),
      );
      return row;
    });
  } catch (err) {
    removeRepo(dir);
    throw err;
  }
  if (fork.id !== forkId) {
    removeRepo(dir);
    return fork;
  }
  await moveHeadAfterCommit(ctx, dir, fork.head_sha);
  return fork;
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
