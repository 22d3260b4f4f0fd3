// Gist counts on account profiles: public_gists for everyone, private_gists (secret gists) for the owner only.
import type { ProfileCountsOf } from '../app/contributions.js';
import { countGists } from './store.js';

export const gistProfileCounts: ProfileCountsOf = async (db, accounts, own) => {
  const users = accounts.filter((a) => a.type === 'User').map((a) => a.id);
  const counts = await countGists(db, users, !own);
  return new Map(accounts.map((a) => [a.id, { public_gists: counts.get(a.id)?.public ?? 0, private_gists: own ? counts.get(a.id)?.secret ?? 0 : 0 }]));
};
