// What migrations need from the repositories area: resolve requested names, load rows with owners, present them, find their git data.
import { accountsByIds } from '../accounts/store.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { FieldError } from '../core/errors.js';
import type { Urls } from '../core/urls.js';
import { permissionsFor } from '../repos/access.js';
import { repositoryDir } from '../repos/git-data.js';
import { fullRepository } from '../repos/present.js';
import { findRepository, repositoriesByIds } from '../repos/store.js';
import type { RepositoryRow } from '../db/tables/repos.js';

export interface ResolvedRepositories {
  repositories: RepositoryRow[];
  errors: FieldError[];
}

/**
 * Resolves the names a start request gives: `name` or `owner/name`, where the owner must be the migration's owner.
 * Unknown and foreign names are GitHub's `invalid_value` errors, each with its index in the request, and so is a
 * repository the caller may not read (`readable` says false): to that caller it does not exist. Duplicates count once.
 */
export async function resolveRepositories(
  db: Db,
  owner: UserRow,
  names: readonly string[],
  readable: (repo: RepositoryRow) => Promise<boolean>,
): Promise<ResolvedRepositories> {
  const errors: FieldError[] = [];
  const found = new Map<number, RepositoryRow>();
  for (const [index, raw] of names.entries()) {
    const slash = raw.indexOf('/');
    const ownerPart = slash >= 0 ? raw.slice(0, slash) : owner.login;
    const name = slash >= 0 ? raw.slice(slash + 1) : raw;
    const named = ownerPart.toLowerCase() === owner.login.toLowerCase() ? await findRepository(db, owner.id, name) : undefined;
    const repo = named && (await readable(named)) ? named : undefined;
    if (!repo) {
      errors.push({
        resource: 'Migration',
        field: 'repositories',
        code: 'invalid_value',
        value: raw,
        index,
        message: `${raw} is not a repository of ${owner.login}`,
      });
      continue;
    }
    if (!found.has(repo.id)) found.set(repo.id, repo);
  }
  return { repositories: [...found.values()], errors };
}

export interface LoadedRepository {
  row: RepositoryRow;
  owner: UserRow;
}

/** The repositories with these ids that still exist, with their owners, in the order of `ids`. */
export async function loadRepositories(db: Db, ids: readonly number[]): Promise<LoadedRepository[]> {
  if (ids.length === 0) return [];
  const rows = await repositoriesByIds(db, ids);
  const ownerById = await accountsByIds(
    db,
    rows.map((r) => r.owner_id),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: LoadedRepository[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    const owner = row && ownerById.get(row.owner_id);
    if (row && owner) out.push({ row, owner });
  }
  return out;
}

/** A repository as migrations show it: the full Repository object, as its owner (admin) sees it. */
export function presentRepository(repo: LoadedRepository, urls: Urls, apiVersion: string) {
  return fullRepository(repo.row, repo.owner, urls, { permissions: permissionsFor('admin'), apiVersion });
}

/** The bare repository holding a repository's git data. */
export function repositoryGitDir(dataDir: string, id: number): string {
  return repositoryDir(dataDir, id);
}
