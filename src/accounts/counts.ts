// Counts shown on account profiles (public_repos, public_gists, …): the sum of what the areas that own the counted things
// contribute (their `profileCounts`); a count no area contributes is 0.
import type { ProfileCounts } from '../core/contributions.js';
import type { ServiceContext } from '../core/context.js';
import type { UserRow } from '../db/schema.js';

/**
 * The profile counts of every account given, by id, in a number of queries that does not grow with their number.
 * @param own true when each account reads its own profile (private counts are then real).
 */
export async function accountsCounts(ctx: ServiceContext, accounts: readonly UserRow[], own: boolean): Promise<Map<number, ProfileCounts>> {
  const parts = await Promise.all(ctx.accounts.profileCounts.map((counts) => counts(ctx.db, accounts, own)));
  return new Map(
    accounts.map((a) => [
      a.id,
      Object.assign(
        { public_repos: 0, public_gists: 0, private_gists: 0, owned_private_repos: 0, total_private_repos: 0 },
        ...parts.map((p) => p.get(a.id)),
      ),
    ]),
  );
}

/** @param own true when the caller is reading their own profile (private counts are then real). */
export async function accountCounts(ctx: ServiceContext, account: UserRow, own: boolean): Promise<ProfileCounts> {
  return (await accountsCounts(ctx, [account], own)).get(account.id)!;
}
