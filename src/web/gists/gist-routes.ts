// The gist pages: a gist (or, at the same path, a user's gists), its revisions and a past revision, its embed script
// and archives, and the public gists (discover). Anonymous and cached by the change stamp, as every page (routes.ts).
import type { FastifyInstance } from 'fastify';
import { requireAnyAccount } from '../../accounts/service.js';
import { NotFound } from '../../core/errors.js';
import { filesAtRevision, listCommits, listForUser, listPublic, listStarred, revisionView, singleView } from '../../gists/reads.js';
import { findGist, starCounts } from '../../gists/store.js';
import { pathParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import { tarGz, zip } from './archive.js';
import { embedScript } from './embed.js';
import { discoverPage, LIST_PAGE_SIZE, starredPage, userGistsPage } from './gist-lists.js';
import { gistPage } from './gist-page.js';
import { gistPageFor } from './gist-view.js';
import { REVISIONS_PAGE_SIZE, revisionsPage, type RevisionChange } from './revisions-page.js';
import { anonymous, htmlPage, orNotFound, pagedQuery, paging, queryValue, send, webConfig as config, type WebState } from '../serve.js';
import { pageContext } from '../viewer.js';

const GIST_ID = /^[0-9a-f]{32}$/i;
const COMMIT_SHA = /^[0-9a-f]{40}$/i;
/** The largest archive built in memory; a bigger gist is for `git clone`. */
const ARCHIVE_LIMIT_BYTES = 256 * 1024 * 1024;

const gistParams = pathParams('gist_id');
const revisionParams = pathParams('gist_id', 'sha');
const archiveParams = pathParams('owner', 'gist_id', 'sha');
/** `?file=NAME` of the embed script: one file (a repeated `file` names none: every file). */
const embedQuery = { type: 'object', properties: { file: queryValue } } as const;

export function gistPageRoutes(fastify: FastifyInstance, { cache, images }: WebState): void {
  const app = typed(fastify);

  app.get('/gist/discover', { schema: { querystring: pagedQuery }, config }, async (request, reply) => {
    const ctx = pageContext(request);
    const p = paging(request.query.page, LIST_PAGE_SIZE);
    return send(
      reply,
      await cache.get(ctx, `discover ${p.page}`, async () => {
        const list = await orNotFound(listPublic(ctx, p));
        if (!list.items.length && p.page > 1) throw new NotFound();
        return htmlPage(discoverPage(list, p.page, ctx.urls));
      }),
    );
  });

  // A gist (by its id) or a user's gists (by login): one path, as on GitHub's gist host.
  app.get('/gist/:gist_id', { schema: { params: gistParams, querystring: pagedQuery }, config }, async (request, reply) => {
    const ctx = pageContext(request);
    const name = request.params.gist_id;
    const p = paging(request.query.page, LIST_PAGE_SIZE);
    return send(
      reply,
      await cache.get(ctx, `gist ${name.toLowerCase()} ${p.page}`, async () => {
        const gist = GIST_ID.test(name) ? await findGist(ctx.db, name) : undefined;
        if (gist) return htmlPage(await gistPageFor(ctx, gist, images.links(ctx.urls)));
        const account = await orNotFound(requireAnyAccount(ctx, name));
        const list = await listForUser(ctx, account.login, p);
        if (!list.items.length && p.page > 1) throw new NotFound();
        return htmlPage(userGistsPage(account, list, p.page, ctx.urls, ctx.actor?.user.id === account.id));
      }),
    );
  });

  // "Starred gists": the signed-in person's own (anyone else's is not found here; the API lists one's own alone too).
  app.get('/gist/:gist_id/starred', { schema: { params: gistParams, querystring: pagedQuery }, config }, async (request, reply) => {
    const ctx = pageContext(request);
    const viewer = ctx.actor?.user;
    if (!viewer || viewer.login_lower !== request.params.gist_id.toLowerCase()) throw new NotFound();
    const p = paging(request.query.page, LIST_PAGE_SIZE);
    return send(
      reply,
      await cache.get(ctx, `starred ${p.page}`, async () => {
        const list = await listStarred(ctx, p);
        if (!list.items.length && p.page > 1) throw new NotFound();
        return htmlPage(starredPage(viewer, list, p.page, ctx.urls));
      }),
    );
  });

  app.get('/gist/:gist_id/revisions', { schema: { params: gistParams, querystring: pagedQuery }, config }, async (request, reply) => {
    const ctx = pageContext(request);
    const p = paging(request.query.page, REVISIONS_PAGE_SIZE);
    const id = request.params.gist_id.toLowerCase();
    if (!GIST_ID.test(id)) throw new NotFound();
    return send(
      reply,
      await cache.get(ctx, `revisions ${id} ${p.page}`, async () => {
        const gist = await findGist(ctx.db, id);
        if (!gist) throw new NotFound();
        // One revision more than the page shows: the one before its oldest, which that one's diff is against.
        const [view, commits] = await Promise.all([singleView(ctx, gist), listCommits(ctx, gist.id, { ...p, perPage: p.perPage + 1 })]);
        if (!commits.items.length && p.page > 1) throw new NotFound();
        const trees = await Promise.all(commits.items.map((c) => filesAtRevision(ctx, gist, c.revision.version)));
        const changes: RevisionChange[] = commits.items
          .slice(0, p.perPage)
          .map((entry, i) => ({ entry, after: trees[i], before: trees[i + 1] ?? [] }));
        return htmlPage(revisionsPage(view, changes, p.page, commits.total, ctx.urls));
      }),
    );
  });

  // The gist at one of its revisions.
  app.get('/gist/:gist_id/:sha', { schema: { params: revisionParams }, config }, async (request, reply) => {
    const ctx = pageContext(request);
    const { gist_id: id, sha } = request.params;
    if (!GIST_ID.test(id) || !COMMIT_SHA.test(sha)) throw new NotFound();
    return send(
      reply,
      await cache.get(ctx, `revision ${id.toLowerCase()} ${sha.toLowerCase()}`, async () => {
        const view = await orNotFound(revisionView(ctx, id, sha));
        const stars = await starCounts(ctx.db, [view.gist.id]);
        return htmlPage(
          gistPage({ view, stars: stars.get(view.gist.id) ?? 0, revision: sha.toLowerCase() }, ctx.urls, images.links(ctx.urls)),
        );
      }),
    );
  });

  // The embed script: anyone's page may include it (a <script> needs no CORS), so it is the same for every caller.
  app.get('/gist/:gist_id.js', { schema: { params: gistParams, querystring: embedQuery }, config }, async (request, reply) => {
    const ctx = anonymous(request.ctx);
    const id = request.params.gist_id.toLowerCase();
    const file = typeof request.query.file === 'string' ? request.query.file : undefined;
    if (!GIST_ID.test(id)) throw new NotFound();
    const built = await cache.get(ctx, `embed ${id} ${file === undefined ? '*' : JSON.stringify(file)}`, async () => {
      const gist = await findGist(ctx.db, id);
      if (!gist) throw new NotFound();
      const script = embedScript(await singleView(ctx, gist), ctx.urls, file, images.links(ctx.urls));
      if (script === null) throw new NotFound();
      return { status: 200, body: Buffer.from(script), type: 'text/javascript; charset=utf-8' };
    });
    return send(reply, built);
  });

  // Downloads: the gist's files at a revision (or its head), as GitHub's `/<owner>/<id>/archive/<sha>.zip`.
  for (const format of ['zip', 'tar.gz'] as const) {
    app.get(`/gist/:owner/:gist_id/archive/:sha.${format}`, { schema: { params: archiveParams }, config }, async (request, reply) => {
      const ctx = pageContext(request);
      const { owner, gist_id: id, sha } = request.params;
      if (!GIST_ID.test(id) || !COMMIT_SHA.test(sha)) throw new NotFound();
      const gist = await findGist(ctx.db, id);
      if (!gist) throw new NotFound();
      const view = await orNotFound(revisionView(ctx, gist.id, sha));
      if (view.owner.login.toLowerCase() !== owner.toLowerCase()) throw new NotFound();
      if (view.files.reduce((n, f) => n + f.size, 0) > ARCHIVE_LIMIT_BYTES) throw new NotFound();
      const folder = `${gist.id}-${sha.toLowerCase()}`;
      const at = new Date(view.history[0]?.revision.committed_at ?? gist.updated_at);
      const body = format === 'zip' ? zip(folder, view.files, at) : tarGz(folder, view.files, at);
      reply.header('content-disposition', `attachment; filename="${folder}.${format}"`);
      return reply.type(format === 'zip' ? 'application/zip' : 'application/gzip').send(body);
    });
  }
}
