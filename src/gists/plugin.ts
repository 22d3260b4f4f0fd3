// The gists area as one Fastify plugin: the REST API, comments, raw file bytes and git clone/push.
import type { FastifyInstance } from 'fastify';
import { gistCommentRoutes } from './comment-routes.js';
import { gistGitRoutes } from './git-routes.js';
import { gistRawRoutes } from './raw-routes.js';
import { gistRoutes } from './routes.js';

export async function gistsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(gistRoutes);
  await app.register(gistCommentRoutes);
  await app.register(gistRawRoutes);
  // Its own encapsulated context: git's raw-stream body parsers apply to these routes only.
  await app.register(gistGitRoutes);
}
