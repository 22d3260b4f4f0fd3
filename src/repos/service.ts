// Repository operations: create (with auto_init), read, update (rename, visibility, archive, default branch), delete.
// A create or an update is decided by its plan (plan.ts) from what is read here first, then written here as planned.
import fs from 'node:fs';
import path from 'node:path';
import type { Actor } from '../core/grants.js';
import { requireActor } from '../core/grants.js';
import { findAccount, findAccountById, membershipRole } from '../accounts/store.js';
import type { Db } from '../db/connect.js';
import { isUniqueViolation, lockRows } from '../db/dialect.js';
import type { UserRow } from '../db/schema.js';
import { publicEventPayload, repositoryEventPayload, type RepositoryAction, type RepositoryChanges } from './repository-payload.js';
import { readRefs, removeRepo, ZERO_SHA } from '../git/bare.js';
import type { ServiceContext } from '../core/context.js';
import { Forbidden, HttpError, NotFound } from '../core/errors.js';
import { atLeast, effectiveAccess, permissionsFor, type AccessLevel } from './access.js';
import { repositoryAudit } from './audit.js';
import { createBareRepository, diskSizeKb, primaryLanguage, repositoryDir, setHead, writeInitialCommit } from './git-data.js';
import { recountForks, reparentForks } from './fork-store.js';
import { isLocked, LOCKED_MESSAGE } from './locks.js';
import {
  checkUpdate,
  nameTaken,
  planCreate,
  planUpdate,
  type CreateContent,
  type CreatePlan,
  type ImportedRepository,
  type UpdatePlan,
} from './plan.js';
import type { Permissions } from './present.js';
import { recordPush } from './push.js';
import { emitInitialRefs } from './ref-events.js';
import type { CreateBody, UpdateBody } from './schemas.js';
import {
  addRedirect,
  deleteRepository as deleteRow,
  findRedirect,
  findRepository,
  findRepositoryById,
  insertRepository,
  updateRepository as updateRow,
} from './store.js';
import type { RepositoryRow } from '../db/tables/repos.js';

/** A repository with its owner and what the caller may do with it. */
export interface ResolvedRepository {
  repo: RepositoryRow;
  owner: UserRow;
  access: AccessLevel;
  permissions: Permissions;
}

/** Finds an account by login: 404 when there is none. */
async function requireOwnerAccount(db: Db, login: string): Promise<UserRow> {
  const owner = await findAccount(db, login);
  if (!owner) throw new NotFound();
  return owner;
}

/** A redirect answer for a renamed repository: 301 for reads, 307 for other methods (GitHub's), to /repositories/{id}. */
class Moved extends HttpError {
  constructor(status: 301 | 307, location: string) {
    super(status, status === 301 ? 'Moved Permanently' : 'Temporary Redirect', { url: location }, { location });
  }
}

/**
 * The repository `owner/name` and the caller's access to it. 404 when it does not exist or the caller may not read it;
 * a name a rename or transfer left behind answers with a redirect (`redirect`: 301 for GET, 307 otherwise) when the
 * caller may read the repository where it is now.
 */
export async function resolveRepository(
  ctx: ServiceContext,
  ownerLogin: string,
  name: string,
  redirect?: 301 | 307,
): Promise<ResolvedRepository> {
  const owner = await requireOwnerAccount(ctx.db, ownerLogin);
  const repo = await findRepository(ctx.db, owner.id, name);
  if (!repo) {
    const moved = await findRedirect(ctx.db, owner.id, name);
    const movedOwner = moved && moved.owner_id !== owner.id ? await findAccountById(ctx.db, moved.owner_id) : owner;
    if (moved && movedOwner && redirect && atLeast(await effectiveAccess(ctx.db, ctx.actor, moved, movedOwner), 'read')) {
      throw new Moved(redirect, ctx.urls.api(`/repositories/${moved.id}`));
    }
    throw new NotFound();
  }
  const access = await effectiveAccess(ctx.db, ctx.actor, repo, owner);
  if (!atLeast(access, 'read')) throw new NotFound();
  return { repo, owner, access, permissions: permissionsFor(access) };
}

