// Repository counts on account profiles (public_repos for everyone, private counts for the account itself) and the
// instance's repository statistics.
import { sql } from 'kysely';
import type { EnterpriseStatsOf, ProfileCountsOf } from '../core/contributions.js';
import { countOrganizationPrivateRepositories, countRepositories } from './store.js';

/**
 * `public_repos` of each account; with `own` (the account reading its own profile), `owned_private_repos` (private
 * repositories it owns) and `total_private_repos` (those plus the private repositories of its organizations).
 */
export const repositoryProfileCounts: ProfileCountsOf = async (db, accounts, own) => {
  const ids = accounts.map((a) => a.id);
  const [mine, orgPrivate] = await Promise.all([
    countRepositories(db, ids),
    own ? countOrganizationPrivateRepositories(db, ids) : new Map<number, number>(),
  ]);
  return new Map(
    ids.map((id) => {
      const m = mine.get(id)!;
      return [
        id,
        {
          public_repos: m.public,
          owned_private_repos: own ? m.private : 0,
          total_private_repos: own ? m.private + (orgPrivate.get(id) ?? 0) : 0,
        },
      ];
    }),
  );
};

/** GitHub Enterprise's `repos` statistics: hublet has no forks nor wikis and counts no pushes (0). */
export const repositoryStats: EnterpriseStatsOf = async (db) => {
  const row = await db
    .selectFrom('repositories')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.count<number>(sql`case when owner_id in (select id from users where type = 'Organization') then 1 end`).as('org'),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(row.total);
  return { repos: { total_repos: total, root_repos: total, fork_repos: 0, org_repos: Number(row.org), total_pushes: 0, total_wikis: 0 } };
};
