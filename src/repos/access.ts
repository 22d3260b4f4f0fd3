// Who may do what with a repository: the caller's role (owner, org owner, org member, anyone) and what their token allows.
import type { Actor } from '../server/http/grants.js';
import { hasAnyScope, hasPermission } from '../server/http/scopes.js';
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

/**
 * The caller's role on a repository, before any token restriction. A user's own repositories: admin. An organization's:
 * its owners admin, its members read and write (hublet has no teams or collaborators). Anyone: read on public ones.
 */
export async function roleOn(db: Db, user: UserRow | null, repo: RepositoryRow, owner: UserRow): Promise<AccessLevel> {
  const publicRead: AccessLevel = repo.visibility === 'public' ? 'read' : 'none';
  if (!user) return publicRead;
  if (owner.type === 'User') return owner.id === user.id ? 'admin' : publicRead;
  const role = await membershipRole(db, owner.id, user.id);
  if (role === 'admin') return 'admin';
  if (role === 'member') return 'write';
  return publicRead;
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
 * What the caller may actually do: their role, cut down by what their token allows for this repository.
 * A private repository a token cannot reach is `none` (it does not exist for that token).
 */
export async function effectiveAccess(db: Db, actor: Actor | null, repo: RepositoryRow, owner: UserRow): Promise<AccessLevel> {
  const role = await roleOn(db, actor?.user ?? null, repo, owner);
  if (repo.visibility !== 'public' && !tokenSeesPrivate(actor)) return 'none';
  return role;
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
