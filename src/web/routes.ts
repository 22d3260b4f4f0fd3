// The web pages' routes: the gist page, its revisions and past revisions, its archives and embed script, a user's gists,
// the public gists, a user's or organization's page, a repository's pages (home, tree, blob, raw), the stylesheets, and
// the image proxy (image-proxy.ts) that shows their Markdown's images from other hosts. Pages are anonymous (a token
// changes nothing they show), outside the API's rate limit, cached by the change stamp, and carry a CSP without inline
// scripts. A browser (Accept: text/html) that asks for what does not exist, or that it may not see, gets the not-found
// page; every other client gets the API's 404 JSON.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../core/context.js';
import { requireAnyAccount } from '../accounts/service.js';
import { filesAtRevision, isBinary, listCommits, listForUser, listPublic, revisionView, singleView } from '../gists/reads.js';
import { findGist, starCounts } from '../gists/store.js';
import { commitAt, fileAt, listForOwner, treeAt } from '../repos/reads.js';
import { resolveRepository } from '../repos/service.js';
import { HttpError, NotFound } from '../core/errors.js';
import { PUBLIC } from '../core/grants.js';
import { parsePaging, type Paging } from '../http/pagination.js';
import { exemptFromRateLimit } from '../http/rate-limit.js';
import { tarGz, zip } from './archive.js';
import { embedScript } from './embed.js';
import { gistPage } from './gist-page.js';
import { ImageProxy, imageProxyRoute } from './image-proxy.js';
import { discoverPage, LIST_PAGE_SIZE, userGistsPage } from './gist-lists.js';
import type { Html } from './html.js';
import { notFoundPage, securityHeaders } from './layout.js';
import { PageCache, type BuiltPage } from './page-cache.js';
import { profilePage } from './profile-page.js';
import { blobPage, readmeIn, repositoryPage, treePage, type RepositoryView } from './repo-pages.js';
import { repositoryLinks } from './links.js';
import { loadRenderers, renderersLoaded } from './renderers.js';
import { REVISIONS_PAGE_SIZE, revisionsPage, type RevisionChange } from './revisions-page.js';
import { embedStylesheet, pageStylesheet, type Stylesheet } from './styles.js';

const HTML_TYPE = 'text/html; charset=utf-8';
const GIST_ID = /^[0-9a-f]{32}$/i;
const COMMIT_SHA = /^[0-9a-f]{40}$/i;
/** The largest archive built in memory; a bigger gist is for `git clone`. */
const ARCHIVE_LIMIT_BYTES = 256 * 1024 * 1024;

type Params<K extends string> = FastifyRequest<{ Params: Record<K, string>; Querystring: Record<string, string | string[] | undefined> }>;

/** Whether the client asked for HTML (browsers do): it gets the HTML not-found page rather than the API's JSON. */
function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(request.headers.accept ?? '');
}

/** The request's context without its caller: pages show what anyone may see, whoever asks. */
function anonymous(request: FastifyRequest): ServiceContext {
  const ctx = Object.create(request.ctx) as ServiceContext;
  ctx.actor = null;
  return ctx;
}

/** The page number of `?page=` (30 a page, or `size`). */
function paging(request: Params<never>, size: number): Paging {
  return parsePaging({ page: request.query.page, per_page: String(size) }, size);
}

function htmlPage(markup: Html, status = 200): BuiltPage {
  return { status, body: Buffer.from(markup.text), type: HTML_TYPE };
}

function send(reply: FastifyReply, built: BuiltPage): FastifyReply {
  if (built.headers) reply.headers(built.headers);
  return reply.code(built.status).type(built.type).send(built.body);
}

/** A read the page needs, where any refusal of the API (404, 422) is simply "not here". */
async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof HttpError && err.status >= 400 && err.status < 500) throw new NotFound();
    throw err;
  }
}

function serveStylesheet(sheet: Stylesheet) {
  return async (request: Params<never>, reply: FastifyReply) => {
    const versioned = request.query.v === sheet.version;
    reply.header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    return reply.type('text/css; charset=utf-8').send(sheet.body);
  };
}

