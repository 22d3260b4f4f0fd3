// A repository's pages (the html_url of repositories): its home (files and README of the default branch), and a
// directory, a file and a file's bytes at a ref (`…/tree/<ref>/<path>`, `…/blob/<ref>/<path>`, `…/raw/<ref>/<path>`).
// A private repository, like anything missing, is not here. Anonymous and cached by the change stamp (routes.ts).
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../core/context.js';
import { NotFound } from '../../core/errors.js';
import { isBinary } from '../../gists/reads.js';
import { commitAt, fileAt, treeAt } from '../../repos/reads.js';
import { resolveRepository } from '../../repos/service.js';
import { pathParams, repoParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import { repositoryLinks } from '../links.js';
import { blobPage, readmeIn, repositoryPage, treePage, type RepositoryView } from './repo-pages.js';
import { htmlPage, orNotFound, redirect, send, webConfig as config, type WebState } from '../serve.js';
import { pageContext } from '../viewer.js';

/** `/<owner>/<repo>/<view>/<ref>/<path>`: the wildcard is the ref and the path. */
const refPathParams = pathParams('owner', 'repo', '*');

export function repoPageRoutes(fastify: FastifyInstance, { cache, images }: WebState): void {
  const app = typed(fastify);

  // A repository's home: the html_url of repositories (private ones, like anything the visitor may not see, are 404).
  app.get('/:owner/:repo', { schema: { params: repoParams }, config }, async (request, reply) => {
    const ctx = pageContext(request);
    const { owner, repo: name } = request.params;
    return send(
      reply,
      await cache.get(ctx, `repository ${owner.toLowerCase()}/${name.toLowerCase()}`, async () => {
        const view = await repositoryView(ctx, owner, name);
        const commit = await commitAt(ctx, view.repo, view.repo.default_branch);
        const root = commit ? await treeAt(ctx, view.repo, commit, '') : null;
        const readme = commit && root ? await readmeOf(ctx, view, commit, '', root) : null;
        return htmlPage(repositoryPage(view, root, readme, ctx.urls, images.links(ctx.urls)));
      }),
    );
  });

  // A directory, a file and a file's bytes at a ref: `…/tree/<ref>/<path>`, `…/blob/<ref>/<path>`, `…/raw/<ref>/<path>`.
  for (const view of ['tree', 'blob', 'raw'] as const) {
    app.get(`/:owner/:repo/${view}/*`, { schema: { params: refPathParams }, config }, async (request, reply) => {
      const ctx = pageContext(request);
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
      const built = await cache.get(ctx, `${view} ${owner.toLowerCase()}/${name.toLowerCase()} ${rest}`, async () => {
        const found = await repositoryView(ctx, owner, name);
        const at = await refAndPath(ctx, found, rest);
        if (!at) throw new NotFound();
        const links = repositoryLinks(ctx.urls, found.owner.login, found.repo.name);
        const items = await treeAt(ctx, found.repo, at.commit, at.path);
        if (items) {
          if (view === 'blob') return redirect(links.tree(at.ref, at.path));
          return htmlPage(
            treePage(
              found,
              at.ref,
              at.path,
              items,
              await readmeOf(ctx, found, at.commit, at.path, items),
              ctx.urls,
              images.links(ctx.urls),
            ),
          );
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
async function refAndPath(
  ctx: ServiceContext,
  view: RepositoryView,
  rest: string,
): Promise<{ ref: string; commit: string; path: string } | null> {
  const parts = rest.split('/');
  for (let n = 1; n <= Math.min(parts.length, 10); n++) {
    const ref = parts.slice(0, n).join('/');
    const commit = await commitAt(ctx, view.repo, ref);
    if (commit) return { ref, commit, path: parts.slice(n).filter(Boolean).join('/') };
  }
  return null;
}
