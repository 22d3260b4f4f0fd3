// Repository operations: create (with auto_init), read, update (rename, visibility, archive, default branch), delete.
import fs from 'node:fs';
import path from 'node:path';
import type { Actor } from '../core/grants.js';
import { requireActor } from '../core/grants.js';
import { hasAnyScope } from '../core/scopes.js';
import { findAccount, findAccountById, membershipRole } from '../accounts/store.js';
import type { Db } from '../db/connect.js';
import { isUniqueViolation, lockRows } from '../db/dialect.js';
import type { UserRow } from '../db/schema.js';
import { publicEventPayload, repositoryEventPayload, type RepositoryAction, type RepositoryChanges } from './repository-payload.js';
import { readRefs, removeRepo } from '../git/bare.js';
import type { ServiceContext } from '../core/context.js';
import { Forbidden, HttpError, NotFound, ValidationFailed, type FieldError } from '../core/errors.js';
import { atLeast, effectiveAccess, permissionsFor, type AccessLevel } from './access.js';
import { createBareRepository, diskSizeKb, primaryLanguage, repositoryDir, setHead, writeInitialCommit } from './git-data.js';
import { isLocked, LOCKED_MESSAGE } from './locks.js';
import { repositoryName } from './names.js';
import { DEFAULT_MERGE_SETTINGS, mergeSettings, type MergeSettings, type Permissions } from './present.js';
import { recordPush } from './push.js';
import { emitInitialRefs } from './ref-events.js';
import type { CreateBody, RepositoryInput, UpdateBody } from './schemas.js';
import { addRedirect, deleteRepository as deleteRow, findRedirect, findRepository, findRepositoryById, insertRepository, updateRepository as updateRow } from './store.js';
import type { RepositoryRow } from '../db/tables/repos.js';

/** A repository with its owner and what the caller may do with it. */
export interface ResolvedRepository {
  repo: RepositoryRow;
  owner: UserRow;
  access: AccessLevel;
  permissions: Permissions;
}

const MERGE_KEYS = Object.keys(DEFAULT_MERGE_SETTINGS) as (keyof MergeSettings)[];
const FLAG_KEYS = ['has_issues', 'has_projects', 'has_wiki', 'has_downloads', 'has_discussions', 'is_template', 'allow_forking', 'web_commit_signoff_required'] as const;

/** The text fields' limits (GitHub's description limit is 350 characters). */
function textProblems(input: RepositoryInput): FieldError[] {
  const errors: FieldError[] = [];
  const check = (field: 'description' | 'homepage', max: number) => {
    const v = input[field];
    if (v != null && (v.length > max || v.includes('\0'))) errors.push({ resource: 'Repository', field, code: 'invalid', message: `${field} must be at most ${max} characters of text` });
  };
  check('description', 350);
  check('homepage', 255);
  if (input.visibility === 'internal') {
    errors.push({ resource: 'Repository', field: 'visibility', code: 'invalid', message: 'hublet has no enterprise-internal repositories: use public or private' });
  }
  return errors;
}