/** The repository with this id, as `resolveRepository` would find it by name. */
export async function resolveRepositoryById(ctx: ServiceContext, id: number): Promise<ResolvedRepository> {
  const repo = Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? await findRepositoryById(ctx.db, id) : undefined;
  const owner = repo ? await findAccountById(ctx.db, repo.owner_id) : undefined;
  if (!repo || !owner) throw new NotFound();
  const access = await effectiveAccess(ctx.db, ctx.actor, repo, owner);
  if (!atLeast(access, 'read')) throw new NotFound();
  return { repo, owner, access, permissions: permissionsFor(access) };
}

/** Where a new repository may go: the caller's own account, or an organization that lets them create repositories. */
export async function requireCreateTarget(ctx: ServiceContext, actor: Actor, orgLogin: string | null): Promise<UserRow> {
  if (orgLogin === null) {
    // An installation acts as its app: there is no user account to create the repository in.
    if (actor.kind === 'installation') throw new Forbidden('Resource not accessible by integration');
    return actor.user;
  }
  const org = await findAccount(ctx.db, orgLogin);
  if (org?.type !== 'Organization') throw new NotFound();
  const role = await membershipRole(ctx.db, org.id, actor.user.id);
  if (role === 'admin') return org;
  if (role === 'member') {
    if (org.members_can_create_repositories) return org;
    throw new Forbidden('You need admin access to the organization before adding a repository to it.');
  }
  throw new NotFound();
}

/** Records a `repository` event in the caller's transaction. */
export async function emitRepositoryEvent(
  trx: Db,
  ctx: ServiceContext,
  input: { action: RepositoryAction; repo: RepositoryRow; owner: UserRow; sender: UserRow; changes?: RepositoryChanges },
  now: Date,
): Promise<void> {
  await ctx.events.emit(
    trx,
    {
      name: 'repository',
      action: input.action,
      orgId: input.owner.type === 'Organization' ? input.owner.id : null,
      repositoryId: input.repo.id,
      senderId: input.sender.id,
      payload: repositoryEventPayload({ ...input, urls: ctx.urls.root }),
    },
    now,
  );
}

/** Records GitHub's `public` event (a repository made public) in the caller's transaction. */
async function emitPublicEvent(
  trx: Db,
  ctx: ServiceContext,
  input: { repo: RepositoryRow; owner: UserRow; sender: UserRow },
  now: Date,
): Promise<void> {
  const orgId = input.owner.type === 'Organization' ? input.owner.id : null;
  await ctx.events.emit(
    trx,
    {
      name: 'public',
      orgId,
      repositoryId: input.repo.id,
      senderId: input.sender.id,
      payload: publicEventPayload({ ...input, urls: ctx.urls.root }),
    },
    now,
  );
}

export interface CreateOptions {
  /**
   * An imported repository (site admins): created in `owner` whatever the caller's own role there, from a bare
   * repository prepared outside the transaction and moved into place inside it; a migration archive's topics and
   * archived flag are written in the same transaction (the repository is whole or absent).
   */
  imported?: ImportedRepository;
}

/**
 * Creates a repository in the caller's account (`orgLogin` null) or an organization. The bare repository is created on
 * disk, with GitHub's initial README commit on `main` when `auto_init` is set; `repository` `created` (and, with
 * auto_init, `create` and `push`; for an import, `create` per branch and tag) events are recorded in the same
 * transaction as the row.
 */
export async function createRepository(
  ctx: ServiceContext,
  orgLogin: string | null,
  input: CreateBody,
  options: CreateOptions = {},
): Promise<ResolvedRepository> {
  const actor = requireActor(ctx.actor);
  const owner = options.imported ? options.imported.owner : await requireCreateTarget(ctx, actor, orgLogin);
  const now = ctx.clock.now();
  const plan = planCreate(input, { actor, owner, imported: options.imported, now, urls: ctx.urls });
  return applyCreate(ctx, { actor, owner }, plan, now);
}

/** Puts a new repository's git data in `dir`; the README commit's SHA when it writes one. */
async function placeGitData(dir: string, content: CreateContent, branch: string): Promise<string | undefined> {
  if (content.kind === 'imported') {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.renameSync(content.stagingDir, dir);
    return undefined;
  }
  await createBareRepository(dir, branch);
  return content.kind === 'readme' ? writeInitialCommit(dir, content.commit) : undefined;
}