export async function webRoutes(app: FastifyInstance): Promise<void> {
  exemptFromRateLimit(app);
  const cache = new PageCache(app.hublet.config.responseCacheMiB * 1024 * 1024);
  const config = { grant: PUBLIC };
  const images = new ImageProxy(app.hublet);
  app.addHook('onClose', () => images.close());

  // Pages render with libraries loaded by the first page request (renderers.ts); later requests pass straight on.
  app.addHook('onRequest', (_request, _reply, done) => {
    if (renderersLoaded()) return done();
    loadRenderers().then(() => done(), done);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    securityHeaders(reply);
    return payload;
  });
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof HttpError && error.status === 404 && wantsHtml(request)) {
      return send(reply, htmlPage(notFoundPage(request.ctx.urls.base), 404));
    }
    // Everything else is answered by the app's handler, in the API's shape.
    throw error;
  });

  app.get('/-/web.css', { config }, serveStylesheet(pageStylesheet));
  app.get('/-/embed.css', { config }, serveStylesheet(embedStylesheet));
  imageProxyRoute(app, images);

  app.get('/gist/discover', { config }, async (request: Params<never>, reply) => {
    const ctx = anonymous(request);
    const p = paging(request, LIST_PAGE_SIZE);
    return send(reply, await cache.get(ctx.db, `discover ${p.page}`, async () => {
      const list = await orNotFound(listPublic(ctx, p));
      if (!list.items.length && p.page > 1) throw new NotFound();
      return htmlPage(discoverPage(list, p.page, ctx.urls));
    }));
  });

  // A gist (by its id) or a user's gists (by login): one path, as on GitHub's gist host.
  app.get('/gist/:gist_id', { config }, async (request: Params<'gist_id'>, reply) => {
    const ctx = anonymous(request);
    const name = request.params.gist_id;
    const p = paging(request, LIST_PAGE_SIZE);
    return send(reply, await cache.get(ctx.db, `gist ${name.toLowerCase()} ${p.page}`, async () => {
      const gist = GIST_ID.test(name) ? await findGist(ctx.db, name) : undefined;
      if (gist) {
        const [view, stars] = await Promise.all([singleView(ctx, gist), starCounts(ctx.db, [gist.id])]);
        return htmlPage(gistPage({ view, stars: stars.get(gist.id) ?? 0 }, ctx.urls, images.links(ctx.urls)));
      }
      const account = await orNotFound(requireAnyAccount(ctx, name));
      const list = await listForUser(ctx, account.login, p);
      if (!list.items.length && p.page > 1) throw new NotFound();
      return htmlPage(userGistsPage(account, list, p.page, ctx.urls));
    }));
  });

  app.get('/gist/:gist_id/revisions', { config }, async (request: Params<'gist_id'>, reply) => {
    const ctx = anonymous(request);
    const p = paging(request, REVISIONS_PAGE_SIZE);
    const id = request.params.gist_id.toLowerCase();
    if (!GIST_ID.test(id)) throw new NotFound();
    return send(reply, await cache.get(ctx.db, `revisions ${id} ${p.page}`, async () => {
      const gist = await findGist(ctx.db, id);
      if (!gist) throw new NotFound();
      // One revision more than the page shows: the one before its oldest, which that one's diff is against.
      const [view, commits] = await Promise.all([singleView(ctx, gist), listCommits(ctx, gist.id, { ...p, perPage: p.perPage + 1 })]);
      if (!commits.items.length && p.page > 1) throw new NotFound();
      const trees = await Promise.all(commits.items.map((c) => filesAtRevision(ctx, gist, c.revision.version)));
      const changes: RevisionChange[] = commits.items.slice(0, p.perPage).map((entry, i) => ({ entry, after: trees[i], before: trees[i + 1] ?? [] }));
      return htmlPage(revisionsPage(view, changes, p.page, commits.total, ctx.urls));
    }));
  });

  // The gist at one of its revisions.
  app.get('/gist/:gist_id/:sha', { config }, async (request: Params<'gist_id' | 'sha'>, reply) => {
    const ctx = anonymous(request);
    const { gist_id: id, sha } = request.params;
    if (!GIST_ID.test(id) || !COMMIT_SHA.test(sha)) throw new NotFound();
    return send(reply, await cache.get(ctx.db, `revision ${id.toLowerCase()} ${sha.toLowerCase()}`, async () => {
      const view = await orNotFound(revisionView(ctx, id, sha));
      const stars = await starCounts(ctx.db, [view.gist.id]);
      return htmlPage(gistPage({ view, stars: stars.get(view.gist.id) ?? 0, revision: sha.toLowerCase() }, ctx.urls, images.links(ctx.urls)));
    }));
  });

  // The embed script: anyone's page may include it (a <script> needs no CORS), so it is the same for every caller.
  app.get('/gist/:gist_id.js', { config }, async (request: Params<'gist_id'>, reply) => {
    const ctx = anonymous(request);
    const id = request.params.gist_id.toLowerCase();
    const file = typeof request.query.file === 'string' ? request.query.file : undefined;
    if (!GIST_ID.test(id)) throw new NotFound();
    const built = await cache.get(ctx.db, `embed ${id} ${file === undefined ? '*' : JSON.stringify(file)}`, async () => {
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
    app.get(`/gist/:owner/:gist_id/archive/:sha.${format}`, { config }, async (request: Params<'owner' | 'gist_id' | 'sha'>, reply) => {
      const ctx = anonymous(request);
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

  // A user's or an organization's page: the html_url of accounts.
  app.get('/:owner', { config }, async (request: Params<'owner'>, reply) => {
    const ctx = anonymous(request);
    const login = request.params.owner;
    return send(reply, await cache.get(ctx.db, `profile ${login.toLowerCase()}`, async () => {
      const account = await orNotFound(requireAnyAccount(ctx, login));
      const [repos, gists] = await Promise.all([
        listForOwner(ctx, account, { affiliations: ['owner'], sort: 'pushed', direction: 'desc', offset: 0, limit: LIST_PAGE_SIZE }),
        account.type === 'User' ? listForUser(ctx, account.login, { page: 1, perPage: 10, offset: 0 }) : null,
      ]);
      return htmlPage(profilePage({ account, repos, gists }, ctx.urls));
    }));
  });

  // A repository's home: the html_url of repositories (private ones, like anything the visitor may not see, are 404).
  app.get('/:owner/:repo', { config }, async (request: Params<'owner' | 'repo'>, reply) => {
    const ctx = anonymous(request);
    const { owner, repo: name } = request.params;
    return send(reply, await cache.get(ctx.db, `repository ${owner.toLowerCase()}/${name.toLowerCase()}`, async () => {
      const view = await repositoryView(ctx, owner, name);
      const commit = await commitAt(ctx, view.repo, view.repo.default_branch);
      const root = commit ? await treeAt(ctx, view.repo, commit, '') : null;
      const readme = commit && root ? await readmeOf(ctx, view, commit, '', root) : null;
      return htmlPage(repositoryPage(view, root, readme, ctx.urls, images.links(ctx.urls)));
    }));
  });

  // A directory, a file and a file's bytes at a ref: `…/tree/<ref>/<path>`, `…/blob/<ref>/<path>`, `…/raw/<ref>/<path>`.
  for (const view of ['tree', 'blob', 'raw'] as const) {
    app.get(`/:owner/:repo/${view}/*`, { config }, async (request: Params<'owner' | 'repo' | '*'>, reply) => {
      const ctx = anonymous(request);
      const { owner, repo: name } = request.params;
      const rest = request.params['*'];
      if (view === 'raw') {
        const found = await repositoryView(ctx, owner, name);
        const at = await refAndPath(ctx, found, rest);
        const bytes = at?.path ? await fileAt(ctx, found.repo, at.commit, at.path) : null;
        if (!bytes) throw new NotFound();
        // Bytes as the gists' raw URLs serve them: never rendered by the browser as a page of this origin.
        reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
        reply.header('access-control-allow-origin', '*');
        return reply.type(isBinary(bytes) ? 'application/octet-stream' : 'text/plain; charset=utf-8').send(bytes);
      }
      const built = await cache.get(ctx.db, `${view} ${owner.toLowerCase()}/${name.toLowerCase()} ${rest}`, async () => {
        const found = await repositoryView(ctx, owner, name);
        const at = await refAndPath(ctx, found, rest);
        if (!at) throw new NotFound();
        const links = repositoryLinks(ctx.urls, found.owner.login, found.repo.name);
        const items = await treeAt(ctx, found.repo, at.commit, at.path);
        if (items) {
          if (view === 'blob') return redirect(links.tree(at.ref, at.path));
          return htmlPage(treePage(found, at.ref, at.path, items, await readmeOf(ctx, found, at.commit, at.path, items), ctx.urls, images.links(ctx.urls)));
        }
        const bytes = at.path ? await fileAt(ctx, found.repo, at.commit, at.path) : null;
        if (!bytes) throw new NotFound();
        if (view === 'tree') return redirect(links.blob(at.ref, at.path));
        return htmlPage(blobPage(found, at.ref, at.path, bytes, ctx.urls, images.links(ctx.urls)));
      });
      return send(reply, built);
    });
  }
}

/** A redirect, kept in the page cache like a page (a path's kind changes only with a push). */
function redirect(location: string): BuiltPage {
  return { status: 302, body: Buffer.alloc(0), type: HTML_TYPE, headers: { location } };
}

/** The repository as an anonymous visitor may see it: a private one, or a missing one, is not here. */
async function repositoryView(ctx: ServiceContext, owner: string, name: string): Promise<RepositoryView> {
  const resolved = await orNotFound(resolveRepository(ctx, owner, name));
  return { repo: resolved.repo, owner: resolved.owner };
}

/** The README of a directory with its bytes, when it has one. */
async function readmeOf(ctx: ServiceContext, view: RepositoryView, commit: string, dir: string, items: Parameters<typeof readmeIn>[0]) {
  const entry = readmeIn(items);
  if (!entry) return null;
  const content = await fileAt(ctx, view.repo, commit, dir ? `${dir}/${entry.name}` : entry.name);
  return content ? { name: entry.name, content } : null;
}

/** Splits `<ref>/<path>` where the ref may hold slashes: the shortest leading segments that name a branch, tag or commit. */
async function refAndPath(ctx: ServiceContext, view: RepositoryView, rest: string): Promise<{ ref: string; commit: string; path: string } | null> {
  const parts = rest.split('/');
  for (let n = 1; n <= Math.min(parts.length, 10); n++) {
    const ref = parts.slice(0, n).join('/');
    const commit = await commitAt(ctx, view.repo, ref);
    if (commit) return { ref, commit, path: parts.slice(n).filter(Boolean).join('/') };
  }
  return null;
}
