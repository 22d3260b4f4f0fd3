// Organizations as their members and owners see them: who belongs (lists, membership checks), the caller's own
// memberships, removing members, changing and deleting an organization, and every account in `since` order.
// Memberships are concealed, as GitHub's are by default: only the organization's members (and site admins) see them.
import fs from 'node:fs';
import type { ServiceContext } from '../core/context.js';
import { lockRows } from '../db/dialect.js';
import type { UserRow } from '../db/schema.js';
import { NotFound } from '../core/errors.js';
import { requireActor } from '../core/grants.js';
import { filesOwnedBy } from './lifecycle.js';
import { emitOrganizationEvent } from './org-events.js';
import { emailProblem, requireOrgOwner, requireOrganization, textProblem, throwProblems } from './service.js';
import {
  accountsSince,
  deleteAccount,
  findAccount,
  membershipRole,
  membershipsOfUser,
  membersPage,
  updateAccount,
  type AccountProfile,
} from './store.js';

type Page = { offset: number; perPage: number };

/** The signed-in user's organizations, with their role in each (GET /user/orgs, /user/memberships/orgs). */
export async function myMemberships(ctx: ServiceContext, page: Page) {
  const actor = requireActor(ctx.actor);
  return { user: actor.user, ...(await membershipsOfUser(ctx.db, actor.user.id, page)) };
}

/** The signed-in user's membership in one organization (404 when they have none). */
export async function myMembership(ctx: ServiceContext, orgLogin: string) {
  const actor = requireActor(ctx.actor);
  const org = await requireOrganization(ctx, orgLogin);
  const role = await membershipRole(ctx.db, org.id, actor.user.id);
  if (!role) throw new NotFound();
  return { org, user: actor.user, role };
}

/** Whether the caller sees the organization's concealed memberships: its members and site admins do. */
async function seesMembers(ctx: ServiceContext, org: UserRow): Promise<boolean> {
  const actor = ctx.actor;
  if (!actor) return false;
  if (actor.user.site_admin) return true;
  return (await membershipRole(ctx.db, org.id, actor.user.id)) !== undefined;
}

/** One page of an organization's members as the caller may see them (none for outsiders: no membership is public). */
export async function listMembers(ctx: ServiceContext, orgLogin: string, role: 'admin' | 'member' | undefined, page: Page) {
  const org = await requireOrganization(ctx, orgLogin);
  if (!(await seesMembers(ctx, org))) return { rows: [], total: 0 };
  return membersPage(ctx.db, org.id, role, page);
}

/**
 * GitHub's membership check: for a caller who sees the organization's members, whether `login` is one ('member' or
 * 'none'); for anyone else 'public', to be asked of the public memberships instead (GitHub's 302).
 */
export async function checkMember(ctx: ServiceContext, orgLogin: string, login: string): Promise<'member' | 'none' | 'public'> {
  const org = await requireOrganization(ctx, orgLogin);
  if (!(await seesMembers(ctx, org))) return 'public';
  const user = await findAccount(ctx.db, login);
  if (user?.type !== 'User') return 'none';
  return (await membershipRole(ctx.db, org.id, user.id)) ? 'member' : 'none';
}

/** The fields PATCH /orgs/{org} changes (the others GitHub takes are accepted and not kept). */
export interface OrganizationChanges {
  name?: string | null;
  email?: string | null;
  company?: string | null;
  blog?: string | null;
  location?: string | null;
  description?: string | null;
  members_can_create_repositories?: boolean;
}

/** Owners change the organization's profile; every field is checked before anything is written. */
export async function updateOrganization(ctx: ServiceContext, orgLogin: string, changes: OrganizationChanges): Promise<UserRow> {
  const org = await requireOrgOwner(ctx, orgLogin, 'forbidden');
  const R = 'Organization';
  throwProblems([
    textProblem(R, 'name', changes.name, 255),
    textProblem(R, 'company', changes.company, 255),
    textProblem(R, 'blog', changes.blog, 255),
    textProblem(R, 'location', changes.location, 255),
    textProblem(R, 'description', changes.description, 160),
    changes.email ? emailProblem(R, changes.email) : null,
  ]);
  const fields: AccountProfile = {};
  const text = (v: string | null | undefined) => (v === undefined ? undefined : v === '' ? null : v);
  if (changes.name !== undefined) fields.name = text(changes.name);
  if (changes.email !== undefined) fields.email = text(changes.email);
  if (changes.company !== undefined) fields.company = text(changes.company);
  if (changes.blog !== undefined) fields.blog = text(changes.blog);
  if (changes.location !== undefined) fields.location = text(changes.location);
  if (changes.description !== undefined) fields.bio = text(changes.description);
  if (changes.members_can_create_repositories !== undefined)
    fields.members_can_create_repositories = changes.members_can_create_repositories ? 1 : 0;
  const row = await updateAccount(ctx.db, org.id, fields, ctx.clock.now());
  if (!row) throw new NotFound();
  return row;
}

/**
 * Owners delete the organization with everything it owns (repositories, hooks, migrations), files included; the
 * `organization` `deleted` event is recorded in the same transaction.
 */
export async function deleteOrganization(ctx: ServiceContext, orgLogin: string): Promise<void> {
  const org = await requireOrgOwner(ctx, orgLogin, 'forbidden');
  const sender = requireActor(ctx.actor).user;
  const files = await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockRows(trx, 'users', [org.id])).has(org.id)) throw new NotFound();
    const owned = await filesOwnedBy(ctx.accounts, trx, ctx.config, org.id);
    await emitOrganizationEvent(trx, ctx, { action: 'deleted', org, sender }, ctx.clock.now());
    await deleteAccount(trx, org.id);
    await ctx.audit.record(trx, ctx, { action: 'org.destroy', org });
    return owned;
  });
  // Only once the rows are gone for good: a rolled-back delete keeps its repositories.
  for (const dir of files) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Accounts with an id above `since`, in id order (GET /users lists users and organizations, GET /organizations
 * organizations), and whether more follow.
 */
export async function accountsAfter(ctx: ServiceContext, type: 'Organization' | undefined, since: number, perPage: number) {
  const rows = await accountsSince(ctx.db, type, since, perPage + 1);
  return { rows: rows.slice(0, perPage), more: rows.length > perPage };
}
