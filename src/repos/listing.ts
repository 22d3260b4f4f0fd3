// Repository lists: the caller's (GET /user/repos), an organization's and a user's, with GitHub's filters and orders.
import type { Actor } from '../core/grants.js';
import { requireActor } from '../core/grants.js';
import { accountsByIds, findAccount, membershipRole, membershipRoles, organizationIdsOf } from '../accounts/store.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { ServiceContext } from '../core/context.js';
import { Forbidden, NotFound, ValidationFailed } from '../core/errors.js';
import type { Paging } from '../http/pagination.js';
import { accessGiven, needsMembership, permissionsFor, tokenSeesPrivate, type AccessLevel } from './access.js';
import type { Permissions } from './present.js';
import type { OrgReposQuery, SortOptions, UserReposForQuery, UserReposQuery } from './schemas.js';
import { listPublicRepositories, listRepositories, type SortKey } from './store.js';
import type { RepositoryRow } from '../db/tables/repos.js';
import { parseTimestamp } from '../core/timestamps.js';

interface ListedRepository {
  repo: RepositoryRow;
  owner: UserRow;
  /** The caller's access and its permissions object; left out for anonymous callers. */
  access?: AccessLevel;
  permissions?: Permissions;
}

export interface ListResult {
  items: ListedRepository[];
  total: number;
}

/** GitHub's default direction: ascending by name, newest first otherwise. */
function order(opts: SortOptions, defaultSort: SortKey): { sort: SortKey; direction: 'asc' | 'desc' } {
  const sort = opts.sort ?? defaultSort;
  return { sort, direction: opts.direction ?? (sort === 'full_name' ? 'asc' : 'desc') };
}

/** Adds owners and the caller's permissions to a page of rows: two queries (owners, the caller's memberships in them). */
export async function present(db: Db, actor: Actor | null, rows: RepositoryRow[]): Promise<ListedRepository[]> {
  const byId = await accountsByIds(
    db,
    rows.map((r) => r.owner_id),
  );
  const orgIds = [...byId.values()].filter(needsMembership).map((o) => o.id);
  const roles = actor ? await membershipRoles(db, actor.user.id, orgIds) : new Map<number, 'admin' | 'member'>();
  return rows.map((repo) => {
    const owner = byId.get(repo.owner_id)!;
    if (!actor) return { repo, owner };
    const access = accessGiven(actor, repo, owner, roles.get(owner.id));
    return { repo, owner, access, permissions: permissionsFor(access) };
  });
}

function isoFilter(field: 'since' | 'before', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const t = parseTimestamp(value);
  if (t === undefined)
    throw new ValidationFailed([{ resource: 'Repository', field, code: 'invalid', message: `${field} must be an ISO 8601 timestamp` }]);
  return new Date(t).toISOString();
}

/**
 * `GET /user/repos`: repositories the caller owns or reaches through organization membership (hublet has no
 * outside collaborators, so `collaborator` adds nothing). Private ones only for tokens that reach private repositories.
 */
export async function listForAuthenticatedUser(
  ctx: ServiceContext,
  q: UserReposQuery,
  paging: Paging,
  fork?: boolean,
): Promise<ListResult> {
  const actor = requireActor(ctx.actor);
  if (actor.kind === 'installation') throw new Forbidden('Resource not accessible by integration');
  if (q.type && (q.visibility || q.affiliation)) {
    throw new ValidationFailed([
      {
        resource: 'Repository',
        field: 'type',
        code: 'invalid',
        message: 'If you specify visibility or affiliation, you cannot specify type.',
      },
    ]);
  }
  let visibility = q.visibility && q.visibility !== 'all' ? q.visibility : undefined;
  let affiliation = new Set(['owner', 'collaborator', 'organization_member']);
  if (q.affiliation !== undefined) {
    const parts = q.affiliation
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = parts.filter((p) => !affiliation.has(p));
    if (unknown.length || parts.length === 0) {
      throw new ValidationFailed([
        {
          resource: 'Repository',
          field: 'affiliation',
          code: 'invalid',
          message: 'affiliation is a comma-separated list of owner, collaborator, organization_member',
        },
      ]);
    }
    affiliation = new Set(parts);
  }
  if (q.type === 'owner') affiliation = new Set(['owner']);
  if (q.type === 'member') affiliation = new Set(['collaborator', 'organization_member']);
  if (q.type === 'public' || q.type === 'private') visibility = q.type;
  const ownerIds: number[] = [];
  if (affiliation.has('owner')) ownerIds.push(actor.user.id);
  if (affiliation.has('organization_member')) ownerIds.push(...(await organizationIdsOf(ctx.db, actor.user.id)));
  const { rows, total } = await listRepositories(ctx.db, {
    ownerIds,
    privateOwnerIds: tokenSeesPrivate(actor) ? ownerIds : [],
    visibility,
    fork,
    ...order(q, 'full_name'),
    since: isoFilter('since', q.since),
    before: isoFilter('before', q.before),
    offset: paging.offset,
    limit: paging.perPage,
  });
  return { items: await present(ctx.db, actor, rows), total };
}

