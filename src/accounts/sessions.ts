// Web sessions: a random id in the person's cookie, only its SHA-256 hash in `web_sessions`, with an idle and an
// absolute lifetime. A new id at every sign-in (no fixation); signing out, a password change or a suspension ends them.
import crypto from 'node:crypto';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { WebSessionRow } from '../db/tables/sign-in.js';

/** A session ends this long after sign-in, however active. */
export const SESSION_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** …and this long after its last request. */
export const SESSION_IDLE_MS = 7 * 24 * 3600 * 1000;
/** last_seen_at is written at most this often (each write is a commit, which renews every cached page). */
const TOUCH_EVERY_MS = 3600 * 1000;

function hashSessionId(id: string): string {
  return crypto.hash('sha256', id, 'hex');
}

/** Starts a session for `user`; returns the id for the cookie (its only copy). */
export async function startSession(db: Db, userId: number, method: WebSessionRow['method'], now: Date): Promise<string> {
  const id = crypto.randomBytes(32).toString('base64url');
  const at = now.toISOString();
  await db
    .insertInto('web_sessions')
    .values({
      id_hash: hashSessionId(id),
      user_id: userId,
      method,
      created_at: at,
      last_seen_at: at,
      expires_at: new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    })
    .execute();
  return id;
}

export interface LiveSession {
  session: WebSessionRow;
  user: UserRow;
}

/** The live session of a cookie's id with its user: none when unknown, past either lifetime, or the user is suspended. */
export async function findSession(db: Db, id: string, now: Date): Promise<LiveSession | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
  const hash = hashSessionId(id);
  const row = await db
    .selectFrom('web_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select(['s.id as s_id', 's.id_hash', 's.method', 's.created_at as s_created_at', 's.last_seen_at', 's.expires_at'])
    .where('s.id_hash', '=', hash)
    .executeTakeFirst();
  if (!row || !crypto.timingSafeEqual(Buffer.from(row.id_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
  const { s_id, id_hash, method, s_created_at, last_seen_at, expires_at, ...user } = row;
  const session: WebSessionRow = { id: s_id, id_hash, user_id: user.id, method, created_at: s_created_at, last_seen_at, expires_at };
  const t = now.getTime();
  if (Date.parse(expires_at) <= t || Date.parse(last_seen_at) + SESSION_IDLE_MS <= t || user.suspended_at) {
    await db.deleteFrom('web_sessions').where('id', '=', s_id).execute();
    return undefined;
  }
  if (t - Date.parse(last_seen_at) >= TOUCH_EVERY_MS)
    await db.updateTable('web_sessions').set({ last_seen_at: now.toISOString() }).where('id', '=', s_id).execute();
  return { session, user: user as UserRow };
}

export async function endSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('id_hash', '=', hashSessionId(id)).execute();
}

/** Ends every session of a user but `keepId`'s (a password change keeps the session that made it). */
export async function endOtherSessions(db: Db, userId: number, keepId?: string): Promise<void> {
  let q = db.deleteFrom('web_sessions').where('user_id', '=', userId);
  if (keepId !== undefined) q = q.where('id_hash', '!=', hashSessionId(keepId));
  await q.execute();
}
