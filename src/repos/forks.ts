// Repository forks: POST /repos/{owner}/{repo}/forks (a fork in the caller's account or an organization, GitHub's
// rules for an existing fork and a taken name, the parent's git data linked in, the `fork` event), the forks of a
// repository as GET /repos/{owner}/{repo}/forks lists them, and a fork's parent and source for its full object.
import { findAccountById, organizationIdsOf } from '../accounts/store.js';
import type { ServiceContext } from '../core/context.js';
import { Forbidden, HttpError } from '../core/errors.js';
import { requireActor } from '../core/grants.js';
import { isUniqueViolation } from '../db/dialect.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { RepositoryRow } from '../db/tables/repos.js';
import { readRefs, removeRepo } from '../git/bare.js';
import type { Paging } from '../http/pagination.js';
import { atLeast, effectiveAccess, permissionsFor, tokenSeesPrivate } from './access.js';
import { repositoryAudit } from './audit.js';
import { copyForForking } from './fork-data.js';
import { countNetwork, findInNetwork, freeForkName, listForkRows, networkRoot, recountForks, type ForkSort } from './fork-store.js';
import { diskSizeKb, repositoryDir } from './git-data.js';
import { present, type ListResult } from './listing.js';
import { repositoryName } from './names.js';
import { nameTaken } from './plan.js';
import { forkEventPayload } from './repository-payload.js';
import type { ForkBody } from './schemas.js';
import { emitRepositoryEvent, lockCurrent, requireCreateTarget, resolveRepository, type ResolvedRepository } from './service.js';
import { findRepositoryById, insertRepository, updateRepository, type NewRepository } from './store.js';

const MAX_NAME_LENGTH = 100;

/** GitHub's refusal of an empty repository (nothing to fork). */
const EMPTY_MESSAGE = 'The repository exists, but it contains no Git content. Empty repositories cannot be forked.';

/** A fork, and whether this request made it (false: the account already had one in the network, which GitHub answers with). */
export interface ForkResult extends ResolvedRepository {
  created: boolean;
}

/** The new fork's row: the parent's texts, visibility and default branch; GitHub's defaults for a fork's settings. */
function forkRow(parent: RepositoryRow, owner: UserRow, name: string, now: string): NewRepository {
  return {
    owner_id: owner.id,
    name,
    name_lower: name.toLowerCase(),
    description: parent.description,
    homepage: parent.homepage,
    visibility: parent.visibility,
    default_branch: parent.default_branch,
    // Issues start off on a fork, as on GitHub; topics are not copied.
    has_issues: 0,
    has_projects: parent.has_projects,
    has_wiki: parent.has_wiki,
    has_downloads: parent.has_downloads,
    language: parent.language,
    pushed_at: parent.pushed_at,
    created_at: now,
    updated_at: now,
    parent_id: parent.id,
    source_id: networkRoot(parent),
  };
}

/**
 * Forks `owner/name` into the caller's account or `input.organization` (where the caller may create repositories).
 * The caller must be able to read the repository (404 otherwise); an account that already holds a repository of the
 * network (the repository itself included: forking one's own repository answers with it, as GitHub does) gets that
 * one back. The fork takes `input.name` or the parent's name, with GitHub's `-1`, `-2`, … when the account has a
 * repository of that name; a private repository's fork is private. Row, git data (every branch and tag, or the
 * default branch alone), `repository` `created` and the parent's `fork` event are written in one transaction.
 */
