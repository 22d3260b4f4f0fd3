// Account operations: users, organizations and memberships (tokens: token-service.ts; the built-in site admin: site-admin.ts).
import fs from 'node:fs';
import type { Db } from '../db/connect.js';
import { isUniqueViolation, lockRows } from '../db/dialect.js';
import type { UserRow } from '../db/schema.js';
import { NotFound, Unprocessable, ValidationFailed, Forbidden, type FieldError } from '../core/errors.js';
import type { ServiceContext } from '../core/context.js';
import { requireActor, requireSiteAdmin } from '../core/grants.js';
import { filesOwnedBy } from './lifecycle.js';
import { emitOrganizationEvent } from './org-events.js';
import { emitUserEvent } from './user-events.js';
import { loginProblem } from './logins.js';
import {
  allMembershipsOf,
  countOwners,
  deleteAccount,
  findAccount,
  insertAccount,
  findAccountWithRole,
  membershipRole,
  ownedOrganizationIds,
  removeMembership,
  setMembership,
  savePasswordHash,
  soleOwnerships,
} from './store.js';
import { hashPassword, passwordProblem } from './passwords.js';

async function requireAccount(db: Db, login: string, type?: 'User' | 'Organization'): Promise<UserRow> {
  const row = await findAccount(db, login);
  if (!row || (type && row.type !== type)) throw new NotFound();
  return row;
}

/** A user by login (404 when there is none, or it is an organization). */
export function requireUser(ctx: ServiceContext, login: string): Promise<UserRow> {
  return requireAccount(ctx.db, login, 'User');
}

/** An organization by login, not case sensitive. */
export function requireOrganization(ctx: ServiceContext, login: string): Promise<UserRow> {
  return requireAccount(ctx.db, login, 'Organization');
}

/** Any account by login, user or organization (GitHub's `GET /users/{username}` answers for both). */
export function requireAnyAccount(ctx: ServiceContext, login: string): Promise<UserRow> {
  return requireAccount(ctx.db, login);
}

/**
 * The organization, when the caller owns it; 404 otherwise (GitHub hides what you may not manage), except that with
 * `forbidden` a member, who can see the organization, is told 403.
 */
export async function requireOrgOwner(ctx: ServiceContext, orgLogin: string, members: 'hidden' | 'forbidden' = 'hidden'): Promise<UserRow> {
  const actor = requireActor(ctx.actor);
  const found = await findAccountWithRole(ctx.db, orgLogin, actor.user.id);
  if (found?.account.type !== 'Organization') throw new NotFound();
  if (found.role === 'member' && members === 'forbidden') throw new Forbidden('You must be an owner of this organization.');
  if (found.role !== 'admin') throw new NotFound();
  return found.account;
}

function loginTaken(resource: 'User' | 'Organization'): ValidationFailed {
  return new ValidationFailed([{ resource, field: 'login', code: 'already_exists', message: 'login is already taken' }]);
}

async function assertLoginFree(db: Db, login: string, resource: 'User' | 'Organization'): Promise<void> {
  const problem = loginProblem(login, resource);
  if (problem) throw new ValidationFailed([problem]);
  if (await findAccount(db, login)) throw loginTaken(resource);
}

/** Runs a transaction that inserts an account: two taking one login at once both pass the check, the unique index decides. */
export async function insertingLogin<T>(resource: 'User' | 'Organization', work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw loginTaken(resource);
    throw err;
  }
}

/** A free-text field: at most `max` characters and no NUL (PostgreSQL cannot store one in text). */
export function textProblem(resource: string, field: string, value: string | null | undefined, max: number): FieldError | null {
  if (value == null) return null;
  if (value.length > max || value.includes('\0'))
    return { resource, field, code: 'invalid', message: `${field} must be at most ${max} characters of text` };
  return null;
}

export function emailProblem(resource: string, email: string | null | undefined): FieldError | null {
  if (email == null) return null;
  if (email.length > 254 || !/^[^\s@\0]+@[^\s@\0]+$/.test(email))
    return { resource, field: 'email', code: 'invalid', message: 'email is not a valid address' };
  return null;
}

