// The comments under a gist, as on GitHub: each with its author's avatar, login, time and body rendered from
// Markdown (sanitized), "Edit" for its author and "Delete" for its author or the gist's owner; then "Leave a comment"
// with a "Comment" button for a signed-in person, or a link to sign in. And the page that edits one ("Update comment").
import type { CommentView } from '../../gists/comments.js';
import { isoUtc } from '../../core/timestamps.js';
import { html, type Html } from '../html.js';
import { FORM_TOKEN_SLOT, page } from '../layout.js';
import { shownTime } from '../links.js';
import { renderMarkdown, type ImageLinks } from '../markdown.js';

/** What the person typed into a comment form that was refused, and why. */
export interface CommentDraft {
  body: string;
  error: string;
}

export interface CommentsData {
  base: string;
  gistId: string;
  gistOwnerId: number;
  comments: CommentView[];
  /** All comments the gist has (the page may show fewer). */
  total: number;
  viewer: { id: number } | null;
  draft?: CommentDraft;
}

function commentBox(c: CommentView, d: CommentsData, images: ImageLinks): Html {
  const at = isoUtc(c.comment.created_at);
  const link = `${d.base}/gist/${d.gistId}/comments/${c.comment.id}`;
  const mine = d.viewer?.id === c.comment.user_id;
  const removable = mine || d.viewer?.id === d.gistOwnerId;
  const controls = [mine ? html`<a href="${link}/edit">Edit</a>` : '', removable ? html`<a href="${link}/delete">Delete</a>` : ''];
  return html`<article class="comment" id="gistcomment-${c.comment.id}">
<header class="comment-head"><img class="comment-avatar" src="${d.base}/avatars/${c.author.login}?s=40" alt="" width="20" height="20"><a href="${d.base}/gist/${c.author.login}"><strong>${c.author.login}</strong></a> commented <a href="#gistcomment-${c.comment.id}"><time datetime="${at}">${shownTime(at)}</time></a>${mine || removable ? html`<span class="comment-actions">${controls}</span>` : ''}</header>
<div class="markdown comment-body">${renderMarkdown(c.comment.body, { links: images })}</div>
</article>`;
}

/** The comment form's textarea, its label and its error (tied to it). */
function commentField(id: string, label: string, draft: CommentDraft | undefined, text = draft?.body ?? ''): Html {
  const error = draft?.error;
  return html`<div class="field"><label for="${id}">${label}</label>
<textarea id="${id}" name="body" rows="6"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
${text}</textarea>${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}</div>`;
}

export function commentsSection(d: CommentsData, images: ImageLinks): Html {
  const more =
    d.total > d.comments.length
      ? html`<p class="hint">Showing the first ${d.comments.length} of ${d.total} comments; the API lists them all.</p>`
      : '';
  const form = d.viewer
    ? html`<form class="form comment-form" method="post" action="${d.base}/gist/${d.gistId}/comments">${FORM_TOKEN_SLOT}
${commentField('new-comment', 'Leave a comment', d.draft)}
<div class="form-actions"><button type="submit" class="primary">Comment</button></div></form>`
    : html`<p><a href="${d.base}/login?return_to=${encodeURIComponent(`/gist/${d.gistId}`)}">Sign in</a> to leave a comment.</p>`;
  return html`<section class="comments" aria-labelledby="comments-heading">
<h2 id="comments-heading">${d.total === 1 ? '1 comment' : `${d.total} comments`}</h2>
${d.comments.map((c) => commentBox(c, d, images))}${more}
${form}</section>`;
}

/** The page that edits one comment: its text, "Update comment", and a way back. */
export function editCommentPage(o: { base: string; comment: CommentView; draft?: CommentDraft }): Html {
  const gistPage = `${o.base}/gist/${o.comment.gist.id}`;
  const body = html`<div class="form-page wide">
<h1>Edit comment</h1>
<form class="form" method="post" action="${gistPage}/comments/${o.comment.comment.id}">${FORM_TOKEN_SLOT}
${commentField('comment-body', 'Comment', o.draft, o.draft?.body ?? o.comment.comment.body)}
<div class="form-actions"><button type="submit" class="primary">Update comment</button> <a class="button" href="${gistPage}#gistcomment-${o.comment.comment.id}">Cancel</a></div>
</form></div>`;
  return page({ title: 'Edit comment · hublet', base: o.base, noindex: true, body });
}