function visibilityOf(input: RepositoryInput, current: 'public' | 'private'): 'public' | 'private' {
  if (input.visibility === 'public' || input.visibility === 'private') return input.visibility;
  if (input.private !== undefined) return input.private ? 'private' : 'public';
  return current;
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
export async function resolveRepository(ctx: ServiceContext, ownerLogin: string, name: string, redirect?: 301 | 307): Promise<ResolvedRepository> {
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
async function requireCreateTarget(ctx: ServiceContext, actor: Actor, orgLogin: string | null): Promise<UserRow> {
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

/** Classic and OAuth tokens need `repo` for private repositories (`public_repo` covers public ones). */
function requirePrivateScope(actor: Actor, visibility: 'public' | 'private'): void {
  if (visibility === 'private' && (actor.kind === 'classic' || actor.kind === 'oauth') && !hasAnyScope(actor.scopes, ['repo'])) throw new NotFound();
}

/** The commit author for writes the server makes on a user's behalf (the initial commit). */
function signatureOf(user: UserRow, ctx: ServiceContext, now: Date) {
  const email = user.email ?? `${user.id}+${user.login}@users.noreply.${new URL(ctx.urls.base).hostname}`;
  return { name: user.name ?? user.login, email, timestamp: Math.floor(now.getTime() / 1000), timezoneOffset: 0 };
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
async function emitPublicEvent(trx: Db, ctx: ServiceContext, input: { repo: RepositoryRow; owner: UserRow; sender: UserRow }, now: Date): Promise<void> {
  const orgId = input.owner.type === 'Organization' ? input.owner.id : null;
  await ctx.events.emit(trx, { name: 'public', orgId, repositoryId: input.repo.id, senderId: input.sender.id, payload: publicEventPayload({ ...input, urls: ctx.urls.root }) }, now);
}

export interface CreateOptions {
  /**
   * An imported repository (site admins): created in `owner` whatever the caller's own role there, from a bare
   * repository prepared outside the transaction and moved into place inside it; a migration archive's topics and
   * archived flag are written in the same transaction (the repository is whole or absent).
   */
  imported?: { owner: UserRow; stagingDir: string; defaultBranch: string; language: string | null; topics?: readonly string[]; archived?: boolean };
}

/**
 * Creates a repository in the caller's account (`orgLogin` null) or an organization. The bare repository is created on
 * disk, with GitHub's initial README commit on `main` when `auto_init` is set; `repository` `created` (and, with
 * auto_init, `create` and `push`; for an import, `create` per branch and tag) events are recorded in the same
 * transaction as the row.
 */
export async function createRepository(ctx: ServiceContext, orgLogin: string | null, input: CreateBody, options: CreateOptions = {}): Promise<ResolvedRepository> {
  const actor = requireActor(ctx.actor);
  const owner = options.imported ? options.imported.owner : await requireCreateTarget(ctx, actor, orgLogin);
  const visibility = visibilityOf(input, 'public');
  requirePrivateScope(actor, visibility);
  const problems = textProblems(input);
  for (const t of ['gitignore_template', 'license_template'] as const) {
    if (input[t] !== undefined) problems.push({ resource: 'Repository', field: t, code: 'invalid', message: `hublet has no ${t.replace('_', ' ')}s` });
  }
  if (problems.length) throw new ValidationFailed(problems);
  const name = repositoryName(input.name ?? '');
  const now = ctx.clock.now();
  const at = now.toISOString();
  const merge: Partial<MergeSettings> = {};
  for (const k of MERGE_KEYS) if (input[k] !== undefined) (merge as Record<string, unknown>)[k] = input[k];

  let dir: string | undefined;
  try {
    const repo = await ctx.db.transaction().execute(async (trx) => {
      if (await findRepository(trx, owner.id, name)) {
        throw new ValidationFailed([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);
      }
      let row = await insertRepository(trx, {
        owner_id: owner.id,
        name,
        name_lower: name.toLowerCase(),
        description: input.description ?? null,
        homepage: input.homepage ?? null,
        visibility,
        default_branch: 'main',
        has_issues: flag(input.has_issues, true),
        has_projects: flag(input.has_projects, true),
        has_wiki: flag(input.has_wiki, true),
        has_downloads: flag(input.has_downloads, true),
        has_discussions: flag(input.has_discussions, false),
        is_template: flag(input.is_template, false),
        allow_forking: flag(input.allow_forking, true),
        web_commit_signoff_required: flag(input.web_commit_signoff_required, false),
        merge_settings: JSON.stringify(merge),
        pushed_at: at,
        created_at: at,
        updated_at: at,
      });
      dir = repositoryDir(ctx.config.dataDir, row.id);
      removeRepo(dir); // a directory left by an earlier, rolled-back attempt with the same id
      let initial: string | undefined;
      const changes: Partial<RepositoryRow> = {};
      if (options.imported) {
        fs.mkdirSync(path.dirname(dir), { recursive: true });
        fs.renameSync(options.imported.stagingDir, dir);
        changes.default_branch = options.imported.defaultBranch;
        changes.language = options.imported.language;
        if (options.imported.topics?.length) changes.topics = JSON.stringify(options.imported.topics);
        if (options.imported.archived) changes.archived = 1;
      } else {
        await createBareRepository(dir, 'main');
        if (input.auto_init) {
          initial = await writeInitialCommit(dir, { name, description: row.description, branch: 'main', author: signatureOf(actor.user, ctx, now) });
        }
      }
      changes.size_kb = await diskSizeKb(dir);
      row = await updateRow(trx, row.id, changes);
      await emitRepositoryEvent(trx, ctx, { action: 'created', repo: row, owner, sender: actor.user }, now);
      // An import's branches and tags are new to the repository: a `create` event each (auto_init's `main` gets its own
      // with the push recorded below).
      if (options.imported) await emitInitialRefs(trx, ctx, { refs: await readRefs(dir), repo: row, owner, sender: actor.user }, now);
      if (initial) {
        row = await recordPush(trx, ctx, { repo: row, owner, pusher: actor.user, updates: [{ ref: 'refs/heads/main', before: '0'.repeat(40), after: initial }], now });
      }
      return row;
    });
    const access = await effectiveAccess(ctx.db, actor, repo, owner);
    return { repo, owner, access, permissions: permissionsFor(access) };
  } catch (err) {
    if (dir) removeRepo(dir);
    // Two creates racing for one name: the unique index decides, and the loser hears what GitHub says.
    if (!(err instanceof HttpError) && /unique|duplicate/i.test(String((err as Error).message))) {
      throw new ValidationFailed([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);
    }
    throw err;
  }
}

function flag(v: boolean | undefined, fallback: boolean): number {
  return (v ?? fallback) ? 1 : 0;
}

/** A branch name git accepts (`git check-ref-format refs/heads/<name>`'s rules, in short). */
function validBranchName(name: string): boolean {
  if (!name || name.length > 255 || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: git refuses control characters in ref names; this finds them
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|\/\/|\/\./.test(name) || name === '@') return false;
  return true;
}

/**
 * Changes a repository's settings (admins only): rename (the old name keeps answering with a redirect), visibility,
 * archive, default branch (an existing branch; HEAD follows), texts and flags. Records GitHub's `renamed`, `edited`,
 * `privatized`/`publicized` (and `public`) and `archived`/`unarchived` events, each only when its values really changed.
 */
export async function updateRepository(ctx: ServiceContext, ownerLogin: string, name: string, input: UpdateBody): Promise<ResolvedRepository> {
  const actor = requireActor(ctx.actor);
  const { repo, owner, access } = await resolveRepository(ctx, ownerLogin, name, 307);
  if (!atLeast(access, 'admin')) throw new Forbidden('Must have admin rights to Repository.');
  if (await isLocked(ctx.db, repo.id)) throw new Forbidden(LOCKED_MESSAGE);
  const unarchiving = input.archived === false;
  if (repo.archived && !unarchiving) throw new Forbidden('Repository was archived so is read-only.');
  const problems = textProblems(input);
  if (problems.length) throw new ValidationFailed(problems);
  const visibility = visibilityOf(input, repo.visibility);
  requirePrivateScope(actor, visibility);
  const newName = input.name !== undefined ? repositoryName(input.name) : repo.name;
  const dir = repositoryDir(ctx.config.dataDir, repo.id);
  if (input.default_branch !== undefined && input.default_branch !== repo.default_branch) {
    const refs = await readRefs(dir);
    if (Object.keys(refs).length === 0) {
      throw new ValidationFailed([{ resource: 'Repository', field: 'default_branch', code: 'invalid', message: 'Cannot update default branch for an empty repository. Please init the repository and push first.' }]);
    }
    if (!validBranchName(input.default_branch) || !refs[`refs/heads/${input.default_branch}`]) {
      throw new ValidationFailed([{ resource: 'Repository', field: 'default_branch', code: 'invalid', message: `No branch named ${input.default_branch}` }]);
    }
  }
  const now = ctx.clock.now();
  const changes: Partial<RepositoryRow> = {};
  const edited: RepositoryChanges = {};
  if (newName !== repo.name) changes.name = newName;
  for (const field of ['description', 'homepage'] as const) {
    const v = input[field];
    if (v !== undefined && v !== repo[field]) {
      changes[field] = v;
      edited[field] = { from: repo[field] };
    }
  }
  if (input.default_branch !== undefined && input.default_branch !== repo.default_branch) {
    changes.default_branch = input.default_branch;
    edited.default_branch = { from: repo.default_branch };
  }
  if (visibility !== repo.visibility) changes.visibility = visibility;
  if (input.archived !== undefined && flag(input.archived, false) !== repo.archived) changes.archived = flag(input.archived, false);
  for (const k of FLAG_KEYS) if (input[k] !== undefined && flag(input[k], false) !== repo[k]) changes[k] = flag(input[k], false);
  const merge = mergeSettings(repo);
  let mergeChanged = false;
  for (const k of MERGE_KEYS) {
    if (input[k] !== undefined && input[k] !== merge[k]) {
      (merge as unknown as Record<string, unknown>)[k] = input[k];
      mergeChanged = true;
    }
  }
  if (mergeChanged) changes.merge_settings = JSON.stringify(merge);
  if (Object.keys(changes).length === 0) return { repo, owner, access, permissions: permissionsFor(access) };
  changes.updated_at = now.toISOString();
  if (changes.default_branch) {
    const head = (await readRefs(dir))[`refs/heads/${changes.default_branch}`];
    changes.language = head ? await primaryLanguage(dir, head, {}).catch(() => repo.language) : repo.language;
  }

  const updated = await ctx.db.transaction().execute(async (trx) => {
    await lockCurrent(trx, ctx, repo);
    if (await isLocked(trx, repo.id)) throw new Forbidden(LOCKED_MESSAGE);
    if (changes.name && changes.name.toLowerCase() !== repo.name_lower) {
      if (await findRepository(trx, owner.id, changes.name)) {
        throw new ValidationFailed([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);
      }
    }
    if (changes.name) changes.name_lower = changes.name.toLowerCase();
    const row = await updateRow(trx, repo.id, changes);
    if (changes.name && changes.name_lower !== repo.name_lower) await addRedirect(trx, owner.id, repo.name, repo.id, now);
    const emit = (action: RepositoryAction, c?: RepositoryChanges) => emitRepositoryEvent(trx, ctx, { action, repo: row, owner, sender: actor.user, changes: c }, now);
    if (changes.name) await emit('renamed', { repository: { name: { from: repo.name } } });
    if (Object.keys(edited).length) await emit('edited', edited);
    if (changes.visibility) await emit(changes.visibility === 'private' ? 'privatized' : 'publicized');
    if (changes.visibility === 'public') await emitPublicEvent(trx, ctx, { repo: row, owner, sender: actor.user }, now);
    if (changes.archived !== undefined) await emit(changes.archived ? 'archived' : 'unarchived');
    if (changes.default_branch) await setHead(dir, changes.default_branch);
    return row;
  }).catch((err: unknown) => {
    // Renamed onto a name another repository took at the same moment: the unique index decides, as for two creates.
    if (isUniqueViolation(err)) throw new ValidationFailed([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);
    throw err;
  });
  const newAccess = await effectiveAccess(ctx.db, actor, updated, owner);
  return { repo: updated, owner, access: newAccess, permissions: permissionsFor(newAccess) };
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
  if (now.name_lower !== resolved.name_lower || now.owner_id !== resolved.owner_id) throw new Moved(307, ctx.urls.api(`/repositories/${resolved.id}`));
}

/** Deletes a repository (admins only; locked repositories too, as GitHub lets migrated sources be deleted), and its git data. */
export async function deleteRepository(ctx: ServiceContext, ownerLogin: string, name: string): Promise<void> {
  const actor = requireActor(ctx.actor);
  const { repo, owner, access } = await resolveRepository(ctx, ownerLogin, name, 307);
  if (!atLeast(access, 'admin')) throw new Forbidden('Must have admin rights to Repository.');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await lockCurrent(trx, ctx, repo);
    await emitRepositoryEvent(trx, ctx, { action: 'deleted', repo, owner, sender: actor.user }, now);
    await deleteRow(trx, repo.id);
  });
  removeRepo(repositoryDir(ctx.config.dataDir, repo.id));
}
