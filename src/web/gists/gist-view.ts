// The latest revision's gist page as its viewer sees it: the gist, its star count, whether the viewer starred it, and
// its comments (the first COMMENTS_SHOWN, oldest first), with a refused comment's draft when a comment form comes back.
import type { ServiceContext } from '../../core/context.js';
import type { GistRow } from '../../db/tables/gists.js';
import { listGistComments } from '../../gists/comments.js';
import { singleView } from '../../gists/reads.js';
import { isStarredByCaller } from '../../gists/service.js';
import { starCounts } from '../../gists/store.js';
import type { Html } from '../html.js';
import { gistPage } from './gist-page.js';
import type { ImageLinks } from '../markdown.js';
import type { CommentDraft } from './comments-section.js';

/** Comments a gist page shows; the API lists the rest. */
const COMMENTS_SHOWN = 200;

export async function gistPageFor(ctx: ServiceContext, gist: GistRow, images: ImageLinks, draft?: CommentDraft): Promise<Html> {
  const viewer = ctx.actor?.user ?? null;
  const [view, stars, comments, starred] = await Promise.all([
    singleView(ctx, gist),
    starCounts(ctx.db, [gist.id]),
    listGistComments(ctx, gist.id, { page: 1, perPage: COMMENTS_SHOWN, offset: 0 }),
    viewer ? isStarredByCaller(ctx, gist.id) : false,
  ]);
  const social = {
    viewer: viewer ? { id: viewer.id, starred } : null,
    comments: {
      base: ctx.urls.base,
      gistId: gist.id,
      gistOwnerId: gist.owner_id,
      comments: comments.items,
      total: comments.total,
      viewer: viewer ? { id: viewer.id } : null,
      draft,
    },
  };
  return gistPage({ view, stars: stars.get(gist.id) ?? 0, social }, ctx.urls, images);
}
