// What areas keep on disk for an account (git repositories…), so deleting the account removes those files too.
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';

/** Lists the directories an area keeps for an account; called inside the deleting transaction, before the rows go. */
export type AccountFiles = (db: Db, config: Readonly<Config>, accountId: number) => Promise<string[]>;

const providers: AccountFiles[] = [];

/** Registers an area's provider once per process (idempotent for the same function). */
export function onAccountDeleted(provider: AccountFiles): void {
  if (!providers.includes(provider)) providers.push(provider);
}

export async function filesOwnedBy(db: Db, config: Readonly<Config>, accountId: number): Promise<string[]> {
  const lists = await Promise.all(providers.map((p) => p(db, config, accountId)));
  return lists.flat();
}
