// What a signed-in person does to a gist from its page, at GitHub's addresses: Star and Unstar (POST
// /gist/<id>/star, /unstar: back to the gist), Fork (POST /gist/<id>/fork: on to the fork), and comments: "Comment"
// (POST /gist/<id>/comments), "Edit" (GET /gist/<id>/comments/<n>/edit, POST /gist/<id>/comments/<n>) and "Delete"
// after a confirmation page (GET and POST /gist/<id>/comments/<n>/delete). Through the API's services, same rules.
import type { FastifyInstance } from 'fastify';
import { NotFound, ValidationFailed } from '../../core/errors.js';
import { createGistComment, deleteGistComment, getGistComment, updateGistComment } from '../../gists/comments.js';
import { forkGist, requireGist, starGist, unstarGist } from '../../gists/service.js';
import { pathParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import { field, formSchema } from '../forms.js';
import type { ImageProxy } from '../image-proxy.js';
import { htmlPage, orNotFound, send, webConfig as config } from '../serve.js';
import { asViewer } from '../viewer.js';
import { editCommentPage } from './comments-section.js';
import { confirmPage } from './gist-form-page.js';
import { gistPageFor } from './gist-view.js';

const gistParams = pathParams('gist_id');
const commentParams = pathParams('gist_id', 'comment_id');
const noQuery = { querystring: { type: 'object' } } as const;

/** The message of a refused comment (a blank one), for the form that comes back. */
function refusal(err: unknown): string {
  if (!(err instanceof ValidationFailed)) throw err;
  const first = (err.extra.errors as { message?: string }[] | undefined)?.[0]?.message;
  return first ?? err.message;
}

export function gistActionRoutes(fastify: FastifyInstance, images: ImageProxy): void {
  const app = typed(fastify);
  const back = (id: string) => `/gist/${id}`;

  for (const [action, apply] of [
    ['star', starGist],
    ['unstar', unstarGist],
  ] as const) {
    app.post(`/gist/:gist_id/${action}`, { schema: { ...formSchema, params: gistParams }, config }, async (request, reply) =>
      asViewer(
        request,
        reply,
        async (ctx) => {
          await orNotFound(apply(ctx, request.params.gist_id));
          return reply.redirect(`${ctx.urls.base}/gist/${request.params.gist_id.toLowerCase()}`, 303);
        },
        back(request.params.gist_id),
      ),
    );
  }

  app.post('/gist/:gist_id/fork', { schema: { ...formSchema, params: gistParams }, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const fork = await forkGist(ctx, request.params.gist_id);
        return reply.redirect(`${ctx.urls.base}/gist/${fork.id}`, 303);
      },
      back(request.params.gist_id),
    ),
  );

  app.post('/gist/:gist_id/comments', { schema: { ...formSchema, params: gistParams }, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const gist = await requireGist(ctx, request.params.gist_id);
        const body = field(request.body, 'body').replace(/\r\n?/g, '\n');
        try {
          const made = await createGistComment(ctx, gist.id, body);
          return reply.redirect(`${ctx.urls.base}/gist/${gist.id}#gistcomment-${made.comment.id}`, 303);
        } catch (err) {
          const draft = { body, error: refusal(err) };
          return send(reply, htmlPage(await gistPageFor(ctx, gist, images.links(ctx.urls), draft), 422));
        }
      },
      back(request.params.gist_id),
    ),
  );

  const commentLink = (id: string, n: string) => `/gist/${id}/comments/${n}`;

  app.get('/gist/:gist_id/comments/:comment_id/edit', { schema: { params: commentParams, ...noQuery }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx, viewer) => {
      const comment = await getGistComment(ctx, request.params.gist_id, request.params.comment_id);
      if (comment.comment.user_id !== viewer.user.id) throw new NotFound();
      return send(reply, htmlPage(editCommentPage({ base: ctx.urls.base, comment })));
    }),
  );

  app.post('/gist/:gist_id/comments/:comment_id', { schema: { ...formSchema, params: commentParams }, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const { gist_id: id, comment_id: n } = request.params;
        const body = field(request.body, 'body').replace(/\r\n?/g, '\n');
        try {
          const updated = await updateGistComment(ctx, id, n, body);
          return reply.redirect(`${ctx.urls.base}/gist/${updated.gist.id}#gistcomment-${updated.comment.id}`, 303);
        } catch (err) {
          const draft = { body, error: refusal(err) };
          const comment = await getGistComment(ctx, id, n);
          return send(reply, htmlPage(editCommentPage({ base: ctx.urls.base, comment, draft }), 422));
        }
      },
      `${commentLink(request.params.gist_id, request.params.comment_id)}/edit`,
    ),
  );

  app.get('/gist/:gist_id/comments/:comment_id/delete', { schema: { params: commentParams, ...noQuery }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx, viewer) => {
      const c = await getGistComment(ctx, request.params.gist_id, request.params.comment_id);
      if (c.comment.user_id !== viewer.user.id && c.gist.owner_id !== viewer.user.id) throw new NotFound();
      const at = `${ctx.urls.base}/gist/${c.gist.id}`;
      const markup = confirmPage({
        base: ctx.urls.base,
        title: 'Delete comment',
        question: `Are you sure you want to delete ${c.author.login}’s comment? This cannot be undone.`,
        action: `${ctx.urls.base}${commentLink(c.gist.id, String(c.comment.id))}/delete`,
        button: 'Delete',
        cancel: `${at}#gistcomment-${c.comment.id}`,
      });
      return send(reply, htmlPage(markup));
    }),
  );

  app.post(
    '/gist/:gist_id/comments/:comment_id/delete',
    { schema: { ...formSchema, params: commentParams }, config },
    async (request, reply) =>
      asViewer(
        request,
        reply,
        async (ctx) => {
          const { gist_id: id, comment_id: n } = request.params;
          await deleteGistComment(ctx, id, n);
          return reply.redirect(`${ctx.urls.base}/gist/${id.toLowerCase()}`, 303);
        },
        back(request.params.gist_id),
      ),
  );
}
