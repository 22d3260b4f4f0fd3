// Fork rows: a fork's network (parent, source), the forks of a repository listed and counted, the free name a fork
// takes, and the re-parenting a deleted repository's forks need.
import type { Db } from '../db/connect.js';
import type { RepositoryRow } from '../db/tables/repos.js';

/** GET /repos/{owner}/{repo}/forks' orders (hublet counts no stars or watchers: those two keep the newest first). */
export type ForkSort = 'newest' | 'oldest' | 'stargazers' | 'watchers';

/** The root of a repository's network: its source when it is a fork, itself otherwise. */
export function networkRoot(repo: RepositoryRow): number {
  return repo.source_id ?? repo.id;
}

/** The oldest repository `ownerId` holds in the network rooted at `rootId` (the root itself or any fork of it), if any. */
export function findInNetwork(db: Db, ownerId: number, rootId: number): Promise<RepositoryRow | undefined> {
  return db
    .selectFrom('repositories')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where((eb) => eb.or([eb('id', '=', rootId), eb('source_id', '=', rootId)]))
    .orderBy('id')
    .executeTakeFirst();
}

/** The number of forks in the network rooted at `rootId`. */
export async function countNetwork(db: Db, rootId: number): Promise<number> {
  const { n } = await db
    .selectFrom('repositories')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('source_id', '=', rootId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * The first of `name`, `name-1`, `name-2`, … that no repository of `ownerId` has (GitHub's rule for a fork whose name
 * is taken), each candidate cut to `maxLength` before its suffix; undefined when the first hundred are all taken.
 */
export async function freeForkName(db: Db, ownerId: number, name: string, maxLength: number): Promise<string | undefined> {
  const candidates = [name, ...Array.from({ length: 99 }, (_, i) => `${name.slice(0, maxLength - `-${i + 1}`.length)}-${i + 1}`)];
  const taken = new Set(
    (
      await db
        .selectFrom('repositories')
        .select('name_lower')
        .where('owner_id', '=', ownerId)
        .where(
          'name_lower',
          'in',
          candidates.map((c) => c.toLowerCase()),
        )
        .execute()
    ).map((r) => r.name_lower),
  );
  return candidates.find((c) => !taken.has(c.toLowerCase()));
}

/** Sets each repository's `forks_count` to the number of its direct forks (updated_at untouched, as on GitHub). */
export async function recountForks(db: Db, ids: readonly (number | null)[]): Promise<void> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return;
  await db
    .updateTable('repositories')
    .set((eb) => ({
      forks_count: eb
        .selectFrom('repositories as f')
        .select((f) => f.fn.countAll<number>().as('n'))
        .whereRef('f.parent_id', '=', 'repositories.id'),
    }))
    .where('id', 'in', wanted)
    .execute();
}

/**
 * Before `repo` is deleted, its forks find a new place in the network as GitHub gives them one: a fork's forks move up to
 * its parent; a root's oldest fork becomes the new root, the root's other forks its forks, and the whole network takes
 * it as source. Counts are brought up to date (the deleted repository's parent's is recounted by the caller after).
 */
export async function reparentForks(db: Db, repo: RepositoryRow): Promise<void> {
  if (repo.parent_id !== null) {
    await db.updateTable('repositories').set({ parent_id: repo.parent_id }).where('parent_id', '=', repo.id).execute();
    await recountForks(db, [repo.parent_id]);
    return;
  }
  const heir = await db.selectFrom('repositories').selectAll().where('parent_id', '=', repo.id).orderBy('id').executeTakeFirst();
  if (!heir) return;
  await db.updateTable('repositories').set({ parent_id: null, source_id: null }).where('id', '=', heir.id).execute();
  await db.updateTable('repositories').set({ parent_id: heir.id }).where('parent_id', '=', repo.id).execute();
  await db.updateTable('repositories').set({ source_id: heir.id }).where('source_id', '=', repo.id).execute();
  await recountForks(db, [heir.id]);
}

export interface ForkListQuery {
  parentId: number;
  /** Private forks only of these owners (the caller may read them). */
  privateOwnerIds: number[];
  sort: ForkSort;
  offset: number;
  limit: number;
}

/** One page of a repository's direct forks the caller may see, and their number. */
export async function listForkRows(db: Db, q: ForkListQuery): Promise<{ rows: RepositoryRow[]; total: number }> {
  const base = db
    .selectFrom('repositories')
    .where('parent_id', '=', q.parentId)
    .where((eb) => {
      const visible = [eb('visibility', '=', 'public')];
      if (q.privateOwnerIds.length) visible.push(eb('owner_id', 'in', q.privateOwnerIds));
      return eb.or(visible);
    });
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const dir = q.sort === 'oldest' ? 'asc' : 'desc';
  const rows = await base.selectAll().orderBy('created_at', dir).orderBy('id', dir).offset(q.offset).limit(q.limit).execute();
  return { rows, total: Number(n) };
}
