// What the areas keep on disk for an account (git repositories…), so deleting the account removes those files too.
import type { AccountContributions } from '../core/contributions.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';

/** Every area's directories of the account; called inside the deleting transaction, before the rows go. */
export async function filesOwnedBy(
  contributions: AccountContributions,
  db: Db,
  config: Readonly<Config>,
  accountId: number,
): Promise<string[]> {
  const lists = await Promise.all(contributions.files.map((files) => files(db, config, accountId)));
  return lists.flat();
}
