// Repository reads for GraphQL and the web pages beyond resolveRepository: an account's repositories under the REST
// lists' own rules (listing.ts), the state a repository object shows that its row does not hold (its git refs,
// migration locks), and its files at a ref (directories and file bytes, read from git).
import fs from 'node:fs';
import git from 'isomorphic-git';
import type { ServiceContext } from '../core/context.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { RepositoryRow } from '../db/tables/repos.js';
import { readRefs } from '../git/bare.js';
import { peelToCommit, repositoryDir } from './git-data.js';
import { listForAuthenticatedUser, listForOrg, listForUser, type ListResult } from './listing.js';
import type { SortKey } from './store.js';

/** How an account relates to a repository it lists: owns it, collaborates on it, or reaches it as an organization member. */
export type OwnerAffiliation = 'owner' | 'collaborator' | 'organization_member';

interface OwnerRepositoriesQuery {
  /** Only public or only private repositories; absent: both, as far as the caller may see them. */
  visibility?: 'public' | 'private';
  /** true: forks only, false: sources only; absent: both. */
  fork?: boolean;
  /** A user's affiliations to list (an organization lists the repositories it owns). */
  affiliations: readonly OwnerAffiliation[];
  sort: SortKey;
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const NONE: ListResult = { items: [], total: 0 };

/**
 * An account's repositories the caller may see, with REST's rules: an organization's as GET /orgs/{org}/repos lists them
 * (private ones for members), the caller's own account as GET /user/repos does (private ones when the token reaches
 * them), another user's as GET /users/{username}/repos does (public ones only).
 */
export async function listForOwner(ctx: ServiceContext, account: UserRow, q: OwnerRepositoriesQuery): Promise<ListResult> {
  const paging = { page: 1, perPage: q.limit, offset: q.offset };
  const order = { sort: q.sort, direction: q.direction };
  if (account.type === 'Organization') return listForOrg(ctx, account.login, { type: q.visibility, ...order }, paging, q.fork);
  const actor = ctx.actor;
  if (actor && actor.user.id === account.id && actor.kind !== 'installation') {
    return listForAuthenticatedUser(ctx, { affiliation: q.affiliations.join(','), visibility: q.visibility, ...order }, paging, q.fork);
  }
  const owned = q.affiliations.includes('owner');
  const member = q.affiliations.includes('organization_member');
  if (q.visibility === 'private' || !(owned || member)) return NONE;
  return listForUser(ctx, account.login, { type: owned && member ? 'all' : owned ? 'owner' : 'member', ...order }, paging, q.fork);
}

/** What a repository's refs say: whether it has no branch or tag at all, and whether its default branch exists. */
export async function refState(ctx: ServiceContext, repo: RepositoryRow): Promise<{ empty: boolean; defaultBranchExists: boolean }> {
  const refs = await readRefs(repositoryDir(ctx.config.dataDir, repo.id));
  return { empty: Object.keys(refs).length === 0, defaultBranchExists: `refs/heads/${repo.default_branch}` in refs };
}

/** Which of these repositories a migration has locked, in one query. */
export async function lockedAmong(db: Db, repoIds: readonly number[]): Promise<Set<number>> {
  if (repoIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('repository_locks')
    .select('repository_id')
    .where('repository_id', 'in', [...repoIds])
    .execute();
  return new Set(rows.map((r) => r.repository_id));
}

/**
 * The commit a ref names in a repository: a branch, then a tag (peeled), then a full commit SHA; null when none. Read
 * rules are the caller's: resolve the repository with resolveRepository first.
 */
export async function commitAt(ctx: ServiceContext, repo: RepositoryRow, ref: string): Promise<string | null> {
  const dir = repositoryDir(ctx.config.dataDir, repo.id);
  const cache = {};
  if (!ref || ref.includes('\0') || ref.split('/').some((part) => part === '' || part === '.' || part === '..')) return null;
  for (const name of [`refs/heads/${ref}`, `refs/tags/${ref}`]) {
    const oid = await git.resolveRef({ fs, gitdir: dir, ref: name }).catch(() => null);
    if (oid) return peelToCommit(dir, oid, cache);
  }
  return /^[0-9a-f]{40}$/.test(ref) ? peelToCommit(dir, ref, cache) : null;
}

/** One entry of a directory in a repository. */
export interface TreeItem {
  name: string;
  type: 'blob' | 'tree' | 'commit';
  oid: string;
}

/** A path inside a tree: segments without empty, `.` or `..` ones (none can name a tree entry). */
function treePath(path: string): string | null {
  const parts = path.split('/').filter((p) => p !== '');
  return parts.some((p) => p === '.' || p === '..' || p.includes('\0')) ? null : parts.join('/');
}

/** The entries of the directory at `path` ('' for the root) in a commit, or null when there is no such directory. */
export async function treeAt(ctx: ServiceContext, repo: RepositoryRow, commit: string, path: string): Promise<TreeItem[] | null> {
  const filepath = treePath(path);
  if (filepath === null) return null;
  const dir = repositoryDir(ctx.config.dataDir, repo.id);
  try {
    const { tree } = await git.readTree({ fs, gitdir: dir, oid: commit, filepath: filepath || undefined });
    return tree.map((e) => ({ name: e.path, type: e.type, oid: e.oid }));
  } catch {
    return null;
  }
}

/** The bytes of the file at `path` in a commit, or null when there is no such file. */
export async function fileAt(ctx: ServiceContext, repo: RepositoryRow, commit: string, path: string): Promise<Buffer | null> {
  const filepath = treePath(path);
  if (!filepath) return null;
  const dir = repositoryDir(ctx.config.dataDir, repo.id);
  try {
    const { blob } = await git.readBlob({ fs, gitdir: dir, oid: commit, filepath });
    return Buffer.from(blob);
  } catch {
    return null;
  }
}
