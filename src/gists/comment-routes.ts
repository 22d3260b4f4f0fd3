// Gist comment routes (GitHub's, beyond the spec): list, create, read, edit and delete.
import type { FastifyInstance } from 'fastify';
import { pagedList } from '../http/pagination.js';
import { typed } from '../http/typed.js';
import { createGistComment, deleteGistComment, getGistComment, listGistComments, updateGistComment } from './comments.js';
import { gistComment } from './present.js';
import { GIST_READ, GIST_WRITE } from './routes.js';
import { commentBody, commentParams, gistParams, pagedQuery } from './schemas.js';
import { created } from '../http/replies.js';

export async function gistCommentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const write = { grant: GIST_WRITE, resource: 'GistComment' };
  const read = { grant: GIST_READ };

  app.get('/gists/:gist_id/comments', { schema: { params: gistParams, querystring: pagedQuery }, config: read }, async (request, reply) =>
    pagedList(
      request,
      reply,
      (paging) => listGistComments(request.ctx, request.params.gist_id, paging),
      (page) => page.items.map((v) => gistComment(v.comment, v.author, v.gist, request.ctx.urls)),
    ),
  );

  app.post('/gists/:gist_id/comments', { schema: { params: gistParams, body: commentBody }, config: write }, async (request, reply) => {
    const v = await createGistComment(request.ctx, request.params.gist_id, request.body.body);
    const body = gistComment(v.comment, v.author, v.gist, request.ctx.urls);
    return created(reply, body.url, body);
  });

  app.get('/gists/:gist_id/comments/:comment_id', { schema: { params: commentParams }, config: read }, async (request) => {
    const v = await getGistComment(request.ctx, request.params.gist_id, request.params.comment_id);
    return gistComment(v.comment, v.author, v.gist, request.ctx.urls);
  });

  app.patch(
    '/gists/:gist_id/comments/:comment_id',
    { schema: { params: commentParams, body: commentBody }, config: write },
    async (request) => {
      const v = await updateGistComment(request.ctx, request.params.gist_id, request.params.comment_id, request.body.body);
      return gistComment(v.comment, v.author, v.gist, request.ctx.urls);
    },
  );

  app.delete('/gists/:gist_id/comments/:comment_id', { schema: { params: commentParams }, config: write }, async (request, reply) => {
    await deleteGistComment(request.ctx, request.params.gist_id, request.params.comment_id);
    return reply.code(204).send();
  });
}