/**
 * `GET /orgs/{org}/repos`: public repositories, and private ones for the organization's members; `type` forks or
 * sources (repositories that are no fork), or `fork` (GraphQL's isFork) likewise.
 */
export async function listForOrg(
  ctx: ServiceContext,
  orgLogin: string,
  q: OrgReposQuery,
  paging: Paging,
  fork?: boolean,
): Promise<ListResult> {
  const org = await findAccount(ctx.db, orgLogin);
  if (org?.type !== 'Organization') throw new NotFound();
  const actor = ctx.actor;
  const member = actor ? (await membershipRole(ctx.db, org.id, actor.user.id)) !== undefined : false;
  const seesPrivate = member && tokenSeesPrivate(actor);
  if (q.type === 'member' && !member) return { items: [], total: 0 };
  const visibility = q.type === 'public' || q.type === 'private' ? q.type : undefined;
  const { rows, total } = await listRepositories(ctx.db, {
    ownerIds: [org.id],
    privateOwnerIds: seesPrivate ? [org.id] : [],
    visibility,
    fork: q.type === 'forks' ? true : q.type === 'sources' ? false : fork,
    ...order(q, 'created'),
    offset: paging.offset,
    limit: paging.perPage,
  });
  return { items: await present(ctx.db, actor, rows), total };
}

/** `GET /users/{username}/repos`: an account's public repositories (and, with type member/all, its organizations'). */
export async function listForUser(
  ctx: ServiceContext,
  login: string,
  q: UserReposForQuery,
  paging: Paging,
  fork?: boolean,
): Promise<ListResult> {
  const account = await findAccount(ctx.db, login);
  if (!account) throw new NotFound();
  const type = q.type ?? 'owner';
  const ownerIds: number[] = [];
  if (type !== 'member') ownerIds.push(account.id);
  if (type !== 'owner' && account.type === 'User') ownerIds.push(...(await organizationIdsOf(ctx.db, account.id)));
  const { rows, total } = await listRepositories(ctx.db, {
    ownerIds,
    privateOwnerIds: [],
    fork,
    ...order(q, 'full_name'),
    offset: paging.offset,
    limit: paging.perPage,
  });
  return { items: await present(ctx.db, ctx.actor, rows), total };
}

/** GET /repositories' page size: GitHub's, fixed (the list pages by `since` alone). */
const PUBLIC_PAGE = 100;
/** Repository ids are 32-bit serials: no repository comes after this one. */
const MAX_REPOSITORY_ID = 2_147_483_647;

/**
 * `GET /repositories`: every public repository, oldest first, after the repository id `since` (absent: from the
 * start). `next` is the `since` of the following page, when there is one.
 */
export async function listPublic(ctx: ServiceContext, since: string | undefined): Promise<{ items: ListedRepository[]; next?: number }> {
  let after = 0;
  if (since !== undefined && since !== '') {
    if (!/^\d+$/.test(since))
      throw new ValidationFailed([{ resource: 'Repository', field: 'since', code: 'invalid', message: 'since must be a repository id' }]);
    after = Math.min(Number(since), MAX_REPOSITORY_ID); // binds as an integer on PostgreSQL, however long the digits
  }
  const rows = await listPublicRepositories(ctx.db, after, PUBLIC_PAGE + 1);
  const page = rows.slice(0, PUBLIC_PAGE);
  const byId = await accountsByIds(
    ctx.db,
    page.map((r) => r.owner_id),
  );
  const items = page.map((repo) => ({ repo, owner: byId.get(repo.owner_id)! }));
  return rows.length > PUBLIC_PAGE ? { items, next: page[page.length - 1].id } : { items };
}
