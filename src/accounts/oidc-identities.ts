// Accounts signed into through OpenID Connect: an identity is the provider's issuer and its `sub` for the person,
// linked to one hublet user (`oidc_identities`). Only that link signs someone in: never a matching login or email.
// On a first sign-in with auto-create, the account is made through the account service (the API's login rules, the
// `user` `created` event sent by the new user, as at sign-up) and linked in the same transaction; a login already
// taken is refused.
import type { ServiceContext } from '../core/context.js';
import { ValidationFailed } from '../core/errors.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import { loginProblem } from './logins.js';
import { emailProblem, registerUser } from './service.js';

export interface OidcIdentity {
  issuer: string;
  subject: string;
}

/** The user linked to this identity, if any (organizations never sign in). */
export async function findLinkedUser(db: Db, identity: OidcIdentity): Promise<UserRow | undefined> {
  const user = await db
    .selectFrom('oidc_identities as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .selectAll('u')
    .where('i.issuer', '=', identity.issuer)
    .where('i.subject', '=', identity.subject)
    .executeTakeFirst();
  return user?.type === 'User' ? user : undefined;
}

/** The subject a user is linked to at this issuer, if any (the security page's "connected" line). */
export async function linkedSubject(db: Db, userId: number, issuer: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('oidc_identities')
    .select('subject')
    .where('user_id', '=', userId)
    .where('issuer', '=', issuer)
    .executeTakeFirst();
  return row?.subject;
}

/** Links an identity to a user (one user per identity: the primary key refuses a second link). */
export async function linkIdentity(db: Db, identity: OidcIdentity, userId: number, now: Date): Promise<void> {
  await db
    .insertInto('oidc_identities')
    .values({ issuer: identity.issuer, subject: identity.subject, user_id: userId, created_at: now.toISOString() })
    .execute();
}

export type FirstSignIn =
  | { ok: true; user: UserRow }
  /** No `preferred_username`, one the login rules refuse (`message` says why), or one another account has. */
  | { ok: false; reason: 'no_username' | 'invalid_username' | 'login_taken'; username?: string; message?: string };

function takenLogin(err: unknown): boolean {
  const errors = err instanceof ValidationFailed ? (err.extra.errors as { code?: string }[] | undefined) : undefined;
  return errors?.some((e) => e.code === 'already_exists') ?? false;
}

/**
 * Creates the account of someone signing in for the first time, with their provider username as login and their
 * verified email, and links their identity to it; refuses a username that is not a valid login or is taken.
 */
export async function createLinkedUser(
  ctx: ServiceContext,
  identity: OidcIdentity,
  profile: { username: unknown; email: string | null },
): Promise<FirstSignIn> {
  const username = profile.username;
  if (typeof username !== 'string' || username === '') return { ok: false, reason: 'no_username' };
  const problem = loginProblem(username, 'User');
  if (problem) return { ok: false, reason: 'invalid_username', username, message: problem.message };
  const email = emailProblem('User', profile.email) ? null : profile.email;
  const now = ctx.clock.now();
  let user: UserRow;
  try {
    user = await registerUser(ctx, { login: username, email }, 'self', (trx, made) => linkIdentity(trx, identity, made.id, now));
  } catch (err) {
    if (!takenLogin(err)) throw err;
    // The same person's other sign-in (another tab) may have made and linked it a moment ago; anyone else's is refused.
    const linked = await findLinkedUser(ctx.db, identity);
    if (linked) return { ok: true, user: linked };
    return { ok: false, reason: 'login_taken', username };
  }
  return { ok: true, user };
}
