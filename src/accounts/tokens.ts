// Access tokens: generated with a kind-specific prefix, stored only as SHA-256 hashes, matched in constant time.
import crypto from 'node:crypto';
import type { Db } from '../db/connect.js';
import type { TokenRow, UserRow } from '../db/schema.js';
import { changeStamp } from '../db/change-stamp.js';
import type { TokenKind } from '../core/grants.js';

export const TOKEN_KINDS: Readonly<Record<TokenKind, string>> = {
  classic: 'hlp_',
  fine_grained: 'hublet_pat_',
  oauth: 'hlo_',
  app_user: 'hlu_',
  installation: 'hls_',
};

export function isTokenKind(v: string): v is TokenKind {
  return v in TOKEN_KINDS;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new random token: prefix + 36 base62 characters (~214 bits). */
function generateToken(kind: TokenKind): string {
  const bytes = crypto.randomBytes(36);
  let body = '';
  for (const b of bytes) body += ALPHABET[b % ALPHABET.length];
  return TOKEN_KINDS[kind] + body;
}

export function hashToken(token: string): string {
  return crypto.hash('sha256', token, 'hex');
}

export interface NewTokenInput {
  userId: number;
  kind: TokenKind;
  scopes?: string[];
  permissions?: Record<string, string>;
  appId?: number | null;
  note?: string | null;
  expiresAt?: string | null;
  now: Date;
  /** Use this exact token (the admin bootstrap token from HUBLET_ADMIN_TOKEN). */
  token?: string;
}

/** Stores a new token's hash and returns the row with the only copy of the token itself. */
export async function createToken(db: Db, input: NewTokenInput): Promise<{ row: TokenRow; token: string }> {
  const token = input.token ?? generateToken(input.kind);
  const row = await db
    .insertInto('tokens')
    .values({
      user_id: input.userId,
      kind: input.kind,
      token_hash: hashToken(token),
      token_last_eight: token.slice(-8),
      scopes: JSON.stringify(input.scopes ?? []),
      permissions: JSON.stringify(input.permissions ?? {}),
      app_id: input.appId ?? null,
      note: input.note ?? null,
      created_at: input.now.toISOString(),
      expires_at: input.expiresAt ?? null,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, token };
}

/** The token row with this hash and its user, in one query (a join; token columns prefixed `t_`). */
async function readToken(db: Db, hash: string): Promise<{ token: TokenRow; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .select([
      't.id as t_id',
      't.user_id as t_user_id',
      't.kind as t_kind',
      't.token_hash as t_token_hash',
      't.token_last_eight as t_token_last_eight',
      't.scopes as t_scopes',
      't.permissions as t_permissions',
      't.app_id as t_app_id',
      't.note as t_note',
      't.created_at as t_created_at',
      't.expires_at as t_expires_at',
      't.revoked_at as t_revoked_at',
    ])
    .where('t.token_hash', '=', hash)
    .executeTakeFirst();
  // The index finds the row by hash; compare again in constant time so the decision never depends on a byte-wise compare.
  if (!row || !crypto.timingSafeEqual(Buffer.from(row.t_token_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
  const token: TokenRow = {
    id: row.t_id,
    user_id: row.t_user_id,
    kind: row.t_kind,
    token_hash: row.t_token_hash,
    token_last_eight: row.t_token_last_eight,
    scopes: row.t_scopes,
    permissions: row.t_permissions,
    app_id: row.t_app_id,
    note: row.t_note,
    created_at: row.t_created_at,
    expires_at: row.t_expires_at,
    revoked_at: row.t_revoked_at,
  };
  const user: UserRow = {
    id: row.id,
    login: row.login,
    login_lower: row.login_lower,
    type: row.type,
    name: row.name,
    email: row.email,
    company: row.company,
    blog: row.blog,
    location: row.location,
    bio: row.bio,
    site_admin: row.site_admin,
    members_can_create_repositories: row.members_can_create_repositories,
    created_at: row.created_at,
    updated_at: row.updated_at,
    suspended_at: row.suspended_at,
  };
  return { token, user };
}

/**
 * Tokens looked up lately, one cache per app: every authenticated request needs its token and user, and this saves that
 * query (one in six of GET /gists/{id}). An entry counts only while the database's change stamp (db/change-stamp.ts) is
 * the one taken before its lookup: any commit since, by this process or another sharing the database (more servers,
 * the CLI's local mode), drops it, so a revocation, a deleted, suspended or renamed user is seen by the very next
 * request in every process. The stamp costs one pread per event-loop turn on SQLite and one batched query on PostgreSQL.
 */
const TOKEN_CACHE_MAX = 10_000;

/** A token row, its user and what the caller makes of them (the actor), all frozen and shared by the requests that hit. */
export interface FoundToken<T> {
  token: TokenRow;
  user: UserRow;
  derived: T;
}

interface CachedToken<T> extends FoundToken<T> {
  /** The change stamp taken before the read. */
  stamp: string;
}

/** Finds live tokens by the presented secret; `derive` builds, once per read row, what the caller keeps of it. */
export class TokenCache<T> {
  private readonly entries = new Map<string, CachedToken<T>>();

  constructor(private readonly derive: (user: UserRow, token: TokenRow) => T) {}

  /**
   * The live token for a presented secret; revoked, expired or unknown tokens are undefined. `stamp`, when given, is a
   * change stamp taken after the request arrived (else one is taken here).
   */
  async lookup(db: Db, presented: string, now: Date, stamp?: string): Promise<FoundToken<T> | undefined> {
    const found = await this.read(db, hashToken(presented), stamp ?? (await changeStamp(db)));
    if (!found) return undefined;
    if (found.token.revoked_at) return undefined;
    if (found.token.expires_at && Date.parse(found.token.expires_at) <= now.getTime()) return undefined;
    return found;
  }

  private async read(db: Db, hash: string, stamp: string): Promise<FoundToken<T> | undefined> {
    const hit = this.entries.get(hash);
    // The rows are frozen: every request holding them shares them, and nothing may change a cached row.
    if (hit && hit.stamp === stamp) return hit;
    const found = this.fresh(await readToken(db, hash));
    this.entries.delete(hash);
    if (!found) return undefined;
    if (this.entries.size >= TOKEN_CACHE_MAX) this.entries.delete(this.entries.keys().next().value as string);
    const entry = { stamp, ...found };
    this.entries.set(hash, entry);
    return entry;
  }

  private fresh(found: { token: TokenRow; user: UserRow } | undefined): FoundToken<T> | undefined {
    if (!found) return undefined;
    const token = Object.freeze(found.token);
    const user = Object.freeze(found.user);
    return { token, user, derived: this.derive(user, token) };
  }
}

export function revokeUserTokens(db: Db, userId: number, now: Date): Promise<TokenRow[]> {
  return db
    .updateTable('tokens')
    .set({ revoked_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .execute();
}

/** A user's tokens that were not revoked, oldest first, one page of them and the total. */
export async function listLiveTokens(
  db: Db,
  userId: number,
  page: { offset: number; perPage: number },
): Promise<{ rows: TokenRow[]; total: number }> {
  const live = db.selectFrom('tokens').where('user_id', '=', userId).where('revoked_at', 'is', null);
  const rows = await live.selectAll().orderBy('id').limit(page.perPage).offset(page.offset).execute();
  const count = await live.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}
