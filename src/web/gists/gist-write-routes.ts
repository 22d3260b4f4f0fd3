// Writing gists on the web, signed in, at GitHub's gist addresses: the new-gist form (GET /gist/new, POST /gist), the
// edit form (GET /gist/<id>/edit, POST /gist/<id>), and deleting after a confirmation page (GET and POST
// /gist/<id>/delete). Each goes through the API's services (gists/service.ts: the same rules, limits, revisions and
// events); a refused form comes back (422) with what was typed and each problem next to its field.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceContext } from '../../core/context.js';
import { NotFound, ValidationFailed, type FieldError } from '../../core/errors.js';
import { singleView } from '../../gists/reads.js';
import { createGistFrom, deleteGist, updateGistFrom } from '../../gists/service.js';
import { findGist } from '../../gists/store.js';
import { pathParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import { field, formSchema } from '../forms.js';
import { isBinary } from '../../gists/reads.js';
import { gistTitle } from './gist-page.js';
import { htmlPage, send, webConfig as config } from '../serve.js';
import { asViewer } from '../viewer.js';
import {
  createBody,
  type GistForm,
  type GistFormErrors,
  hasErrors,
  noErrors,
  placeErrors,
  readGistForm,
  updateBody,
  withAddedFile,
} from './gist-form.js';
import { confirmPage, type EditedGist, gistFormPage } from './gist-form-page.js';

const GIST_ID = /^[0-9a-f]{32}$/i;
const gistParams = pathParams('gist_id');
const noQuery = { querystring: { type: 'object' } } as const;

/** The viewer's own gist and its page's view, or 404 (someone else's gist is not theirs to change). */
async function ownGist(ctx: ServiceContext, id: string) {
  const gist = GIST_ID.test(id) ? await findGist(ctx.db, id.toLowerCase()) : undefined;
  if (!gist || gist.owner_id !== ctx.actor?.user.id) throw new NotFound();
  return singleView(ctx, gist);
}

function edited(view: Awaited<ReturnType<typeof ownGist>>): EditedGist {
  return {
    id: view.gist.id,
    owner: view.owner.login,
    title: gistTitle(view),
    public: view.gist.public === 1,
    binaryFiles: view.files.filter((f) => isBinary(f.content)).map((f) => f.filename),
  };
}

/** Saves through `save`; a refusal of the API comes back as the form with its problems placed (422). */
async function saveOrShow(
  reply: FastifyReply,
  planned: { errors: GistFormErrors; keys: Map<string, number> },
  save: () => Promise<string>,
  show: (errors: GistFormErrors, status: number) => FastifyReply,
): Promise<FastifyReply> {
  if (hasErrors(planned.errors)) return show(planned.errors, 422);
  try {
    return reply.redirect(await save(), 303);
  } catch (err) {
    if (!(err instanceof ValidationFailed)) throw err;
    return show(placeErrors(err.extra.errors as FieldError[], planned.keys), 422);
  }
}

export function gistWriteRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);

  app.get('/gist/new', { schema: { ...noQuery }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const form: GistForm = { description: '', files: [{ name: '', content: '', original: '', removed: false }] };
      return send(reply, htmlPage(gistFormPage({ base: ctx.urls.base, form, errors: noErrors() })));
    }),
  );

  // A form carries a gist's files: the API's body limit, not the 1 MiB of other forms.
  const bodyLimit = fastify.hublet.config.bodyLimitBytes;

  app.post('/gist', { schema: formSchema, config, bodyLimit }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const form = readGistForm(request.body);
        const show = (errors: GistFormErrors, status: number, shown = form) =>
          send(reply, htmlPage(gistFormPage({ base: ctx.urls.base, form: shown, errors }), status));
        if (field(request.body, 'add_file')) return show(noErrors(), 200, withAddedFile(form));
        const planned = createBody(form, field(request.body, 'visibility') === 'public');
        return saveOrShow(reply, planned, async () => `${ctx.urls.base}/gist/${(await createGistFrom(ctx, planned.body)).id}`, show);
      },
      '/gist/new',
    ),
  );

  app.get('/gist/:gist_id/edit', { schema: { params: gistParams, ...noQuery }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const view = await ownGist(ctx, request.params.gist_id);
      const files = view.files
        .filter((f) => !isBinary(f.content))
        .map((f) => ({ name: f.filename, content: f.content.toString('utf8'), original: f.filename, removed: false }));
      const form: GistForm = { description: view.gist.description, files };
      return send(reply, htmlPage(gistFormPage({ base: ctx.urls.base, gist: edited(view), form, errors: noErrors() })));
    }),
  );

  app.post('/gist/:gist_id', { schema: { ...formSchema, params: gistParams }, config, bodyLimit }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const view = await ownGist(ctx, request.params.gist_id);
        const form = readGistForm(request.body);
        const show = (errors: GistFormErrors, status: number, shown = form) =>
          send(reply, htmlPage(gistFormPage({ base: ctx.urls.base, gist: edited(view), form: shown, errors }), status));
        if (field(request.body, 'add_file')) return show(noErrors(), 200, withAddedFile(form));
        const planned = updateBody(form);
        return saveOrShow(
          reply,
          planned,
          async () => `${ctx.urls.base}/gist/${(await updateGistFrom(ctx, view.gist.id, planned.body)).id}`,
          show,
        );
      },
      `/gist/${request.params.gist_id}/edit`,
    ),
  );

  app.get('/gist/:gist_id/delete', { schema: { params: gistParams, ...noQuery }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const view = await ownGist(ctx, request.params.gist_id);
      const at = `${ctx.urls.base}/gist/${view.gist.id}`;
      const question = `Are you sure you want to delete this gist (${view.owner.login} / ${gistTitle(view)})? Its files, revisions, stars and comments go with it.`;
      const markup = confirmPage({
        base: ctx.urls.base,
        title: 'Delete gist',
        question,
        action: `${at}/delete`,
        button: 'Delete gist',
        cancel: at,
      });
      return send(reply, htmlPage(markup));
    }),
  );

  app.post('/gist/:gist_id/delete', { schema: { ...formSchema, params: gistParams }, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx, viewer) => {
        const view = await ownGist(ctx, request.params.gist_id);
        await deleteGist(ctx, view.gist.id);
        return reply.redirect(`${ctx.urls.base}/gist/${viewer.user.login}`, 303);
      },
      `/gist/${request.params.gist_id}`,
    ),
  );
}
