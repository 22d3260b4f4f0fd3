// Who may do what with a repository: the caller's role (owner, org owner, org member, anyone) and what their token allows.
import type { Actor } from '../core/grants.js';
import { hasAnyScope, hasPermission } from '../core/scopes.js';
import { membershipRole } from '../accounts/store.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { Permissions } from './present.js';
import type { RepositoryRow } from '../db/tables/repos.js';

/** none < read < write < admin. */
export type AccessLevel = 'none' | 'read' | 'write' | 'admin';
const RANK: Record<AccessLevel, number> = { none: 0, read: 1, write: 2, admin: 3 };

export function atLeast(level: AccessLevel, needed: AccessLevel): boolean {
  return RANK[level] >= RANK[needed];
}

/** The role a user holds in an organization (undefined: none), as accounts/store.ts reports it. */
export type MembershipRole = 'admin' | 'member' | undefined;

/**
 * The caller's role on a repository, before any token restriction, given `membership` (the caller's role in the
 * owning organization; ignored for a user's repositories). A user's own repositories: admin. An organization's: its
 * owners admin, its members read and write (hublet has no teams or collaborators). Anyone: read on public ones.
 */
function roleGiven(user: UserRow | null, repo: RepositoryRow, owner: UserRow, membership: MembershipRole): AccessLevel {
  const publicRead: AccessLevel = repo.visibility === 'public' ? 'read' : 'none';
  if (!user) return publicRead;
  if (owner.type === 'User') return owner.id === user.id ? 'admin' : publicRead;
  if (membership === 'admin') return 'admin';
  if (membership === 'member') return 'write';
  return publicRead;
}

/** Whether a caller's role on `owner`'s repositories depends on their membership in it (to load for roleGiven). */
export function needsMembership(owner: UserRow): boolean {
  return owner.type !== 'User';
}

/** The caller's membership in the owning organization, loaded only when their role depends on it. */
async function membershipFor(db: Db, user: UserRow | null, owner: UserRow): Promise<MembershipRole> {
  return user && needsMembership(owner) ? membershipRole(db, owner.id, user.id) : undefined;
}

/** roleGiven, loading the caller's membership in the owning organization when it matters. */
export async function roleOn(db: Db, user: UserRow | null, repo: RepositoryRow, owner: UserRow): Promise<AccessLevel> {
  return roleGiven(user, repo, owner, await membershipFor(db, user, owner));
}

/** GitHub's `permissions` object for a role. */
export function permissionsFor(level: AccessLevel): Permissions {
  return {
    admin: level === 'admin',
    maintain: level === 'admin',
    push: atLeast(level, 'write'),
    triage: atLeast(level, 'write'),
    pull: atLeast(level, 'read'),
  };
}

/** Whether the caller's token reaches private repositories at all (classic and OAuth tokens need `repo`). */
export function tokenSeesPrivate(actor: Actor | null): boolean {
  if (!actor) return false;
  if (actor.kind === 'classic' || actor.kind === 'oauth') return hasAnyScope(actor.scopes, ['repo']);
  return true;
}

/**
 * What the caller may actually do, given their membership in the owning organization: their role, cut down by what
 * their token allows for this repository. A private repository a token cannot reach is `none` (it does not exist for
 * that token). Lists preload memberships for all their rows and call this; single reads use effectiveAccess.
 */
export function accessGiven(actor: Actor | null, repo: RepositoryRow, owner: UserRow, membership: MembershipRole): AccessLevel {
  const role = roleGiven(actor?.user ?? null, repo, owner, membership);
  if (repo.visibility !== 'public' && !tokenSeesPrivate(actor)) return 'none';
  return role;
}

/** accessGiven, loading the caller's membership in the owning organization when it matters. */
export async function effectiveAccess(db: Db, actor: Actor | null, repo: RepositoryRow, owner: UserRow): Promise<AccessLevel> {
  return accessGiven(actor, repo, owner, await membershipFor(db, actor?.user ?? null, owner));
}

/** GET /repos/{owner}/{repo}'s read rule: the caller's role, cut down by their token, reaches at least read. */
export async function canRead(db: Db, actor: Actor | null, repo: RepositoryRow, owner: UserRow): Promise<boolean> {
  return atLeast(await effectiveAccess(db, actor, repo, owner), 'read');
}

/** Whether a token may use git on a repository: reading (clone, fetch) or writing (push). */
export function tokenAllowsGit(actor: Actor | null, repo: RepositoryRow, op: 'read' | 'write'): boolean {
  const isPublic = repo.visibility === 'public';
  if (!actor) return op === 'read' && isPublic;
  switch (actor.kind) {
    case 'local':
      return true;
    case 'classic':
    case 'oauth':
      if (op === 'read') return isPublic || hasAnyScope(actor.scopes, ['repo']);
      return hasAnyScope(actor.scopes, isPublic ? ['repo', 'public_repo'] : ['repo']);
    default:
      // Fine-grained and GitHub App tokens: the `contents` permission (public repositories read without one).
      if (op === 'read' && isPublic) return true;
      return hasPermission(actor.permissions, 'contents', op);
  }
}
