// Gist routes: thin handlers (schema, grant, service, present) for every endpoint of spec section 4.1; a write's body
// is judged by parse.ts, its schema's failures with the checks that need the gist (`judgedLater`).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Grant } from '../core/grants.js';
import { absentBodyIsEmpty } from '../http/body.js';
import { lastModified } from '../http/conditional.js';
import { NotFound } from '../core/errors.js';
import { pagedList } from '../http/pagination.js';
import { cacheKey, respondForCaller } from '../http/response-cache.js';
import { commitItems, gistListItems, gistMedia, gistSingle } from './present.js';
import { typed } from '../http/typed.js';
import { received } from './parse.js';
import { createBody, gistParams, listQuery, pagedQuery, parseSince, revisionParams, updateBody, userParams } from './schemas.js';
import { listCommits, listForks, listForUser, listMine, listPublic, listStarred, revisionView, singleView } from './reads.js';
import {
  createGistAndView,
  deleteGist,
  forkGist,
  isStarredByCaller,
  requireGist,
  starGist,
  unstarGist,
  updateGistAndFiles,
} from './service.js';
import type { GistRow } from '../db/tables/gists.js';

/**
 * Creating, changing, forking and starring gists: the `gist` scope, or the Gists permission (write) of a fine-grained or
 * app user token. Installation tokens never (GitHub serves no gist operation to an installation).
 */
export const GIST_WRITE: Grant = { scopes: ['gist'], fineGrained: { permission: 'gists', level: 'write' }, apps: 'user' };
/** Reading gists: anyone, any personal token without a scope or permission (as GitHub), app user tokens, no installation. */
export const GIST_READ: Grant = { scopes: [], anonymous: true, apps: 'user' };
/** The caller's starred gists: a signed-in person. */
const GIST_READ_SIGNED_IN: Grant = { scopes: [], apps: 'user' };

/**
 * A gist body's schema failures are kept, not thrown (parse.ts `received`): a misshapen body (a field missing or of
 * another type) is refused at once, the others are answered with the checks a schema cannot say (blank contents, a
 * file the gist does not have) in one 422, after the gist is found. No body is `{}`.
 */
export const judgedLater = { attachValidation: true, preValidation: absentBodyIsEmpty } as const;

/** A gist in single form; `known` spares reading back what the caller already holds (an update's files and owner). */
async function sendSingle(
  request: FastifyRequest,
  reply: FastifyReply,
  gist: GistRow,
  status = 200,
  known: Parameters<typeof singleView>[2] = {},
) {
  const view = await singleView(request.ctx, gist, known);
  reply.header('last-modified', lastModified(gist.updated_at));
  return reply.code(status).send(gistSingle(view, request.ctx.urls, gistMedia(request.mediaParam)));
}