export function throwProblems(problems: (FieldError | null)[]): void {
  const errors = problems.filter((p): p is FieldError => p !== null);
  if (errors.length) throw new ValidationFailed(errors);
}

/** A new user: login and email by the API's rules, and optionally a first password (passwords.ts's rules). */
export interface NewUser {
  login: string;
  email?: string | null;
  siteAdmin?: boolean;
  password?: string;
}

/** Creates a user (site admins only through the API), with the `user` `created` event the site admin sends. */
export async function createUser(ctx: ServiceContext, input: NewUser): Promise<UserRow> {
  const actor = requireSiteAdmin(ctx.actor);
  return registerUser(ctx, input, actor.user);
}

/**
 * The one way a user account is made (a site admin's createUser, a person's sign-up): every problem with the login, the
 * email and the password reported at once; then in one transaction the account, its password's hash, what `alsoInTransaction`
 * adds (an invitation used up) and the `user` `created` event, sent by `sender` (at sign-up: the new user themself).
 * A refused password, a taken login or a failing addition creates nothing.
 */
export async function registerUser(
  ctx: ServiceContext,
  input: NewUser,
  sender: UserRow | 'self',
  alsoInTransaction?: (trx: Db, user: UserRow) => Promise<void>,
): Promise<UserRow> {
  const weak = input.password === undefined ? null : await passwordProblem(input.password, input.login);
  throwProblems([loginProblem(input.login, 'User'), emailProblem('User', input.email), weak === null ? null : passwordError(weak)]);
  const hash = input.password === undefined ? undefined : await hashPassword(input.password, ctx.config.passwordCost);
  return insertingLogin('User', () =>
    ctx.db.transaction().execute(async (trx) => {
      await assertLoginFree(trx, input.login, 'User');
      const now = ctx.clock.now();
      const user = await insertAccount(trx, { login: input.login, type: 'User', email: input.email, siteAdmin: input.siteAdmin }, now);
      if (hash) await savePasswordHash(trx, user.id, hash, now);
      if (alsoInTransaction) await alsoInTransaction(trx, user);
      const by = sender === 'self' ? user : sender;
      await emitUserEvent(trx, ctx, 'created', user, by, now);
      // A person's own sign-up is GitHub's `user.create`; a site admin's is one of the site's own actions.
      await ctx.audit.record(trx, ctx, {
        action: sender === 'self' ? 'user.create' : 'business.create_user',
        actor: by,
        user,
        fields: { site_admin: Boolean(user.site_admin) },
      });
      return user;
    }),
  );
}

function passwordError(message: string): FieldError {
  return { resource: 'User', field: 'password', code: 'invalid', message };
}

/** The hash of a new password, or GitHub's 422 naming what is wrong with it (passwords.ts's rules). */
async function newPasswordHash(ctx: ServiceContext, password: string, login: string): Promise<string> {
  const problem = await passwordProblem(password, login);
  if (problem) throw new ValidationFailed([passwordError(problem)]);
  return hashPassword(password, ctx.config.passwordCost);
}

/** A site admin sets a user's password (`hublet admin user set-password`); the user's tokens are left as they are. */
export async function setUserPassword(ctx: ServiceContext, login: string, password: string): Promise<void> {
  requireSiteAdmin(ctx.actor);
  const user = await requireUser(ctx, login);
  const hash = await newPasswordHash(ctx, password, user.login);
  await ctx.db.transaction().execute(async (trx) => {
    await savePasswordHash(trx, user.id, hash, ctx.clock.now());
    await ctx.audit.record(trx, ctx, { action: 'business.set_user_password', user });
  });
}

/**
 * Deletes a user and everything that cascades from them; refused while they are the only owner of an organization.
 * Each organization they belonged to gets `organization` `member_removed`, then the site the `user` `deleted` event.
 */
