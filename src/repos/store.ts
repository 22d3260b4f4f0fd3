// Repository rows: lookups by owner and name (case-insensitive), by id, listing, insert, update, delete, redirects.
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/connect.js';
import type { RepositoriesTable, RepositoryRow } from '../db/tables/repos.js';
import { plausibleName } from './names.js';

export type NewRepository = Insertable<RepositoriesTable>;
export type RepositoryChanges = Updateable<RepositoriesTable>;

/** The repository `owner/name` as it is now (names are not case sensitive). */
export async function findRepository(db: Db, ownerId: number, name: string): Promise<RepositoryRow | undefined> {
  if (!plausibleName(name)) return undefined;
  return db
    .selectFrom('repositories')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('name_lower', '=', name.toLowerCase())
    .executeTakeFirst();
}

export async function findRepositoryById(db: Db, id: number): Promise<RepositoryRow | undefined> {
  return db.selectFrom('repositories').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Where a renamed repository went: the repository that answered to `owner/name` before. */
export async function findRedirect(db: Db, ownerId: number, name: string): Promise<RepositoryRow | undefined> {
  if (!plausibleName(name)) return undefined;
  return db
    .selectFrom('repository_redirects as r')
    .innerJoin('repositories as repo', 'repo.id', 'r.repository_id')
    .selectAll('repo')
    .where('r.owner_id', '=', ownerId)
    .where('r.name_lower', '=', name.toLowerCase())
    .executeTakeFirst();
}

export async function insertRepository(db: Db, values: NewRepository): Promise<RepositoryRow> {
  // A new repository takes its name back from any redirect a rename left behind.
  await db.deleteFrom('repository_redirects').where('owner_id', '=', values.owner_id).where('name_lower', '=', values.name_lower).execute();
  return db.insertInto('repositories').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateRepository(db: Db, id: number, changes: RepositoryChanges): Promise<RepositoryRow> {
  return db.updateTable('repositories').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteRepository(db: Db, id: number): Promise<void> {
  await db.deleteFrom('repositories').where('id', '=', id).execute();
}

/** Records that `owner/oldName` now means this repository (replacing an older redirect of the same name). */
export async function addRedirect(db: Db, ownerId: number, oldName: string, repositoryId: number, now: Date): Promise<void> {
  const nameLower = oldName.toLowerCase();
  await db.deleteFrom('repository_redirects').where('owner_id', '=', ownerId).where('name_lower', '=', nameLower).execute();
  await db
    .insertInto('repository_redirects')
    .values({ owner_id: ownerId, name_lower: nameLower, repository_id: repositoryId, created_at: now.toISOString() })
    .execute();
}

export type SortKey = 'created' | 'updated' | 'pushed' | 'full_name';

export interface ListQuery {
  /** Repositories of these owners… */
  ownerIds: number[];
  /** …of which private ones only when their owner is in this set (the caller may read them). */
  privateOwnerIds: number[];
  visibility?: 'public' | 'private';
  /** true: forks only; false: sources only (repositories that are no fork). */
  fork?: boolean;
  sort: SortKey;
  direction: 'asc' | 'desc';
  /** Only repositories updated after / before these ISO times. */
  since?: string;
  before?: string;
  offset: number;
  limit: number;
}

/** One page of repositories and the total count, in GitHub's orders (full_name by owner login, then name). */
export async function listRepositories(db: Db, q: ListQuery): Promise<{ rows: RepositoryRow[]; total: number }> {
  if (q.ownerIds.length === 0) return { rows: [], total: 0 };
  let base = db
    .selectFrom('repositories as r')
    .innerJoin('users as o', 'o.id', 'r.owner_id')
    .where('r.owner_id', 'in', q.ownerIds)
    .where((eb) => {
      const visible = [eb('r.visibility', '=', 'public')];
      if (q.privateOwnerIds.length) visible.push(eb('r.owner_id', 'in', q.privateOwnerIds));
      return eb.or(visible);
    });
  if (q.visibility) base = base.where('r.visibility', '=', q.visibility);
  if (q.fork !== undefined) base = base.where('r.parent_id', q.fork ? 'is not' : 'is', null);
  if (q.since) base = base.where('r.updated_at', '>', q.since);
  if (q.before) base = base.where('r.updated_at', '<', q.before);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let rows = base.selectAll('r');
  const dir = q.direction;
  if (q.sort === 'full_name') rows = rows.orderBy('o.login_lower', dir).orderBy('r.name_lower', dir);
  else rows = rows.orderBy(q.sort === 'created' ? 'r.created_at' : q.sort === 'updated' ? 'r.updated_at' : 'r.pushed_at', dir);
  const page = await rows.orderBy('r.id', dir).offset(q.offset).limit(q.limit).execute();
  return { rows: page, total: Number(n) };
}

/** Public repositories with ids above `afterId`, oldest first (GET /repositories pages by id). */
export function listPublicRepositories(db: Db, afterId: number, limit: number): Promise<RepositoryRow[]> {
  return db
    .selectFrom('repositories')
    .selectAll()
    .where('visibility', '=', 'public')
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Counts for profiles: public repositories, and private ones owned by each account, in one query. */
export async function countRepositories(db: Db, ownerIds: readonly number[]): Promise<Map<number, { public: number; private: number }>> {
  const out = new Map(ownerIds.map((id) => [id, { public: 0, private: 0 }]));
  if (!ownerIds.length) return out;
  const rows = await db
    .selectFrom('repositories')
    .select(['owner_id', 'visibility', (eb) => eb.fn.countAll<number>().as('n')])
    .where('owner_id', 'in', [...ownerIds])
    .groupBy(['owner_id', 'visibility'])
    .execute();
  for (const r of rows) {
    const counts = out.get(r.owner_id)!;
    if (r.visibility === 'public' || r.visibility === 'private') counts[r.visibility] = Number(r.n);
  }
  return out;
}

/** The repositories with these ids that exist (any order). */
export function repositoriesByIds(db: Db, ids: readonly number[]): Promise<RepositoryRow[]> {
  return db
    .selectFrom('repositories')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** The ids of an account's repositories. */
export async function repositoryIdsOwnedBy(db: Db, ownerId: number): Promise<number[]> {
  const rows = await db.selectFrom('repositories').select('id').where('owner_id', '=', ownerId).execute();
  return rows.map((r) => r.id);
}

/** Private repositories of the organizations each of these users belongs to, by user. */
export async function countOrganizationPrivateRepositories(db: Db, userIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map(userIds.map((id) => [id, 0]));
  if (!userIds.length) return out;
  const rows = await db
    .selectFrom('repositories as r')
    .innerJoin('memberships as m', 'm.org_id', 'r.owner_id')
    .select(['m.user_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('m.user_id', 'in', [...userIds])
    .where('r.visibility', '=', 'private')
    .groupBy('m.user_id')
    .execute();
  for (const r of rows) out.set(r.user_id, Number(r.n));
  return out;
}
