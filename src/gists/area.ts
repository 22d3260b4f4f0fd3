// The gists area: the REST API, comments, search, raw file bytes, git clone/push and import records; a deleted
// account's gist repositories go with it; public and secret gist counts on profiles and in the instance's statistics.
import type { FastifyInstance } from 'fastify';
import type { Area } from '../core/area.js';
import type { AccountFiles } from '../core/contributions.js';
import { gistCommentRoutes } from './comment-routes.js';
import { gistProfileCounts, gistStats } from './counts.js';
import { gistRepoDir } from './git.js';
import { gistGitRoutes } from './git-routes.js';
import { gistImportRoutes } from './import-routes.js';
import { gistRawRoutes } from './raw-routes.js';
import { gistRoutes } from './routes.js';
import { gistSearchRoutes } from './search-routes.js';
import { gistIdsOwnedBy } from './store.js';

async function routes(app: FastifyInstance): Promise<void> {
  await app.register(gistRoutes);
  await app.register(gistCommentRoutes);
  await app.register(gistRawRoutes);
  await app.register(gistImportRoutes);
  await app.register(gistSearchRoutes);
  // Its own encapsulated context: git's raw-stream body parsers apply to these routes only.
  await app.register(gistGitRoutes);
}

/** A deleted account's gist repositories go with it (its gist rows cascade). */
const gistDirsOf: AccountFiles = async (db, config, ownerId) => (await gistIdsOwnedBy(db, ownerId)).map((id) => gistRepoDir(config, id));

export const gistsArea: Area = {
  name: 'gists',
  routes,
  // Answered through the response cache (routes.ts): the public list and a gist, the same for every caller who may see
  // them; the caller's own, starred and a user's gists, kept per credential.
  cachedReads: ['/gists/public', '/gists/:gist_id', '/gists', '/gists/starred', '/users/:username/gists'],
  accountFiles: gistDirsOf,
  profileCounts: gistProfileCounts,
  enterpriseStats: gistStats,
};
