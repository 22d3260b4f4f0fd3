// The built-in site admin `admin`: made at start by `serve` and the CLI's local mode, with its first token (the
// one-time token printed on a fresh data dir, or HUBLET_ADMIN_TOKEN registered), once across processes.
import { lockForTransaction } from '../db/advisory-lock.js';
import type { Db } from '../db/connect.js';
import { isUniqueViolation } from '../db/dialect.js';
import type { UserRow } from '../db/schema.js';
import { findAccount, insertAccount } from './store.js';
import { createToken, hashToken } from './tokens.js';

export const ADMIN_LOGIN = 'admin';

/** The bootstrap admin token's scopes: every top-level scope (each implies its children). */
export const ADMIN_SCOPES = [
  'repo',
  'admin:org',
  'admin:org_hook',
  'admin:repo_hook',
  'gist',
  'user',
  'delete_repo',
  'workflow',
  'site_admin',
];

/** Makes sure the site admin `admin` exists (the CLI's local mode and `serve` both call this). */
export async function ensureAdmin(db: Db, now: Date): Promise<UserRow> {
  const once = () =>
    db.transaction().execute(async (trx) => {
      const existing = await findAccount(trx, ADMIN_LOGIN);
      return existing ?? insertAccount(trx, { login: ADMIN_LOGIN, type: 'User', siteAdmin: true }, now);
    });
  try {
    return await once();
  } catch (err) {
    // Another process (a second server, the CLI) created it at the same moment: it is there now.
    if (isUniqueViolation(err)) return once();
    throw err;
  }
}

/**
 * The token `serve` prints at start: `HUBLET_ADMIN_TOKEN` is registered when not known yet; otherwise a token with
 * every scope is issued only while the admin has never had one (a one-time token on a fresh data dir).
 */
export async function bootstrapAdminToken(db: Db, now: Date, fixed?: string): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    // Servers starting together on one database take turns (an advisory lock, as the row may not exist yet), so the
    // admin is made, and the token registered (or issued), once; the one after finds them.
    await lockForTransaction(trx, 'site-admin');
    const admin =
      (await findAccount(trx, ADMIN_LOGIN)) ?? (await insertAccount(trx, { login: ADMIN_LOGIN, type: 'User', siteAdmin: true }, now));
    if (fixed) {
      const known = await trx.selectFrom('tokens').select('id').where('token_hash', '=', hashToken(fixed)).executeTakeFirst();
      if (!known)
        await createToken(trx, { userId: admin.id, kind: 'classic', scopes: ADMIN_SCOPES, note: 'HUBLET_ADMIN_TOKEN', now, token: fixed });
      return undefined;
    }
    const any = await trx.selectFrom('tokens').select('id').where('user_id', '=', admin.id).executeTakeFirst();
    if (any) return undefined;
    const { token } = await createToken(trx, { userId: admin.id, kind: 'classic', scopes: ADMIN_SCOPES, note: 'bootstrap', now });
    return token;
  });
}
