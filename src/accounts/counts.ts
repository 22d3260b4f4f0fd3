// Counts shown on account profiles (public_repos, public_gists, …). Areas that own the counted things add them here.
import type { UserRow } from '../db/schema.js';
import type { ServiceContext } from '../app/context.js';
import { repositoryProfileCounts } from '../repos/counts.js';
import { gistProfileCounts } from '../gists/counts.js';

export interface ProfileCounts {
  public_repos: number;
  public_gists: number;
  private_gists: number;
  owned_private_repos: number;
  total_private_repos: number;
}

/** @param own true when the caller is reading their own profile (private counts are then real). */
export async function accountCounts(_ctx: ServiceContext, _account: UserRow, _own: boolean): Promise<ProfileCounts> {
  return { ...(await repositoryProfileCounts(_ctx, _account, _own)), ...(await gistProfileCounts(_ctx, _account, _own)) };
}
