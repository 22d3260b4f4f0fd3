// The accounts area: users, organizations and memberships (GET /user, /users, /orgs, members, memberships), the site
// admin API (invitations and OAuth apps included), and the OAuth endpoints programs call (device code, access token).
// Authentication itself is app-wide (src/accounts/authenticate.ts, registered by src/server/app.ts before any area).
import type { FastifyInstance } from 'fastify';
import type { Area } from '../core/area.js';
import { adminRoutes } from './admin-routes.js';
import { invitationRoutes } from './invitation-routes.js';
import { oauthRoutes } from './oauth-routes.js';
import { organizationRoutes } from './org-routes.js';
import { accountRoutes } from './routes.js';

async function routes(app: FastifyInstance): Promise<void> {
  await app.register(accountRoutes);
  await app.register(organizationRoutes);
  await app.register(adminRoutes);
  await app.register(invitationRoutes);
  await app.register(oauthRoutes);
}

export const accountsArea: Area = {
  name: 'accounts',
  routes,
  // Public profiles, the same for every caller (routes.ts answers them through the response cache).
  cachedReads: ['/users/:username', '/orgs/:org'],
};
