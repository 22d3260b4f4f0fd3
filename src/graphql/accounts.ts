// Users and organizations as GraphQL objects (User, Organization): their fields from the account row, the REST profile's
// URLs (core/urls.ts, accounts/present.ts's layout) and node ids.
import { membershipRole } from '../accounts/store.js';
import type { UserRow } from '../db/schema.js';
import { nodeId } from '../core/urls.js';
import { isoUtc } from '../core/timestamps.js';
import type { GraphqlContext } from './context.js';

/** A User or Organization object; `row` is the account the links (links.ts) start from. */
export interface AccountObject {
  __typename: 'User' | 'Organization';
  row: UserRow;
}

export function accountObject(row: UserRow, g: GraphqlContext): AccountObject {
  const urls = g.ctx.urls;
  const login = row.login;
  const common = {
    __typename: row.type as AccountObject['__typename'],
    row,
    id: nodeId(row.type, row.id),
    databaseId: row.id,
    login,
    name: row.name,
    avatarUrl: urls.html(`/avatars/${login}`),
    url: urls.html(`/${login}`),
    resourcePath: `/${login}`,
    location: row.location,
    websiteUrl: row.blog || null,
    createdAt: isoUtc(row.created_at),
    updatedAt: isoUtc(row.updated_at),
  };
  if (row.type === 'User') {
    return {
      ...common,
      // GitHub's `email` is the public email or "" (REST shows hublet's stored email publicly too).
      email: row.email ?? '',
      bio: row.bio,
      company: row.company,
      isSiteAdmin: Boolean(row.site_admin),
      isViewer: g.ctx.actor?.user.id === row.id,
    } as AccountObject;
  }
  let role: Promise<'admin' | 'member' | undefined> | undefined;
  const viewerRole = () => {
    const viewer = g.ctx.actor?.user;
    role ??= viewer ? membershipRole(g.ctx.db, row.id, viewer.id) : Promise.resolve(undefined);
    return role;
  };
  return {
    ...common,
    email: row.email,
    description: row.bio,
    viewerIsAMember: async () => (await viewerRole()) !== undefined,
    viewerCanAdminister: async () => (await viewerRole()) === 'admin',
  } as AccountObject;
}
