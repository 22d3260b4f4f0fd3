// The repositories area: the REST API (transfers too), git over smart HTTP and the admin import; a deleted account's
// repository directories go with it; repository counts on profiles and in the instance's statistics.
import type { FastifyInstance } from 'fastify';
import type { Area } from '../app/area.js';
import type { AccountFiles } from '../app/contributions.js';
import { repositoryProfileCounts, repositoryStats } from './counts.js';
import { repositoryDir } from './git-data.js';
import { repositoryGitRoutes } from './git-routes.js';
import { repositoryImportRoutes } from './import-routes.js';
import { repositoryRoutes } from './routes.js';
import { repositoryTransferRoutes } from './transfer-routes.js';
import { repositoryIdsOwnedBy } from './store.js';

async function routes(app: FastifyInstance): Promise<void> {
  await app.register(repositoryRoutes);
  await app.register(repositoryImportRoutes);
  await app.register(repositoryTransferRoutes);
  await app.register(repositoryGitRoutes);
}

/** A deleted account's repositories go with it (their rows cascade); this names their directories. */
const repositoryDirsOf: AccountFiles = async (db, config, ownerId) => (await repositoryIdsOwnedBy(db, ownerId)).map((id) => repositoryDir(config.dataDir, id));

export const repositoriesArea: Area = {
  name: 'repositories',
  routes,
  accountFiles: repositoryDirsOf,
  profileCounts: repositoryProfileCounts,
  enterpriseStats: repositoryStats,
};