export async function deleteUser(ctx: ServiceContext, login: string): Promise<void> {
  const actor = requireSiteAdmin(ctx.actor);
  const user = await requireUser(ctx, login);
  if (user.id === actor.user.id) throw new Unprocessable('You cannot delete your own account.');
  const files = await ctx.db.transaction().execute(async (trx) => {
    // The user's row, then every organization they own: no membership of theirs changes (that locks the member first)
    // and no co-owner leaves those organizations (that locks the organization) until this ends, so the count holds.
    if (!(await lockRows(trx, 'users', [user.id])).has(user.id)) throw new NotFound();
    await lockRows(trx, 'users', await ownedOrganizationIds(trx, user.id));
    const orphaned = await soleOwnerships(trx, user.id);
    if (orphaned.length) {
      throw new Unprocessable(`${user.login} is the only owner of ${orphaned.join(', ')}; make someone else an owner first.`);
    }
    const owned = await filesOwnedBy(ctx.accounts, trx, ctx.config, user.id);
    const now = ctx.clock.now();
    for (const m of await allMembershipsOf(trx, user.id)) {
      await emitOrganizationEvent(
        trx,
        ctx,
        { action: 'member_removed', org: m.org, sender: actor.user, member: { user, role: m.role } },
        now,
      );
    }
    await emitUserEvent(trx, ctx, 'deleted', user, actor.user, now);
    await deleteAccount(trx, user.id);
    await ctx.audit.record(trx, ctx, { action: 'business.destroy_user', user });
    return owned;
  });
  // Only once the rows are gone for good: a rolled-back delete keeps its repositories.
  for (const dir of files) fs.rmSync(dir, { recursive: true, force: true });
}

/** Creates an organization whose first owner is `admin`, with the `organization` `created` event. */
export async function createOrganization(
  ctx: ServiceContext,
  input: { login: string; admin: string; profileName?: string | null },
): Promise<UserRow> {
  const actor = requireSiteAdmin(ctx.actor);
  throwProblems([textProblem('Organization', 'profile_name', input.profileName, 255)]);
  const noSuchOwner = () =>
    new ValidationFailed([{ resource: 'Organization', field: 'admin', code: 'invalid', message: `no user named ${input.admin}` }]);
  return insertingLogin('Organization', () =>
    ctx.db.transaction().execute(async (trx) => {
      await assertLoginFree(trx, input.login, 'Organization');
      const owner = await findAccount(trx, input.admin);
      if (owner?.type !== 'User') throw noSuchOwner();
      // Held until the owner's membership is in: a delete of that user waits, then sees the organization it would orphan.
      if (!(await lockRows(trx, 'users', [owner.id])).has(owner.id)) throw noSuchOwner();
      const now = ctx.clock.now();
      const org = await insertAccount(trx, { login: input.login, type: 'Organization', name: input.profileName ?? null }, now);
      await setMembership(trx, org.id, owner.id, 'admin', now);
      await emitOrganizationEvent(trx, ctx, { action: 'created', org, sender: actor.user }, now);
      await ctx.audit.record(trx, ctx, { action: 'org.create', org, user: owner, fields: { permission: 'admin' } });
      return org;
    }),
  );
}

/** A membership is visible to the org's owners and to the member themself. */
export async function getMembership(ctx: ServiceContext, orgLogin: string, login: string) {
  const actor = requireActor(ctx.actor);
  const org = await requireOrganization(ctx, orgLogin);
  const user = await requireUser(ctx, login);
  const callerRole = await membershipRole(ctx.db, org.id, actor.user.id);
  if (callerRole !== 'admin' && actor.user.id !== user.id) throw new NotFound();
  const role = await membershipRole(ctx.db, org.id, user.id);
  if (!role) throw new NotFound();
  return { org, user, role };
}

