// How the audit log names a repository: its id and `owner/name`, and the organization that owns it (its entries are then
// in that organization's log too).
import type { AuditEntry } from '../core/contributions.js';
import type { UserRow } from '../db/schema.js';
import type { RepositoryRow } from '../db/tables/repos.js';

/** The `org` and `repo` of an entry about `repo` as `owner` holds it. */
export function repositoryAudit(repo: Pick<RepositoryRow, 'id' | 'name'>, owner: UserRow): Pick<AuditEntry, 'org' | 'repo'> {
  return { org: owner.type === 'Organization' ? owner : null, repo: { id: repo.id, name: `${owner.login}/${repo.name}` } };
}
