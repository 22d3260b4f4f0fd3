// Gist comments: list, read, create, edit (author only) and delete (author or gist owner), with `comments` counts kept true.
import { accountsByIds } from '../accounts/store.js';
import type { UserRow } from '../db/schema.js';
import type { ServiceContext } from '../core/context.js';
import { NotFound } from '../core/errors.js';
import { idFrom } from '../core/ids.js';
import type { Paging } from '../http/pagination.js';
import { parseCommentBody } from './schemas.js';
import { requireGist, requireWriter } from './service.js';
import { deleteComment, findComment, insertComment, listComments, updateCommentBody } from './store.js';
import type { GistCommentRow, GistRow } from '../db/tables/gists.js';

export interface CommentView {
  comment: GistCommentRow;
  author: UserRow;
  gist: GistRow;
}

async function views(ctx: ServiceContext, gist: GistRow, comments: GistCommentRow[]): Promise<CommentView[]> {
  const users = await accountsByIds(
    ctx.db,
    comments.map((c) => c.user_id),
  );
  return comments.map((comment) => ({ comment, author: users.get(comment.user_id)!, gist }));
}

async function requireComment(ctx: ServiceContext, gistId: string, commentId: string): Promise<{ gist: GistRow; comment: GistCommentRow }> {
  const gist = await requireGist(ctx, gistId);
  const id = idFrom(commentId);
  const comment = id === undefined ? undefined : await findComment(ctx.db, gist.id, id);
  if (!comment) throw new NotFound();
  return { gist, comment };
}

/** A gist's comments, oldest first; `total` is the gist's comment count. */
export async function listGistComments(
  ctx: ServiceContext,
  gistId: string,
  paging: Paging,
): Promise<{ items: CommentView[]; total: number }> {
  const gist = await requireGist(ctx, gistId);
  const rows = await listComments(ctx.db, gist.id, { offset: paging.offset, limit: paging.perPage });
  return { items: await views(ctx, gist, rows), total: gist.comments };
}

export async function getGistComment(ctx: ServiceContext, gistId: string, commentId: string): Promise<CommentView> {
  const { gist, comment } = await requireComment(ctx, gistId, commentId);
  return (await views(ctx, gist, [comment]))[0];
}

/** Comments on a gist (anyone signed in with the gist grant; secret gists too, by their id). */
export async function createGistComment(ctx: ServiceContext, gistId: string, body: string): Promise<CommentView> {
  const actor = requireWriter(ctx);
  const gist = await requireGist(ctx, gistId);
  const text = parseCommentBody(body);
  const comment = await insertComment(ctx.db, {
    gist_id: gist.id,
    user_id: actor.user.id,
    body: text,
    created_at: ctx.clock.now().toISOString(),
  });
  return { comment, author: actor.user, gist };
}

/** Edits a comment: only its author may (404 for anyone else). */
export async function updateGistComment(ctx: ServiceContext, gistId: string, commentId: string, body: string): Promise<CommentView> {
  const actor = requireWriter(ctx);
  const { gist, comment } = await requireComment(ctx, gistId, commentId);
  if (comment.user_id !== actor.user.id) throw new NotFound();
  const text = parseCommentBody(body);
  const updated = await updateCommentBody(ctx.db, comment.id, text, ctx.clock.now().toISOString());
  return { comment: updated, author: actor.user, gist };
}

/** Deletes a comment: its author or the gist's owner may (404 for anyone else). */
export async function deleteGistComment(ctx: ServiceContext, gistId: string, commentId: string): Promise<void> {
  const actor = requireWriter(ctx);
  const { gist, comment } = await requireComment(ctx, gistId, commentId);
  if (comment.user_id !== actor.user.id && gist.owner_id !== actor.user.id) throw new NotFound();
  await deleteComment(ctx.db, gist.id, comment.id);
}
