// GitHub's GraphQL arguments for an account's repositories (`privacy`, `visibility`, `isFork`, `ownerAffiliations`,
// RepositoryOrder) turned into the repos area's list (reads.ts listForOwner: the REST lists' visibility rules), as a
// connection of Repository objects.
import type { UserRow } from '../db/schema.js';
import { listForOwner, type OwnerAffiliation } from '../repos/reads.js';
import type { SortKey } from '../repos/store.js';
import { offsetConnection, type ConnectionArgs } from './connection.js';
import type { GraphqlContext } from './context.js';
import { repositoryObject } from './repositories.js';

type Affiliation = 'OWNER' | 'COLLABORATOR' | 'ORGANIZATION_MEMBER';
type OrderField = 'CREATED_AT' | 'NAME' | 'PUSHED_AT' | 'STARGAZERS' | 'UPDATED_AT';

export interface RepositoriesArgs extends ConnectionArgs {
  privacy?: 'PUBLIC' | 'PRIVATE' | null;
  visibility?: 'PUBLIC' | 'PRIVATE' | 'INTERNAL' | null;
  isFork?: boolean | null;
  ownerAffiliations?: readonly (Affiliation | null)[] | null;
  orderBy?: { field: OrderField; direction: 'ASC' | 'DESC' } | null;
}

/** hublet counts no stars on repositories (every count is 0): STARGAZERS keeps the creation order among equals. */
const SORT: Record<OrderField, SortKey> = {
  CREATED_AT: 'created',
  NAME: 'full_name',
  PUSHED_AT: 'pushed',
  STARGAZERS: 'created',
  UPDATED_AT: 'updated',
};
const AFFILIATION: Record<Affiliation, OwnerAffiliation> = {
  OWNER: 'owner',
  COLLABORATOR: 'collaborator',
  ORGANIZATION_MEMBER: 'organization_member',
};

/** The one visibility `privacy` and `visibility` leave, undefined for both, null for none (INTERNAL, or the two disagree). */
function visibilityOf(args: RepositoriesArgs): 'public' | 'private' | undefined | null {
  const wanted = [args.privacy, args.visibility].filter((v) => v != null);
  if (wanted.length === 0) return undefined;
  if (wanted.includes('INTERNAL') || new Set(wanted).size > 1) return null;
  return wanted[0] === 'PUBLIC' ? 'public' : 'private';
}

/** An account's repositories the caller may see; without `orderBy`, oldest first. */
export function ownerRepositories(g: GraphqlContext, account: UserRow, args: RepositoriesArgs) {
  const visibility = visibilityOf(args);
  const given = (args.ownerAffiliations ?? []).filter((a) => a !== null);
  const affiliations = (given.length ? given : (['OWNER', 'COLLABORATOR'] as const)).map((a) => AFFILIATION[a]);
  const order = args.orderBy ?? { field: 'CREATED_AT', direction: 'ASC' };
  return offsetConnection(
    args,
    async (offset, limit) => {
      if (visibility === null) return { rows: [], total: 0 };
      const q = {
        visibility,
        fork: args.isFork ?? undefined,
        affiliations,
        sort: SORT[order.field],
        direction: order.direction === 'ASC' ? 'asc' : 'desc',
        offset,
        limit,
      } as const;
      const { items, total } = await listForOwner(g.ctx, account, q);
      return { rows: items, total };
    },
    (item) => repositoryObject({ repo: item.repo, owner: item.owner, access: item.access ?? 'read', permissions: item.permissions! }, g),
  );
}
