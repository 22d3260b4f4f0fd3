// Checking a person's password at sign-in: found by login or email address, throttled per account name and per client
// address, with the same answer and the same work (one scrypt) whether or not the account exists.
import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { findAccount } from './store.js';
import { clearFailures, isThrottled, recordFailure, type ThrottleRule } from './throttle.js';

const WINDOW_MS = 15 * 60 * 1000;
/** Wrong passwords for one account name in 15 minutes before sign-in is refused (whatever the password). */
const ACCOUNT_RULE: ThrottleRule = { limit: 10, windowMs: WINDOW_MS };
/** Wrong passwords from one client address in 15 minutes (names guessed across accounts). */
const ADDRESS_RULE: ThrottleRule = { limit: 50, windowMs: WINDOW_MS };

/** A refusal names the account the name belongs to when there is one (the audit log's `user.failed_login`). */
export type SignInCheck = { ok: true; user: UserRow } | { ok: false; reason: 'invalid' | 'throttled' | 'suspended'; account?: UserRow };

/** A user by login, or by email address when the name holds an `@` (organizations never sign in). */
async function findPerson(db: Db, name: string): Promise<UserRow | undefined> {
  if (name.length > 320 || name.includes('\0')) return undefined;
  const user = name.includes('@')
    ? await db
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(email)`, '=', name.toLowerCase())
        .where('type', '=', 'User')
        .orderBy('id')
        .executeTakeFirst()
    : await findAccount(db, name);
  return user?.type === 'User' ? user : undefined;
}

/** Decoy hashes by cost (one in practice: the configured cost does not change while a process runs). */
const decoys = new Map<number, Promise<string>>();

/** A hash checked when there is no account or no password, so that an unknown name costs what a known one does. */
function decoyHash(cost: number): Promise<string> {
  let decoy = decoys.get(cost);
  if (!decoy) {
    decoy = hashPassword('hublet decoy password, never valid', cost);
    decoys.set(cost, decoy);
  }
  return decoy;
}

/** The user whose password this is, or why not; failures count toward throttling, a success clears its account's. */
export async function checkPassword(
  db: Db,
  input: { name: string; password: string; address: string; cost: number },
  now: Date,
): Promise<SignInCheck> {
  const keys = [
    { key: `login:${input.name.trim().toLowerCase()}`, rule: ACCOUNT_RULE },
    { key: `ip:${input.address}`, rule: ADDRESS_RULE },
  ];
  if (await isThrottled(db, keys, now)) return { ok: false, reason: 'throttled' };
  const user = await findPerson(db, input.name.trim());
  const stored = user ? await db.selectFrom('user_passwords').select('hash').where('user_id', '=', user.id).executeTakeFirst() : undefined;
  const matches = await verifyPassword(input.password, stored?.hash ?? (await decoyHash(input.cost)));
  if (!user || !stored || !matches) {
    await recordFailure(db, keys, now);
    return { ok: false, reason: 'invalid', account: user };
  }
  await clearFailures(db, keys[0].key);
  if (user.suspended_at) return { ok: false, reason: 'suspended' };
  return { ok: true, user };
}
