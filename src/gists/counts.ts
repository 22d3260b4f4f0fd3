// Gist counts on account profiles: public_gists for everyone, private_gists (secret gists) for the owner only.
import type { UserRow } from '../db/schema.js';
import type { ServiceContext } from '../app/context.js';
import { countGists } from './store.js';

export async function gistProfileCounts(ctx: ServiceContext, account: UserRow, own: boolean): Promise<{ public_gists: number; private_gists: number }> {
  if (account.type !== 'User') return { public_gists: 0, private_gists: 0 };
  const [publicGists, secretGists] = await Promise.all([countGists(ctx.db, account.id, true), own ? countGists(ctx.db, account.id, false) : 0]);
  return { public_gists: publicGists, private_gists: secretGists };
}