/**
 * Writes a planned create in one transaction: the name checked free, the row, its git data (removed again when the
 * transaction fails), the row's values taken from the data, the events.
 */
async function applyCreate(
  ctx: ServiceContext,
  at: { actor: Actor; owner: UserRow },
  plan: CreatePlan,
  now: Date,
): Promise<ResolvedRepository> {
  const { actor, owner } = at;
  let dir: string | undefined;
  try {
    const repo = await ctx.db.transaction().execute(async (trx) => {
      if (await findRepository(trx, owner.id, plan.row.name)) throw nameTaken();
      let row = await insertRepository(trx, plan.row);
      dir = repositoryDir(ctx.config.dataDir, row.id);
      removeRepo(dir); // a directory left by an earlier, rolled-back attempt with the same id
      const initial = await placeGitData(dir, plan.content, plan.row.default_branch);
      row = await updateRow(trx, row.id, { ...plan.changes, size_kb: await diskSizeKb(dir) });
      for (const event of plan.events) {
        if (event.name === 'created') await emitRepositoryEvent(trx, ctx, { action: 'created', repo: row, owner, sender: actor.user }, now);
        if (event.name === 'refs')
          await emitInitialRefs(trx, ctx, { refs: await readRefs(dir), repo: row, owner, sender: actor.user }, now);
        if (event.name === 'push' && initial) {
          row = await recordPush(trx, ctx, {
            repo: row,
            owner,
            pusher: actor.user,
            updates: [{ ref: event.ref, before: ZERO_SHA, after: initial }],
            now,
          });
        }
      }
      await ctx.audit.record(trx, ctx, { action: 'repo.create', ...repositoryAudit(row, owner), fields: { visibility: row.visibility } });
      return row;
    });
    const access = await effectiveAccess(ctx.db, actor, repo, owner);
    return { repo, owner, access, permissions: permissionsFor(access) };
  } catch (err) {
    if (dir) removeRepo(dir);
    // Two creates racing for one name: the unique index decides, and the loser hears what GitHub says.
    if (!(err instanceof HttpError) && /unique|duplicate/i.test(String((err as Error).message))) throw nameTaken();
    throw err;
  }
}

/**
 * Changes a repository's settings (admins only): rename (the old name keeps answering with a redirect), visibility,
 * archive, default branch (an existing branch; HEAD follows), texts and flags. Records GitHub's `renamed`, `edited`,
 * `privatized`/`publicized` (and `public`) and `archived`/`unarchived` events, each only when its values really changed.
 */
export async function updateRepository(
  ctx: ServiceContext,
  ownerLogin: string,
  name: string,
  input: UpdateBody,
): Promise<ResolvedRepository> {
  const actor = requireActor(ctx.actor);
  const { repo, owner, access } = await resolveRepository(ctx, ownerLogin, name, 307);
  if (!atLeast(access, 'admin')) throw new Forbidden('Must have admin rights to Repository.');
  if (await isLocked(ctx.db, repo.id)) throw new Forbidden(LOCKED_MESSAGE);
  const target = checkUpdate(repo, input, actor);
  const dir = repositoryDir(ctx.config.dataDir, repo.id);
  // The branches are read only to check a new default branch.
  const refs = target.defaultBranch !== undefined ? await readRefs(dir) : {};
  const now = ctx.clock.now();
  const plan = planUpdate(repo, input, target, refs, now);
  if (!plan) return { repo, owner, access, permissions: permissionsFor(access) };
  const updated = await applyUpdate(ctx, { repo, owner, sender: actor.user, dir }, plan, now);
  const newAccess = await effectiveAccess(ctx.db, actor, updated, owner);
  return { repo: updated, owner, access: newAccess, permissions: permissionsFor(newAccess) };
}

/**
 * Writes a planned update: the new default branch's language read first, then in one transaction under the row's lock
 * (still not locked for a migration, a new name still free) the row, the redirect from the old name, the events and HEAD.
 */
