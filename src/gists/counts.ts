// Gist counts on account profiles (public_gists for everyone, private_gists (secret gists) for the owner only) and the
// instance's gist and gist comment statistics.
import { sql } from 'kysely';
import type { EnterpriseStatsOf, ProfileCountsOf } from '../core/contributions.js';
import { countGists } from './store.js';

export const gistProfileCounts: ProfileCountsOf = async (db, accounts, own) => {
  const users = accounts.filter((a) => a.type === 'User').map((a) => a.id);
  const counts = await countGists(db, users, !own);
  return new Map(
    accounts.map((a) => [a.id, { public_gists: counts.get(a.id)?.public ?? 0, private_gists: own ? (counts.get(a.id)?.secret ?? 0) : 0 }]),
  );
};

/** GitHub Enterprise's `gists` statistics (secret gists are its private ones) and `comments.total_gist_comments`. */
export const gistStats: EnterpriseStatsOf = async (db) => {
  const [gists, comments] = await Promise.all([
    db
      .selectFrom('gists')
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>(sql`case when public = 1 then 1 end`).as('public')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('gist_comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number(gists.total);
  const pub = Number(gists.public);
  return {
    gists: { total_gists: total, private_gists: total - pub, public_gists: pub },
    comments: { total_gist_comments: Number(comments.n) },
  };
};