/** Owners add members or change roles; site admins may too (they run the instance). */
async function requireManagerRole(db: Db, ctx: ServiceContext, org: UserRow): Promise<void> {
  const actor = requireActor(ctx.actor);
  const role = await membershipRole(db, org.id, actor.user.id);
  if (role === 'admin' || actor.user.site_admin) return;
  if (role === 'member') throw new Forbidden('You must be an admin to manage organization memberships.');
  throw new NotFound();
}

async function requireMembershipManager(ctx: ServiceContext, orgLogin: string): Promise<UserRow> {
  const org = await requireOrganization(ctx, orgLogin);
  await requireManagerRole(ctx.db, ctx, org);
  return org;
}

/** What a membership change works on: the organization, the member, who makes the change, the member's role now. */
interface MembershipChange {
  org: UserRow;
  user: UserRow;
  sender: UserRow;
  /** Undefined: not a member. */
  current: 'admin' | 'member' | undefined;
}

/**
 * Runs a membership change by a caller who manages the organization, in one transaction: locks the member's row, then
 * the organization's (the order every such change takes), checks again under the locks that both still exist and that
 * the caller still manages the organization, and hands `change` the member's current role. Changes to one
 * organization's memberships then run one at a time, so its owner count is true until the change commits.
 */
async function changeMembership(
  ctx: ServiceContext,
  orgLogin: string,
  login: string,
  change: (trx: Db, m: MembershipChange) => Promise<void>,
): Promise<{ org: UserRow; user: UserRow }> {
  const org = await requireMembershipManager(ctx, orgLogin);
  const user = await requireUser(ctx, login);
  const sender = requireActor(ctx.actor).user;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockRows(trx, 'users', [user.id])).has(user.id)) throw new NotFound();
    if (!(await lockRows(trx, 'users', [org.id])).has(org.id)) throw new NotFound();
    await requireManagerRole(trx, ctx, org);
    await change(trx, { org, user, sender, current: await membershipRole(trx, org.id, user.id) });
  });
  return { org, user };
}

/** Adds a member or changes their role; a new member is announced with `organization` `member_added`. */
export async function putMembership(ctx: ServiceContext, orgLogin: string, login: string, role: 'admin' | 'member') {
  const { org, user } = await changeMembership(ctx, orgLogin, login, async (trx, m) => {
    if (m.current === 'admin' && role === 'member' && (await countOwners(trx, m.org.id)) <= 1) {
      throw new Unprocessable('You cannot demote the last owner of an organization.');
    }
    const now = ctx.clock.now();
    await setMembership(trx, m.org.id, m.user.id, role, now);
    if (!m.current)
      await emitOrganizationEvent(trx, ctx, { action: 'member_added', org: m.org, sender: m.sender, member: { user: m.user, role } }, now);
    // A site admin who is no owner acts as themself: the entry names them as the actor.
    if (!m.current) await ctx.audit.record(trx, ctx, { action: 'org.add_member', org: m.org, user: m.user, fields: { permission: role } });
    else if (m.current !== role)
      await ctx.audit.record(trx, ctx, {
        action: 'org.update_member',
        org: m.org,
        user: m.user,
        fields: { permission: role, permission_was: m.current },
      });
  });
  return { org, user, role };
}

/** Removes a member (never the last owner), with `organization` `member_removed`. */
export async function deleteMembership(ctx: ServiceContext, orgLogin: string, login: string): Promise<void> {
  await changeMembership(ctx, orgLogin, login, async (trx, m) => {
    if (!m.current) throw new NotFound();
    if (m.current === 'admin' && (await countOwners(trx, m.org.id)) <= 1)
      throw new Unprocessable('You cannot remove the last owner of an organization.');
    await removeMembership(trx, m.org.id, m.user.id);
    await emitOrganizationEvent(
      trx,
      ctx,
      { action: 'member_removed', org: m.org, sender: m.sender, member: { user: m.user, role: m.current } },
      ctx.clock.now(),
    );
    await ctx.audit.record(trx, ctx, { action: 'org.remove_member', org: m.org, user: m.user, fields: { permission: m.current } });
  });
}
