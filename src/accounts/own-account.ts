// What a person does for their own account, signed in on the web: sign up (HUBLET_SIGNUP=open, or `invite` with an
// invitation), through the same account creation as a site admin's; and change their password (the old one checked and
// throttled like sign-in, the new one by passwords.ts's rules), which ends every other session of theirs.
import type { ServiceContext } from '../core/context.js';
import { Forbidden, HttpError, NotFound, ValidationFailed, type FieldError } from '../core/errors.js';
import { requireActor, type Actor } from '../core/grants.js';
import type { UserRow } from '../db/schema.js';
import type { InvitationRow } from '../db/tables/sign-in.js';
import { findUsableInvitation, INVITATION_NEEDED, useInvitation } from './invitations.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { registerUser } from './service.js';
import { endOtherSessions } from './sessions.js';
import { savePasswordHash } from './store.js';
import { clearFailures, isThrottled, recordFailure, type ThrottleRule } from './throttle.js';

/** Sign-up attempts from one client address in an hour, made or refused (scripted account farms, password-hash floods). */
const SIGNUP_RULE: ThrottleRule = { limit: 10, windowMs: 3600 * 1000 };
/** Wrong old passwords for one account in 15 minutes before a change is refused (as sign-in's per-account rule). */
const PASSWORD_CHANGE_RULE: ThrottleRule = { limit: 10, windowMs: 15 * 60 * 1000 };

/** 429, the answer to a throttled attempt. */
class TooManyAttempts extends HttpError {
  constructor(message: string) {
    super(429, message);
  }
}

/** The person acting for themself, signed in (a web page's viewer, or the CLI's local mode): never a token. */
export function requireOwner(ctx: ServiceContext): Actor {
  const actor = requireActor(ctx.actor);
  if (actor.kind !== 'local') throw new Forbidden('Only the account’s owner, signed in on the web, may do this.');
  return actor;
}

/**
 * Whether this request may sign up: sign-up off is 404 (as if there were no such page); `invite` needs a good
 * invitation (403 otherwise); the invitation found is returned, to be used up with the account.
 */
export async function signupInvitation(ctx: ServiceContext, invitation: string): Promise<InvitationRow | null> {
  const mode = ctx.config.signup;
  if (mode === 'off') throw new NotFound();
  if (mode === 'open') return null;
  const found = await findUsableInvitation(ctx.db, invitation, ctx.clock.now());
  if (!found) throw new Forbidden(INVITATION_NEEDED);
  return found;
}

export interface SignUpInput {
  login: string;
  email: string;
  password: string;
  /** The invitation token (HUBLET_SIGNUP=invite). */
  invitation: string;
  /** The client's address, throttled. */
  address: string;
}

/**
 * A person makes an account for themself: the API's login and email rules, a password by passwords.ts's, the `user`
 * `created` event (sent by the new user), and with an invitation, that invitation used up in the same transaction.
 */
export async function signUp(ctx: ServiceContext, input: SignUpInput): Promise<UserRow> {
  const invitation = await signupInvitation(ctx, input.invitation);
  const now = ctx.clock.now();
  const keys = [{ key: `signup:${input.address}`, rule: SIGNUP_RULE }];
  if (await isThrottled(ctx.db, keys, now)) throw new TooManyAttempts('Too many sign-ups from your network. Try again in an hour.');
  await recordFailure(ctx.db, keys, now);
  return registerUser(
    ctx,
    { login: input.login, email: input.email, password: input.password },
    'self',
    invitation ? (trx, user) => useInvitation(trx, invitation.id, user.id, now) : undefined,
  );
}

/** Whether the user has a password (one made by single sign-on may have none). */
export async function hasPassword(ctx: ServiceContext, userId: number): Promise<boolean> {
  return (await storedPassword(ctx, userId)) !== undefined;
}

async function storedPassword(ctx: ServiceContext, userId: number): Promise<string | undefined> {
  return (await ctx.db.selectFrom('user_passwords').select('hash').where('user_id', '=', userId).executeTakeFirst())?.hash;
}

export interface PasswordChange {
  /** Ignored when the user has no password yet (they set a first one). */
  oldPassword: string;
  password: string;
  confirmation: string;
  /** The session that makes the change: the only one of the user's that stays. */
  keepSessionId: string;
}

/**
 * The signed-in person changes their password. The old one is required when there is one (wrong ones are throttled per
 * account); a user without one (made by single sign-on) sets a first password without. Every problem is a 422 naming
 * its field (`old_password`, `password`, `password_confirmation`); on success every other session of the user ends.
 */
export async function changeOwnPassword(ctx: ServiceContext, change: PasswordChange): Promise<void> {
  const user = requireOwner(ctx).user;
  const now = ctx.clock.now();
  const keys = [{ key: `password-change:${user.id}`, rule: PASSWORD_CHANGE_RULE }];
  if (await isThrottled(ctx.db, keys, now)) throw new TooManyAttempts('Too many wrong passwords. Wait a few minutes, then try again.');
  const stored = await storedPassword(ctx, user.id);
  const errors: FieldError[] = [];
  const field = (name: string, message: string) => errors.push({ resource: 'User', field: name, code: 'invalid', message });
  if (stored !== undefined && !(await verifyPassword(change.oldPassword, stored))) {
    await recordFailure(ctx.db, keys, now);
    field('old_password', 'Old password isn’t valid');
  }
  const weak = await passwordProblem(change.password, user.login);
  if (weak) field('password', weak);
  if (change.confirmation !== change.password) field('password_confirmation', 'Password confirmation doesn’t match the password');
  if (errors.length) throw new ValidationFailed(errors);
  const hash = await hashPassword(change.password, ctx.config.passwordCost);
  await ctx.db.transaction().execute(async (trx) => {
    await savePasswordHash(trx, user.id, hash, now);
    await endOtherSessions(trx, user.id, change.keepSessionId);
  });
  await clearFailures(ctx.db, keys[0].key);
}