export async function createFork(ctx: ServiceContext, ownerLogin: string, repoName: string, input: ForkBody): Promise<ForkResult> {
  const actor = requireActor(ctx.actor);
  const parent = await resolveRepository(ctx, ownerLogin, repoName, 307);
  const target = await requireCreateTarget(ctx, actor, input.organization ?? null);
  const name = repositoryName(input.name ?? parent.repo.name);
  const existing = await findInNetwork(ctx.db, target.id, networkRoot(parent.repo));
  if (existing) return { ...(await resolvedFor(ctx, existing, target)), created: false };
  if (!parent.repo.allow_forking) throw new Forbidden('Forking is disabled for this repository.');
  const parentDir = repositoryDir(ctx.config.dataDir, parent.repo.id);
  if (Object.keys(await readRefs(parentDir)).length === 0) throw new Forbidden(EMPTY_MESSAGE);
  // Two forks racing for one free name: the unique index decides, and the loser takes the next name.
  for (let attempt = 0; ; attempt++) {
    try {
      return await applyFork(ctx, { parent, target, sender: actor.user, name, defaultBranchOnly: input.default_branch_only === true });
    } catch (err) {
      if (attempt < 2 && !(err instanceof HttpError) && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

async function resolvedFor(ctx: ServiceContext, repo: RepositoryRow, owner: UserRow): Promise<ResolvedRepository> {
  const access = await effectiveAccess(ctx.db, ctx.actor, repo, owner);
  return { repo, owner, access, permissions: permissionsFor(access) };
}

async function applyFork(
  ctx: ServiceContext,
  at: { parent: ResolvedRepository; target: UserRow; sender: UserRow; name: string; defaultBranchOnly: boolean },
): Promise<ForkResult> {
  const { parent, target, sender } = at;
  const now = ctx.clock.now();
  let dir: string | undefined;
  try {
    const result = await ctx.db.transaction().execute(async (trx) => {
      // The parent stays put (not deleted, renamed or transferred) until the fork is whole.
      await lockCurrent(trx, ctx, parent.repo);
      const current = (await findRepositoryById(trx, parent.repo.id))!;
      const existing = await findInNetwork(trx, target.id, networkRoot(current));
      if (existing) return { repo: existing, created: false };
      const name = await freeForkName(trx, target.id, at.name, MAX_NAME_LENGTH);
      if (!name) throw nameTaken();
      let row = await insertRepository(trx, forkRow(current, target, name, now.toISOString()));
      dir = repositoryDir(ctx.config.dataDir, row.id);
      removeRepo(dir); // a directory left by an earlier, rolled-back attempt with the same id
      await copyForForking(repositoryDir(ctx.config.dataDir, current.id), dir, {
        defaultBranch: current.default_branch,
        defaultBranchOnly: at.defaultBranchOnly,
      });
      row = await updateRepository(trx, row.id, { size_kb: await diskSizeKb(dir) });
      await emitRepositoryEvent(trx, ctx, { action: 'created', repo: row, owner: target, sender }, now);
      await recountForks(trx, [current.id]);
      const forked = (await findRepositoryById(trx, current.id))!;
      await emitForkEvent(trx, ctx, { fork: row, forkOwner: target, repo: forked, owner: parent.owner, sender }, now);
      await ctx.audit.record(trx, ctx, { action: 'repo.create', ...repositoryAudit(row, target), fields: { visibility: row.visibility } });
      return { repo: row, created: true };
    });
    if (!result.created) dir = undefined;
    return { ...(await resolvedFor(ctx, result.repo, target)), created: result.created };
  } catch (err) {
    if (dir) removeRepo(dir);
    throw err;
  }
}

/** Records the `fork` event (to the forked repository's hooks and its organization's) in the caller's transaction. */
async function emitForkEvent(
  trx: Db,
  ctx: ServiceContext,
  input: { fork: RepositoryRow; forkOwner: UserRow; repo: RepositoryRow; owner: UserRow; sender: UserRow },
  now: Date,
): Promise<void> {
  await ctx.events.emit(
    trx,
    {
      name: 'fork',
      orgId: input.owner.type === 'Organization' ? input.owner.id : null,
      repositoryId: input.repo.id,
      senderId: input.sender.id,
      payload: forkEventPayload({ ...input, urls: ctx.urls.root }),
    },
    now,
  );
}

/**
 * GET /repos/{owner}/{repo}/forks: the repository's direct forks the caller may see (public ones, and private ones of
 * the caller's own account and organizations when the token reaches private repositories), newest first by default.
 */
export async function listForks(
  ctx: ServiceContext,
  ownerLogin: string,
  repoName: string,
  sort: ForkSort,
  paging: Paging,
): Promise<ListResult> {
  const { repo } = await resolveRepository(ctx, ownerLogin, repoName, 301);
  const actor = ctx.actor;
  const privateOwnerIds = actor && tokenSeesPrivate(actor) ? [actor.user.id, ...(await organizationIdsOf(ctx.db, actor.user.id))] : [];
  const { rows, total } = await listForkRows(ctx.db, {
    parentId: repo.id,
    privateOwnerIds,
    sort,
    offset: paging.offset,
    limit: paging.perPage,
  });
  const items = await present(ctx.db, actor, rows);
  return { items, total };
}

/** A repository of the fork's network as its full object names it. */
interface NetworkMember {
  repo: RepositoryRow;
  owner: UserRow;
}

/** A fork's parent and source (those the caller may read) and the number of forks in its network (GitHub's `network_count`). */
export interface Network {
  parent?: NetworkMember;
  source?: NetworkMember;
  count: number;
}

/** The network of a repository, for its full object (GET /repos/{owner}/{repo} and the answers of create, update, fork). */
export async function networkOf(ctx: ServiceContext, repo: RepositoryRow): Promise<Network> {
  const root = networkRoot(repo);
  if (repo.parent_id === null && repo.forks_count === 0) return { count: 0 };
  const member = async (id: number | null): Promise<NetworkMember | undefined> => {
    const row = id === null ? undefined : await findRepositoryById(ctx.db, id);
    const owner = row ? await findAccountById(ctx.db, row.owner_id) : undefined;
    return row && owner && atLeast(await effectiveAccess(ctx.db, ctx.actor, row, owner), 'read') ? { repo: row, owner } : undefined;
  };
  return { parent: await member(repo.parent_id), source: await member(repo.source_id), count: await countNetwork(ctx.db, root) };
}