export async function gistRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const write = { grant: GIST_WRITE, resource: 'Gist' };
  const read = { grant: GIST_READ };
  const bodyLimit = app.hublet.config.gistBodyLimitBytes;

  // The caller's own gists (or the public ones, for nobody): kept per credential while nothing changed.
  app.get('/gists', { schema: { querystring: listQuery }, config: read }, async (request, reply) =>
    respondForCaller(request, reply, () =>
      pagedList(
        request,
        reply,
        (paging) => listMine(request.ctx, paging, parseSince(request.query.since)),
        (page) => gistListItems(page.items, request.ctx.urls),
      ),
    ),
  );

  // The same for every caller: answered from the response cache while nothing changed.
  app.get('/gists/public', { schema: { querystring: listQuery }, config: read }, async (request, reply) => {
    return request.ctx.responses.respond(request, reply, cacheKey(request), () =>
      pagedList(
        request,
        reply,
        (paging) => listPublic(request.ctx, paging, parseSince(request.query.since)),
        (page) => gistListItems(page.items, request.ctx.urls),
      ),
    );
  });

  app.get('/gists/starred', { schema: { querystring: listQuery }, config: { grant: GIST_READ_SIGNED_IN } }, async (request, reply) =>
    respondForCaller(request, reply, () =>
      pagedList(
        request,
        reply,
        (paging) => listStarred(request.ctx, paging, parseSince(request.query.since)),
        (page) => gistListItems(page.items, request.ctx.urls),
      ),
    ),
  );

  // An owner sees their secret gists here too: kept per credential.
  app.get('/users/:username/gists', { schema: { params: userParams, querystring: listQuery }, config: read }, async (request, reply) =>
    respondForCaller(request, reply, () =>
      pagedList(
        request,
        reply,
        (paging) => listForUser(request.ctx, request.params.username, paging, parseSince(request.query.since)),
        (page) => gistListItems(page.items, request.ctx.urls),
      ),
    ),
  );

  app.post('/gists', { schema: { body: createBody }, config: write, bodyLimit, ...judgedLater }, async (request, reply) => {
    const view = await createGistAndView(request.ctx, received(request));
    reply.header('location', request.ctx.urls.api(`/gists/${view.gist.id}`));
    reply.header('last-modified', lastModified(view.gist.updated_at));
    return reply.code(201).send(gistSingle(view, request.ctx.urls, gistMedia(request.mediaParam)));
  });

  // Anyone with the id sees the same gist (secret ones too, as on GitHub): answered from the response cache.
  app.get('/gists/:gist_id', { schema: { params: gistParams }, config: read }, async (request, reply) => {
    return request.ctx.responses.respond(request, reply, cacheKey(request), async () => {
      const gist = await requireGist(request.ctx, request.params.gist_id);
      reply.header('last-modified', lastModified(gist.updated_at));
      return gistSingle(await singleView(request.ctx, gist), request.ctx.urls, gistMedia(request.mediaParam));
    });
  });

  // `gh gist edit` sends POST; GitHub treats it as PATCH.
  for (const method of ['PATCH', 'POST'] as const) {
    app.route({
      method,
      url: '/gists/:gist_id',
      schema: { params: gistParams, body: updateBody },
      config: write,
      bodyLimit,
      ...judgedLater,
      handler: async (request, reply) => {
        const updated = await updateGistAndFiles(request.ctx, request.params.gist_id, received(request));
        return sendSingle(request, reply, updated.gist, 200, { files: updated.files, owner: updated.owner });
      },
    });
  }

  app.delete('/gists/:gist_id', { schema: { params: gistParams }, config: write }, async (request, reply) => {
    await deleteGist(request.ctx, request.params.gist_id);
    return reply.code(204).send();
  });

  app.get('/gists/:gist_id/commits', { schema: { params: gistParams, querystring: pagedQuery }, config: read }, async (request, reply) =>
    pagedList(
      request,
      reply,
      (paging) => listCommits(request.ctx, request.params.gist_id, paging),
      (page) => commitItems(page.items, page.gist.id, request.ctx.urls),
    ),
  );

  app.get('/gists/:gist_id/forks', { schema: { params: gistParams, querystring: pagedQuery }, config: read }, async (request, reply) =>
    pagedList(
      request,
      reply,
      (paging) => listForks(request.ctx, request.params.gist_id, paging),
      (page) => gistListItems(page.items, request.ctx.urls),
    ),
  );

  app.post('/gists/:gist_id/forks', { schema: { params: gistParams }, config: write }, async (request, reply) => {
    const fork = await forkGist(request.ctx, request.params.gist_id);
    reply.header('location', request.ctx.urls.api(`/gists/${fork.id}`));
    return sendSingle(request, reply, fork, 201);
  });

  app.get('/gists/:gist_id/star', { schema: { params: gistParams }, config: read }, async (request, reply) => {
    if (!(await isStarredByCaller(request.ctx, request.params.gist_id))) throw new NotFound();
    return reply.code(204).send();
  });

  app.put('/gists/:gist_id/star', { schema: { params: gistParams }, config: write }, async (request, reply) => {
    await starGist(request.ctx, request.params.gist_id);
    return reply.code(204).send();
  });

  app.delete('/gists/:gist_id/star', { schema: { params: gistParams }, config: write }, async (request, reply) => {
    await unstarGist(request.ctx, request.params.gist_id);
    return reply.code(204).send();
  });

  app.get('/gists/:gist_id/:sha', { schema: { params: revisionParams }, config: read }, async (request) => {
    const view = await revisionView(request.ctx, request.params.gist_id, request.params.sha);
    return gistSingle(view, request.ctx.urls, gistMedia(request.mediaParam));
  });
}
