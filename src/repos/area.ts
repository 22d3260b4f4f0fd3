// The repositories area: the REST API (transfers and forks too), git over smart HTTP and the admin import; a deleted account's
// repository directories go with it; repository counts on profiles and in the instance's statistics; the repository
// reads lent to the other areas (webhooks).
import type { FastifyInstance } from 'fastify';
import type { Area } from '../core/area.js';
import type { AccountFiles, RepositoryReads } from '../core/contributions.js';
import { roleOn } from './access.js';
import { repositoryProfileCounts, repositoryStats } from './counts.js';
import { repositoryForkRoutes } from './fork-routes.js';
import { repositoryDir } from './git-data.js';
import { repositoryGitRoutes } from './git-routes.js';
import { repositoryImportRoutes } from './import-routes.js';
import { repositoryPayloadObject } from './repository-payload.js';
import { repositoryRoutes } from './routes.js';
import { repositoryTransferRoutes } from './transfer-routes.js';
import { findRepository, repositoryIdsOwnedBy } from './store.js';

async function routes(app: FastifyInstance): Promise<void> {
  await app.register(repositoryRoutes);
  await app.register(repositoryImportRoutes);
  await app.register(repositoryTransferRoutes);
  await app.register(repositoryForkRoutes);
  await app.register(repositoryGitRoutes);
}

/** A deleted account's repositories go with it (their rows cascade); this names their directories. */
const repositoryDirsOf: AccountFiles = async (db, config, ownerId) =>
  (await repositoryIdsOwnedBy(db, ownerId)).map((id) => repositoryDir(config.dataDir, id));

/** This area's rules, lent through the app context to the areas that may not import it. */
const repositoryReads: RepositoryReads = {
  find: (db, owner, name) => findRepository(db, owner.id, name),
  isAdmin: async (db, user, repo, owner) => (await roleOn(db, user, repo, owner)) === 'admin',
  payloadObject: (repo, owner, urls) => repositoryPayloadObject(repo, owner, urls),
};

export const repositoriesArea: Area = {
  name: 'repositories',
  routes,
  // A repository with the caller's permissions, kept per credential (routes.ts answers it through the response cache).
  cachedReads: ['/repos/:owner/:repo'],
  accountFiles: repositoryDirsOf,
  profileCounts: repositoryProfileCounts,
  enterpriseStats: repositoryStats,
  repositoryReads,
};
