// What people granted OAuth apps: the scopes an app asked for (GitHub's names; ones hublet does not use, such as
// `workflow`, are kept as GitHub keeps them), the grant recording every scope given so far, the web flow's
// authorization codes (random, stored hashed, single use, 10 minutes, bound to app, user, scopes and redirect URI),
// and the `hlo_` tokens issued for a grant, revoked all at once when the person revokes the app.
import crypto from 'node:crypto';
import type { AuditEntry } from '../core/contributions.js';
import { isKnownScope } from '../core/scopes.js';
import type { Db } from '../db/connect.js';
import { lockRows } from '../db/dialect.js';
import type { UserRow } from '../db/schema.js';
import type { OauthAppRow } from '../db/tables/sign-in.js';
import { normalRedirectUri } from './oauth-apps.js';
import { createToken } from './tokens.js';

/** A web flow code is good this long (GitHub: "The temporary code will expire after 10 minutes"). */
const CODE_LIFETIME_MS = 10 * 60 * 1000;
/** GitHub keeps ten tokens per user, app and scopes; an eleventh revokes the oldest. */
const TOKENS_PER_GRANT = 10;

/**
 * The scopes of a `scope` parameter (space-delimited, as GitHub documents; commas too): GitHub's known scopes,
 * each once, sorted; names GitHub does not know are dropped, as GitHub drops them.
 */
export function parseScopes(raw: string): string[] {
  const names = raw.length > 4000 ? [] : raw.split(/[\s,]+/).filter((s) => s !== '' && isKnownScope(s));
  return [...new Set(names)].sort();
}

/** Scopes as the token endpoint answers them: `repo,gist`. */
export function scopeList(scopes: readonly string[]): string {
  return scopes.join(',');
}

function hashCode(code: string): string {
  return crypto.hash('sha256', code, 'hex');
}

/** The scopes a person has granted an app so far, or undefined when they never authorized it (or revoked it). */
export async function grantedScopes(db: Db, userId: number, appId: number): Promise<string[] | undefined> {
  const row = await db
    .selectFrom('oauth_authorizations')
    .select('scopes')
    .where('user_id', '=', userId)
    .where('app_id', '=', appId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.scopes) as string[]) : undefined;
}

export interface IssueInput {
  userId: number;
  appId: number;
  scopes: readonly string[];
}

/** What recording a grant changed: whether it is new, and its scopes before and now. */
interface GrantChange {
  appId: number;
  userId: number;
  created: boolean;
  scopes: string[];
  scopesWere: string[];
}

/**
 * The audit entry of a person authorizing an app (`create`, the scopes now and before) or revoking it (`destroy`): the
 * person is the actor; the app is named by its id, name and client id, never its secret.
 */
export function oauthAuthorizationEntry(
  verb: 'create' | 'destroy',
  app: Pick<OauthAppRow, 'id' | 'name' | 'client_id'>,
  user: UserRow,
  scopes: readonly string[],
  scopesWere?: readonly string[],
): AuditEntry {
  return {
    action: `oauth_authorization.${verb}`,
    actor: user,
    user,
    fields: {
      oauth_application_id: app.id,
      oauth_application_name: app.name,
      client_id: app.client_id,
      scopes: scopeList(scopes),
      ...(scopesWere?.length ? { scopes_were: scopeList(scopesWere) } : {}),
    },
  };
}

/** Called in the transaction that authorizes an app anew or with more scopes (the audit log's `oauth_authorization.create`). */
export type OnGrant = (trx: Db, change: GrantChange) => Promise<void>;

/**
 * Inside a transaction: the person's grant to the app gains the scopes (made when they approve, as GitHub lists an app
 * as authorized from then on, and again when a token is issued). `onGrant` hears of a grant that is new or grew.
 */
export async function recordGrantIn(trx: Db, input: IssueInput, at: Date, onGrant?: OnGrant): Promise<void> {
  // Grants of one person are written one at a time: the union below is then never computed from a stale read.
  await lockRows(trx, 'users', [input.userId]);
  const existing = await grantedScopes(trx, input.userId, input.appId);
  const before = existing ?? [];
  const scopes = [...new Set([...before, ...input.scopes])].sort();
  const union = JSON.stringify(scopes);
  const stamp = at.toISOString();
  await trx
    .insertInto('oauth_authorizations')
    .values({ user_id: input.userId, app_id: input.appId, scopes: union, created_at: stamp, updated_at: stamp })
    .onConflict((oc) => oc.columns(['user_id', 'app_id']).doUpdateSet({ scopes: union, updated_at: stamp }))
    .execute();
  if (onGrant && (existing === undefined || scopes.length > before.length))
    await onGrant(trx, { appId: input.appId, userId: input.userId, created: existing === undefined, scopes, scopesWere: before });
}

/** Inside a transaction: the grant gains the scopes, a new `hlo_` token carries them, the oldest beyond ten are revoked. */
export async function issueAppTokenIn(trx: Db, input: IssueInput, at: Date): Promise<{ token: string; tokenId: number }> {
  await recordGrantIn(trx, input, at);
  const stamp = at.toISOString();
  const { row, token } = await createToken(trx, {
    userId: input.userId,
    kind: 'oauth',
    appId: input.appId,
    scopes: [...input.scopes],
    now: at,
  });
  const surplus = await trx
    .selectFrom('tokens')
    .select('id')
    .where('user_id', '=', input.userId)
    .where('app_id', '=', input.appId)
    .where('scopes', '=', row.scopes)
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1000)
    .offset(TOKENS_PER_GRANT)
    .execute();
  if (surplus.length) {
    await trx
      .updateTable('tokens')
      .set({ revoked_at: stamp })
      .where(
        'id',
        'in',
        surplus.map((r) => r.id),
      )
      .execute();
  }
  return { token, tokenId: row.id };
}

