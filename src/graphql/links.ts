// The fields that lead from one object to another (an account's gists, repositories and organizations, a gist's owner,
// forks and comments, a repository's owner and parent), each applying the area's read rule: the area's own read function, or
// gist-lists.ts's and repository-lists.ts's (over the gists store, the repos area's lists).
import { accountsByIds, findAccount, membershipRole, organizationIdsOf } from '../accounts/store.js';
import { fileMetas, listComments, listGists } from '../gists/store.js';
import { requireGist } from '../gists/service.js';
import { resolveRepository, resolveRepositoryById } from '../repos/service.js';
import { HttpError, NotFound } from '../core/errors.js';
import { accountObject, type AccountObject } from './accounts.js';
import { connection, listConnection, offsetConnection, windowOf, type ConnectionArgs } from './connection.js';
import type { GraphqlContext } from './context.js';
import { notFound } from './errors.js';
import { ownerGists, type GistOrder, type GistPrivacy } from './gist-lists.js';
import { gistCommentObject, gistObject, type GistObject } from './gists.js';
import { repositoryObject, type RepositoryObject } from './repositories.js';
import { ownerRepositories, type RepositoriesArgs } from './repository-lists.js';

type Resolver<S, A = Record<string, never>> = (source: S, args: A, g: GraphqlContext) => unknown;

/**
 * The repository `owner/name` as GET /repos/{owner}/{repo} finds it, or null with GitHub's NOT_FOUND error. With
 * `followRenames` (GitHub's default) a name a rename left behind leads to the repository, as REST's redirect does.
 */
export async function repositoryByName(g: GraphqlContext, owner: string, name: string, followRenames: boolean): Promise<RepositoryObject> {
  try {
    return repositoryObject(await resolveRepository(g.ctx, owner, name, followRenames ? 301 : undefined), g);
  } catch (err) {
    if (err instanceof HttpError && err.status === 301) {
      const id = Number(/\/repositories\/(\d+)$/.exec(String(err.extra.url))?.[1]);
      return repositoryObject(await resolveRepositoryById(g.ctx, id), g);
    }
    if (err instanceof NotFound) throw notFound(`Could not resolve to a Repository with the name '${owner}/${name}'.`);
    throw err;
  }
}

const gists: Resolver<AccountObject, ConnectionArgs & { privacy?: GistPrivacy | null; orderBy: GistOrder }> = async (source, args, g) => {
  const owner = source.row;
  const callerIsOwner = g.ctx.actor?.user.id === owner.id;
  const page = await ownerGists(g.ctx.db, owner.id, callerIsOwner, args.privacy, args.orderBy, (total) => windowOf(args, total));
  const files = await fileMetas(
    g.ctx.db,
    page.rows.map((r) => r.id),
  );
  const nodes = page.rows.map((gist) => gistObject({ gist, owner, files: files.get(gist.id) ?? [] }, g));
  return connection(nodes, page.offset, page.total);
};

/** One of the account's gists by its name (id), secret ones too: as in REST, a secret gist's id is its secret. */
const gist: Resolver<AccountObject, { name: string }> = async (source, args, g) => {
  try {
    const found = await requireGist(g.ctx, args.name);
    return found.owner_id === source.row.id ? gistObject({ gist: found, owner: source.row }, g) : null;
  } catch (err) {
    if (err instanceof NotFound) return null;
    throw err;
  }
};

/**
 * The organizations an account belongs to. hublet's memberships are private, as GitHub's are by default: the viewer sees
 * their own, and nobody sees another user's.
 */
async function memberOrganizations(source: AccountObject, g: GraphqlContext) {
  if (g.ctx.actor?.user.id !== source.row.id) return [];
  const ids = await organizationIdsOf(g.ctx.db, source.row.id);
  const orgs = [...(await accountsByIds(g.ctx.db, ids)).values()].sort((a, b) => a.id - b.id);
  return orgs.map((org) => accountObject(org, g));
}

const organizations: Resolver<AccountObject, ConnectionArgs> = async (source, args, g) =>
  listConnection(await memberOrganizations(source, g), args);

const organization: Resolver<AccountObject, { login: string }> = async (source, args, g) => {
  if (g.ctx.actor?.user.id !== source.row.id) return null;
  const org = await findAccount(g.ctx.db, args.login);
  if (org?.type !== 'Organization' || !(await membershipRole(g.ctx.db, org.id, source.row.id))) return null;
  return accountObject(org, g);
};

const ownerRepository: Resolver<AccountObject, { name: string; followRenames: boolean }> = (source, args, g) =>
  repositoryByName(g, source.row.login, args.name, args.followRenames);

const repositories: Resolver<AccountObject, RepositoriesArgs> = (source, args, g) => ownerRepositories(g, source.row, args);

/** A gist's forks, oldest first, as GET /gists/{id}/forks lists them (the gist itself passed its read rule). */
const gistForks: Resolver<GistObject, ConnectionArgs> = (source, args, g) =>
  offsetConnection(
    args,
    async (offset, limit) => {
      const { rows, total } = await listGists(g.ctx.db, { forkOf: source.view.gist.id }, { offset, limit }, 'created');
      const [owners, files] = await Promise.all([
        accountsByIds(
          g.ctx.db,
          rows.map((r) => r.owner_id),
        ),
        fileMetas(
          g.ctx.db,
          rows.map((r) => r.id),
        ),
      ]);
      return { rows: rows.map((gist) => ({ gist, owner: owners.get(gist.owner_id), files: files.get(gist.id) ?? [] })), total };
    },
    (view) => gistObject(view, g),
  );

/** A gist's comments, oldest first, as GET /gists/{id}/comments lists them; the total is the gist's comment count. */
const gistComments: Resolver<GistObject, ConnectionArgs> = (source, args, g) =>
  offsetConnection(
    args,
    async (offset, limit) => {
      const { gist } = source.view;
      const rows = limit > 0 ? await listComments(g.ctx.db, gist.id, { offset, limit }) : [];
      const authors = await accountsByIds(
        g.ctx.db,
        rows.map((r) => r.user_id),
      );
      return { rows: rows.map((row) => ({ row, author: authors.get(row.user_id) })), total: gist.comments };
    },
    ({ row, author }) => gistCommentObject(row, author ? accountObject(author, g) : null, source, g),
  );

const gistOwner: Resolver<GistObject> = async (source, _args, g) => {
  const { gist, owner } = source.view;
  const row = owner ?? (await accountsByIds(g.ctx.db, [gist.owner_id])).get(gist.owner_id);
  return row ? accountObject(row, g) : null;
};

const repositoryOwner: Resolver<RepositoryObject> = (source, _args, g) => accountObject(source.resolved.owner, g);

/** A fork's parent, when the caller may read it (as GET /repos/{owner}/{repo}'s `parent`); null for a repository that is no fork. */
const repositoryParent: Resolver<RepositoryObject> = async (source, _args, g) => {
  const parentId = source.resolved.repo.parent_id;
  if (parentId === null) return null;
  try {
    return repositoryObject(await resolveRepositoryById(g.ctx, parentId), g);
  } catch (err) {
    if (err instanceof NotFound) return null;
    throw err;
  }
};

/** The link fields by type and field name (schema.ts attaches them). */
export const LINKS: Record<string, Record<string, Resolver<never, never>>> = {
  User: { gists, gist, organizations, organization, repositories, repository: ownerRepository },
  Organization: { repositories, repository: ownerRepository },
  Gist: { owner: gistOwner, forks: gistForks, comments: gistComments },
  Repository: { owner: repositoryOwner, parent: repositoryParent },
};
