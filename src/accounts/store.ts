// Account tables: users and organizations (one table, by `type`) and organization memberships. Every area loads account
// rows through these functions (accountsByIds for the rows it names), never with its own query.
import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';

/** Finds a user or organization by login, case-insensitively. */
export async function findAccount(db: Db, login: string): Promise<UserRow | undefined> {
  // No login holds a NUL (PostgreSQL would refuse the text outright) or is longer than 39 characters.
  if (login.length > 39 || login.includes('\0')) return undefined;
  return db.selectFrom('users').selectAll().where('login_lower', '=', login.toLowerCase()).executeTakeFirst();
}

/** An account by login and the role `userId` holds in it (undefined: none), in one query (every org-owner check). */
export async function findAccountWithRole(
  db: Db,
  login: string,
  userId: number,
): Promise<{ account: UserRow; role: 'admin' | 'member' | undefined } | undefined> {
  if (login.length > 39 || login.includes('\0')) return undefined;
  const row = await db
    .selectFrom('users')
    .leftJoin('memberships', (join) => join.onRef('memberships.org_id', '=', 'users.id').on('memberships.user_id', '=', userId))
    .selectAll('users')
    .select('memberships.role as member_role')
    .where('users.login_lower', '=', login.toLowerCase())
    .executeTakeFirst();
  if (!row) return undefined;
  const { member_role, ...account } = row;
  return { account: account as UserRow, role: member_role ?? undefined };
}

export async function findAccountById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The accounts with these ids (owners, authors, senders of the rows an area presents), in one query. */
export async function accountsByIds(db: Db, ids: Iterable<number>): Promise<Map<number, UserRow>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.selectFrom('users').selectAll().where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Users whose stored email is one of these (lower-cased), by that email: commit authors named by address. */
export async function loginsByEmail(db: Db, emails: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (emails.length === 0) return out;
  const rows = await db
    .selectFrom('users')
    .select(['login', 'email'])
    .where('type', '=', 'User')
    .where(sql<string>`lower(email)`, 'in', emails)
    .execute();
  for (const r of rows) if (r.email) out.set(r.email.toLowerCase(), r.login);
  return out;
}

/** The login of the user with this id whose login is `login` (case-insensitively): a noreply address's owner. */
export async function loginOfUser(db: Db, id: number, login: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('login')
    .where('id', '=', id)
    .where('login_lower', '=', login.toLowerCase())
    .executeTakeFirst();
  return row?.login;
}

/**
 * The accounts on one side of the memberships of `id`, each with its role, in one query: an organization's members
 * (by login), or the organizations a user belongs to (oldest first).
 */
function membershipAccounts(db: Db, of: 'org' | 'user', id: number) {
  const [account, holder, order] =
    of === 'org' ? (['ms.user_id', 'ms.org_id', 'a.login_lower'] as const) : (['ms.org_id', 'ms.user_id', 'a.id'] as const);
  return db
    .selectFrom('memberships as ms')
    .innerJoin('users as a', 'a.id', account)
    .selectAll('a')
    .select('ms.role as membership_role')
    .where(holder, '=', id)
    .orderBy(order)
    .execute();
}

/** An organization's members with their roles, by login. */
export async function membersOf(db: Db, orgId: number): Promise<{ user: UserRow; role: 'admin' | 'member' }[]> {
  const rows = await membershipAccounts(db, 'org', orgId);
  return rows.map(({ membership_role, ...user }) => ({ user: user as UserRow, role: membership_role }));
}

/** Ids of the organizations this user belongs to. */
export async function organizationIdsOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('memberships').select('org_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.org_id);
}

export interface NewAccount {
  login: string;
  type: 'User' | 'Organization';
  email?: string | null;
  name?: string | null;
  siteAdmin?: boolean;
}