/**
 * The person approved: the grant records the scopes, and a new authorization code for the web flow is made (20
 * hexadecimal characters, as GitHub's); only its hash is kept.
 */
export async function createAuthorizationCode(
  db: Db,
  input: IssueInput & { redirectUri: string },
  at: Date,
  onGrant?: OnGrant,
): Promise<string> {
  const code = crypto.randomBytes(10).toString('hex');
  // Codes past their life are of no use to anyone: they go as new ones come.
  await db
    .deleteFrom('oauth_codes')
    .where('expires_at', '<', new Date(at.getTime() - CODE_LIFETIME_MS).toISOString())
    .execute();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('oauth_codes')
      .values({
        code_hash: hashCode(code),
        app_id: input.appId,
        user_id: input.userId,
        scopes: JSON.stringify(input.scopes),
        redirect_uri: input.redirectUri,
        created_at: at.toISOString(),
        expires_at: new Date(at.getTime() + CODE_LIFETIME_MS).toISOString(),
        used_at: null,
        token_id: null,
      })
      .execute();
    await recordGrantIn(trx, input, at, onGrant);
  });
  return code;
}

export type Redemption =
  | { ok: true; token: string; scopes: string[] }
  | { ok: false; error: 'bad_verification_code' | 'redirect_uri_mismatch' };

/**
 * Exchanges a web flow code for a token, once. A code of another app, unknown, expired or used is a bad verification
 * code; a used one presented again also revokes the token it was exchanged for (RFC 6749 §4.1.2). A `redirect_uri`
 * given must be the one the code was issued for.
 */
export async function redeemAuthorizationCode(
  db: Db,
  input: { app: OauthAppRow; code: string; redirectUri: string },
  at: Date,
): Promise<Redemption> {
  const bad = { ok: false, error: 'bad_verification_code' } as const;
  if (!/^[0-9a-f]{20}$/.test(input.code)) return bad;
  const hash = hashCode(input.code);
  const row = await db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();
  if (!row || row.app_id !== input.app.id) return bad;
  if (row.used_at) {
    if (row.token_id !== null)
      await db
        .updateTable('tokens')
        .set({ revoked_at: at.toISOString() })
        .where('id', '=', row.token_id)
        .where('revoked_at', 'is', null)
        .execute();
    return bad;
  }
  if (Date.parse(row.expires_at) <= at.getTime()) return bad;
  if (input.redirectUri !== '' && normalRedirectUri(input.redirectUri) !== row.redirect_uri)
    return { ok: false, error: 'redirect_uri_mismatch' };
  const scopes = JSON.parse(row.scopes) as string[];
  return db.transaction().execute(async (trx) => {
    // Two exchanges of one code at once: the one whose update finds it unused wins, the other is refused.
    const claimed = await trx
      .updateTable('oauth_codes')
      .set({ used_at: at.toISOString() })
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return bad;
    const issued = await issueAppTokenIn(trx, { userId: row.user_id, appId: row.app_id, scopes }, at);
    await trx.updateTable('oauth_codes').set({ token_id: issued.tokenId }).where('code_hash', '=', hash).execute();
    return { ok: true, token: issued.token, scopes };
  });
}

export interface AuthorizedApp {
  app: OauthAppRow;
  scopes: string[];
  authorizedAt: string;
}

/** The apps a person has authorized (and not revoked), most recently authorized first. */
export async function authorizedApps(db: Db, userId: number): Promise<AuthorizedApp[]> {
  const rows = await db
    .selectFrom('oauth_authorizations as g')
    .innerJoin('oauth_apps as a', 'a.id', 'g.app_id')
    .selectAll('a')
    .select(['g.scopes as granted', 'g.updated_at as authorized_at'])
    .where('g.user_id', '=', userId)
    .orderBy('g.updated_at', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  return rows.map(({ granted, authorized_at, ...app }) => ({ app, scopes: JSON.parse(granted) as string[], authorizedAt: authorized_at }));
}

/**
 * A person revokes an app: its grant goes, every token it holds for them is revoked at once, and codes not yet
 * exchanged (web flow codes, approved device codes) can no longer become tokens. False when there was no grant.
 * `onRevoked` runs in the same transaction when a grant went (the audit log's `oauth_authorization.destroy`).
 */
export async function revokeGrant(
  db: Db,
  userId: number,
  appId: number,
  at: Date,
  onRevoked?: (trx: Db, scopes: string[]) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockRows(trx, 'users', [userId]);
    const scopes = (await grantedScopes(trx, userId, appId)) ?? [];
    const deleted = await trx
      .deleteFrom('oauth_authorizations')
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .executeTakeFirst();
    await trx
      .updateTable('tokens')
      .set({ revoked_at: at.toISOString() })
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .where('revoked_at', 'is', null)
      .execute();
    await trx.deleteFrom('oauth_codes').where('user_id', '=', userId).where('app_id', '=', appId).where('used_at', 'is', null).execute();
    await trx
      .updateTable('device_codes')
      .set({ state: 'denied' })
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .where('state', '=', 'approved')
      .execute();
    const revoked = Number(deleted.numDeletedRows) > 0;
    if (revoked && onRevoked) await onRevoked(trx, scopes);
    return revoked;
  });
}
