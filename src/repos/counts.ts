// Repository counts on account profiles: public_repos for everyone, private counts for the account itself.
import type { ProfileCountsOf } from '../app/contributions.js';
import { countOrganizationPrivateRepositories, countRepositories } from './store.js';

/**
 * `public_repos` of an account; with `own` (the account reading its own profile), `owned_private_repos` (private
 * repositories it owns) and `total_private_repos` (those plus the private repositories of its organizations).
 */
export const repositoryProfileCounts: ProfileCountsOf = async (db, account, own) => {
  const mine = await countRepositories(db, account.id);
  const orgPrivate = own ? await countOrganizationPrivateRepositories(db, account.id) : 0;
  return {
    public_repos: mine.public,
    owned_private_repos: own ? mine.private : 0,
    total_private_repos: own ? mine.private + orgPrivate : 0,
  };
};