export async function insertAccount(db: Db, input: NewAccount, now: Date): Promise<UserRow> {
  const at = now.toISOString();
  return db
    .insertInto('users')
    .values({
      login: input.login,
      login_lower: input.login.toLowerCase(),
      type: input.type,
      email: input.email ?? null,
      name: input.name ?? null,
      company: null,
      blog: null,
      location: null,
      bio: null,
      site_admin: input.siteAdmin ? 1 : 0,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteAccount(db: Db, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

export async function membershipRole(db: Db, orgId: number, userId: number): Promise<'admin' | 'member' | undefined> {
  const row = await db
    .selectFrom('memberships')
    .select('role')
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

/** The roles `userId` holds in each of these organizations (absent: none), in one query (lists of their repositories). */
export async function membershipRoles(db: Db, userId: number, orgIds: Iterable<number>): Promise<Map<number, 'admin' | 'member'>> {
  const unique = [...new Set(orgIds)];
  if (!unique.length) return new Map();
  const rows = await db
    .selectFrom('memberships')
    .select(['org_id', 'role'])
    .where('user_id', '=', userId)
    .where('org_id', 'in', unique)
    .execute();
  return new Map(rows.map((r) => [r.org_id, r.role]));
}

/** Adds or changes a membership (an upsert written as select-then-write inside the caller's transaction). */
export async function setMembership(db: Db, orgId: number, userId: number, role: 'admin' | 'member', now: Date): Promise<void> {
  const existing = await membershipRole(db, orgId, userId);
  if (existing) {
    await db.updateTable('memberships').set({ role }).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
  } else {
    await db.insertInto('memberships').values({ org_id: orgId, user_id: userId, role, created_at: now.toISOString() }).execute();
  }
}

export async function removeMembership(db: Db, orgId: number, userId: number): Promise<boolean> {
  const r = await db.deleteFrom('memberships').where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function countOwners(db: Db, orgId: number): Promise<number> {
  const r = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Every organization this user belongs to, with their role in it (oldest organization first). */
export async function allMembershipsOf(db: Db, userId: number): Promise<{ org: UserRow; role: 'admin' | 'member' }[]> {
  const rows = await membershipAccounts(db, 'user', userId);
  return rows.map(({ membership_role, ...org }) => ({ org: org as UserRow, role: membership_role }));
}

/** Ids of the organizations this user owns (an admin membership). */
export async function ownedOrganizationIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('memberships').select('org_id').where('user_id', '=', userId).where('role', '=', 'admin').execute();
  return rows.map((r) => r.org_id);
}

/** Logins of the organizations whose only owner is this user. */
export async function soleOwnerships(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as o', 'o.id', 'm.org_id')
    .select('o.login')
    .where('m.user_id', '=', userId)
    .where('m.role', '=', 'admin')
    .where((eb) =>
      eb(
        eb
          .selectFrom('memberships as other')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('other.org_id', '=', 'm.org_id')
          .where('other.role', '=', 'admin'),
        '=',
        1,
      ),
    )
    .orderBy('o.login')
    .execute();
  return rows.map((r) => r.login);
}

/** One page of the organizations a user belongs to (oldest membership first) with their role, and the total. */
export async function membershipsOfUser(
  db: Db,
  userId: number,
  page: { offset: number; perPage: number },
): Promise<{ rows: { org: UserRow; role: 'admin' | 'member' }[]; total: number }> {
  const mine = db.selectFrom('memberships as ms').innerJoin('users as o', 'o.id', 'ms.org_id').where('ms.user_id', '=', userId);
  const rows = await mine
    .selectAll('o')
    .select('ms.role as membership_role')
    .orderBy('o.id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  const count = await mine.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows: rows.map(({ membership_role, ...org }) => ({ org: org as UserRow, role: membership_role })), total: Number(count.n) };
}

/** One page of an organization's members (by login), optionally of one role, and the total. */
export async function membersPage(
  db: Db,
  orgId: number,
  role: 'admin' | 'member' | undefined,
  page: { offset: number; perPage: number },
): Promise<{ rows: UserRow[]; total: number }> {
  let members = db.selectFrom('memberships as ms').innerJoin('users as u', 'u.id', 'ms.user_id').where('ms.org_id', '=', orgId);
  if (role) members = members.where('ms.role', '=', role);
  const rows = await members.selectAll('u').orderBy('u.login_lower').limit(page.perPage).offset(page.offset).execute();
  const count = await members.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows: rows as UserRow[], total: Number(count.n) };
}

/** Accounts (of one type, or all) whose id is above `since`, in id order: GitHub's `since` pagination of every account. */
export async function accountsSince(db: Db, type: 'User' | 'Organization' | undefined, since: number, limit: number): Promise<UserRow[]> {
  let q = db.selectFrom('users').selectAll().where('id', '>', since);
  if (type) q = q.where('type', '=', type);
  return q.orderBy('id').limit(limit).execute();
}

/** The profile fields an organization's owners may change. */
export interface AccountProfile {
  name?: string | null;
  email?: string | null;
  company?: string | null;
  blog?: string | null;
  location?: string | null;
  bio?: string | null;
  members_can_create_repositories?: number;
}

/** Changes an account's profile fields and its updated_at; returns the row as it is now. */
export async function updateAccount(db: Db, id: number, fields: AccountProfile, now: Date): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ ...fields, updated_at: now.toISOString() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Gives an account a new login (the caller checked that it is free); returns the row as it is now. */
export async function renameAccount(db: Db, id: number, login: string, now: Date): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ login, login_lower: login.toLowerCase(), updated_at: now.toISOString() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Makes a user a site admin or not. */
export async function setSiteAdmin(db: Db, id: number, siteAdmin: boolean, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ site_admin: siteAdmin ? 1 : 0, updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

/** Suspends a user (from `now`) or lifts the suspension (null). */
export async function setSuspended(db: Db, id: number, at: Date | null, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ suspended_at: at ? at.toISOString() : null, updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

/** Sets or replaces a user's password (its hash only). */
export async function savePasswordHash(db: Db, userId: number, hash: string, now: Date): Promise<void> {
  const updatedAt = now.toISOString();
  await db
    .insertInto('user_passwords')
    .values({ user_id: userId, hash, updated_at: updatedAt })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ hash, updated_at: updatedAt }))
    .execute();
}
