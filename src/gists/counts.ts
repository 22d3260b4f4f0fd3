// Gist counts on account profiles: public_gists for everyone, private_gists (secret gists) for the owner only.
import type { ProfileCountsOf } from '../app/contributions.js';
import { countGists } from './store.js';

export const gistProfileCounts: ProfileCountsOf = async (db, account, own) => {
  if (account.type !== 'User') return { public_gists: 0, private_gists: 0 };
  const [publicGists, secretGists] = await Promise.all([countGists(db, account.id, true), own ? countGists(db, account.id, false) : 0]);
  return { public_gists: publicGists, private_gists: secretGists };
};
