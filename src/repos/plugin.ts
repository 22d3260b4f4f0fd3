// Everything repositories serve: the REST API, git over smart HTTP and the admin import (registered once in app.ts).
import type { FastifyInstance } from 'fastify';
import { repositoryGitRoutes } from './git-routes.js';
import { repositoryImportRoutes } from './import-routes.js';
import { repositoryRoutes } from './routes.js';

export async function repositories(app: FastifyInstance): Promise<void> {
  await app.register(repositoryRoutes);
  await app.register(repositoryImportRoutes);
  await app.register(repositoryGitRoutes);
}