async function applyUpdate(
  ctx: ServiceContext,
  at: { repo: RepositoryRow; owner: UserRow; sender: UserRow; dir: string },
  plan: UpdatePlan,
  now: Date,
): Promise<RepositoryRow> {
  const { repo, owner, sender, dir } = at;
  const changes = { ...plan.changes };
  if (plan.head) changes.language = await primaryLanguage(dir, plan.head.commit, {}).catch(() => repo.language);
  return ctx.db
    .transaction()
    .execute(async (trx) => {
      await lockCurrent(trx, ctx, repo);
      if (await isLocked(trx, repo.id)) throw new Forbidden(LOCKED_MESSAGE);
      if (plan.newName && (await findRepository(trx, owner.id, plan.newName))) throw nameTaken();
      const row = await updateRow(trx, repo.id, changes);
      if (plan.newName) await addRedirect(trx, owner.id, repo.name, repo.id, now);
      for (const event of plan.events) {
        if (event.name === 'public') await emitPublicEvent(trx, ctx, { repo: row, owner, sender }, now);
        else await emitRepositoryEvent(trx, ctx, { action: event.action, repo: row, owner, sender, changes: event.changes }, now);
      }
      await recordUpdate(trx, ctx, { before: repo, after: row, owner }, plan);
      if (plan.head) await setHead(dir, plan.head.branch);
      return row;
    })
    .catch((err: unknown) => {
      // Renamed onto a name another repository took at the same moment: the unique index decides, as for two creates.
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    });
}

/** The audit log's entries of an update, from the events its plan records: renamed, visibility, archived or not. */
async function recordUpdate(
  trx: Db,
  ctx: ServiceContext,
  at: { before: RepositoryRow; after: RepositoryRow; owner: UserRow },
  plan: UpdatePlan,
): Promise<void> {
  const named = repositoryAudit(at.after, at.owner);
  for (const event of plan.events) {
    if (event.name !== 'repository') continue;
    if (event.action === 'renamed')
      await ctx.audit.record(trx, ctx, { action: 'repo.rename', ...named, fields: { repo_was: `${at.owner.login}/${at.before.name}` } });
    if (event.action === 'privatized' || event.action === 'publicized')
      await ctx.audit.record(trx, ctx, {
        action: 'repo.access',
        ...named,
        fields: { visibility: at.after.visibility, previous_visibility: at.before.visibility },
      });
    if (event.action === 'archived' || event.action === 'unarchived')
      await ctx.audit.record(trx, ctx, { action: `repo.${event.action}`, ...named, fields: { visibility: at.after.visibility } });
  }
}

/**
 * Locks the repository's row for the rest of a change, so changes to one repository take turns (and a migration locking
 * it waits too), and checks that it still answers to the name the request resolved: gone is a 404, renamed meanwhile is
 * the redirect the request would now get.
 */
export async function lockCurrent(trx: Db, ctx: ServiceContext, resolved: RepositoryRow): Promise<void> {
  if (!(await lockRows(trx, 'repositories', [resolved.id])).has(resolved.id)) throw new NotFound();
  const now = await findRepositoryById(trx, resolved.id);
  if (!now) throw new NotFound();
  if (now.name_lower !== resolved.name_lower || now.owner_id !== resolved.owner_id)
    throw new Moved(307, ctx.urls.api(`/repositories/${resolved.id}`));
}

/**
 * Deletes a repository (admins only; locked repositories too, as GitHub lets migrated sources be deleted), and its git
 * data; its forks stay (fork-store.ts reparentForks).
 */
export async function deleteRepository(ctx: ServiceContext, ownerLogin: string, name: string): Promise<void> {
  const actor = requireActor(ctx.actor);
  const { repo, owner, access } = await resolveRepository(ctx, ownerLogin, name, 307);
  if (!atLeast(access, 'admin')) throw new Forbidden('Must have admin rights to Repository.');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await lockCurrent(trx, ctx, repo);
    await emitRepositoryEvent(trx, ctx, { action: 'deleted', repo, owner, sender: actor.user }, now);
    // Its forks stay, re-parented in the network (their git data is their own: fork-data.ts).
    const current = (await findRepositoryById(trx, repo.id))!;
    await reparentForks(trx, current);
    await deleteRow(trx, repo.id);
    await recountForks(trx, [current.parent_id]);
    await ctx.audit.record(trx, ctx, { action: 'repo.destroy', ...repositoryAudit(repo, owner), fields: { visibility: repo.visibility } });
  });
  removeRepo(repositoryDir(ctx.config.dataDir, repo.id));
}
