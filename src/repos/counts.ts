// Repository counts on account profiles: public_repos for everyone, private counts for the account itself.
import type { UserRow } from '../db/schema.js';
import type { ServiceContext } from '../app/context.js';
import { countRepositories } from './store.js';

/**
 * `public_repos` of an account; with `own` (the account reading its own profile), `owned_private_repos` (private
 * repositories it owns) and `total_private_repos` (those plus the private repositories of its organizations).
 */
export async function repositoryProfileCounts(ctx: ServiceContext, account: UserRow, own: boolean) {
  const mine = await countRepositories(ctx.db, account.id);
  let orgPrivate = 0;
  if (own) {
    const rows = await ctx.db
      .selectFrom('repositories as r')
      .innerJoin('memberships as m', 'm.org_id', 'r.owner_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('m.user_id', '=', account.id)
      .where('r.visibility', '=', 'private')
      .executeTakeFirstOrThrow();
    orgPrivate = Number(rows.n);
  }
  return {
    public_repos: mine.public,
    owned_private_repos: own ? mine.private : 0,
    total_private_repos: own ? mine.private + orgPrivate : 0,
  };
}
