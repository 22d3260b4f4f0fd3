// The gists area as one Fastify plugin: the REST API, comments and raw file bytes.
import type { FastifyInstance } from 'fastify';
import { gistCommentRoutes } from './comment-routes.js';
import { gistRawRoutes } from './raw-routes.js';
import { gistRoutes } from './routes.js';

export async function gistsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(gistRoutes);
  await app.register(gistCommentRoutes);
  await app.register(gistRawRoutes);
}
