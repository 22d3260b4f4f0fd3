// The gist page (`/gist/<id>`) and a past revision of it (`/gist/<id>/<sha>`): description, owner, dates, every file
// rendered, raw, download, clone and embed links, revisions, forks and stars; on the latest revision's page, what its
// viewer may do (Edit and Delete for its owner, Star or Unstar and Fork with their counts) and the comments.
import type { SingleGist } from '../../gists/present.js';
import type { Urls } from '../../core/urls.js';
import { isoUtc } from '../../core/timestamps.js';
import { html, type Html } from '../html.js';
import { commentsSection, type CommentsData } from './comments-section.js';
import { FORM_TOKEN_SLOT, page } from '../layout.js';
import type { ImageLinks } from '../markdown.js';
import { gistLinks, plural, shownTime, userGistsLink, type GistLinks } from '../links.js';
import { renderFile, type ShownFile } from '../render-file.js';

export interface GistPageData {
  view: SingleGist;
  stars: number;
  /** Set when the page shows a past revision: its commit SHA. */
  revision?: string;
  /** The latest revision's page: what its viewer may do (Edit, Delete, Star, Fork) and its comments. */
  social?: { viewer: { id: number; starred: boolean } | null; comments: CommentsData };
}

/** The files of a view with their raw links. */
export function shownFiles(view: SingleGist, links: GistLinks): ShownFile[] {
  return view.files.map((f) => ({
    filename: f.filename,
    size: f.size,
    language: f.language,
    content: f.content,
    rawUrl: links.raw(f.blob_sha, f.filename),
  }));
}

/** What a gist is called: its first file's name (GitHub's title), or its id when it has none. */
export function gistTitle(view: SingleGist): string {
  return view.files[0]?.filename ?? view.gist.id;
}

function time(iso: string): Html {
  const at = isoUtc(iso);
  return html`<time datetime="${at}">${shownTime(at)}</time>`;
}

function actions(data: GistPageData, links: GistLinks, urls: Urls): Html {
  const sha = data.revision ?? data.view.gist.head_sha;
  const embed = `<script src="${links.embed}"></script>`;
  return html`<div class="actions">
<div class="links"><a href="${links.archive(sha, 'zip')}">Download ZIP</a><a href="${links.archive(sha, 'tar.gz')}">Download tar.gz</a><a href="${links.revisions}">Revisions</a><a href="${userGistsLink(urls, data.view.owner.login)}">More by ${data.view.owner.login}</a></div>
<label>Clone with git<input type="text" readonly value="${links.clone}" data-copy="the clone URL"></label>
<label>Embed this gist<input type="text" readonly value="${embed}" data-copy="the embed code"></label>
</div>`;
}

/** A button that posts to `action` (a form of its own, its token filled per request), or for a visitor a link to sign in. */
function postButton(action: string, label: string, signedIn: boolean, base: string, back: string): Html {
  if (!signedIn) return html`<a class="button" href="${base}/login?return_to=${encodeURIComponent(back)}">${label}</a>`;
  return html`<form method="post" action="${action}">${FORM_TOKEN_SLOT}<button type="submit">${label}</button></form>`;
}

/** Edit and Delete for the owner; Star or Unstar and Fork, each with its count beside it. */
function socialActions(data: GistPageData, links: GistLinks, base: string): Html | '' {
  const social = data.social;
  if (!social) return '';
  const { view } = data;
  const viewer = social.viewer;
  const owns = viewer?.id === view.gist.owner_id;
  const back = `/gist/${view.gist.id}`;
  const star = postButton(
    `${links.page}/${viewer?.starred ? 'unstar' : 'star'}`,
    viewer?.starred ? 'Unstar' : 'Star',
    Boolean(viewer),
    base,
    back,
  );
  const fork = owns ? '' : postButton(`${links.page}/fork`, 'Fork', Boolean(viewer), base, back);
  return html`<div class="gist-actions">${owns ? html`<a class="button" href="${links.page}/edit">Edit</a><a class="button danger" href="${links.page}/delete">Delete</a>` : ''}
<span class="counted">${star}<span class="count" title="${plural(data.stars, 'star')}">${data.stars}<span class="visually-hidden"> ${data.stars === 1 ? 'star' : 'stars'}</span></span></span>
<span class="counted">${fork}<span class="count" title="${plural(view.forks.length, 'fork')}">${view.forks.length}<span class="visually-hidden"> ${view.forks.length === 1 ? 'fork' : 'forks'}</span></span></span></div>`;
}

function forksSection(view: SingleGist, urls: Urls): Html | '' {
  if (!view.forks.length) return '';
  const items = view.forks.map(
    (f) =>
      html`<li><a href="${userGistsLink(urls, f.owner.login)}">${f.owner.login}</a> / <a href="${urls.html(`/gist/${f.gist.id}`)}">${f.gist.id}</a> <span class="files">forked ${time(f.gist.created_at)}</span></li>`,
  );
  return html`<h2 id="forks">Forks</h2><ul class="list">${items}</ul>`;
}

/** The whole gist page (or one revision of it); its Markdown shows images by `images`. */
export function gistPage(data: GistPageData, urls: Urls, images: ImageLinks): Html {
  const { view } = data;
  const gist = view.gist;
  const owner = view.owner.login;
  const links = gistLinks(urls, owner, gist.id);
  const files = shownFiles(view, links);
  const title = gistTitle(view);
  const parent = view.forkOf
    ? html` · forked from <a href="${urls.html(`/gist/${view.forkOf.gist.id}`)}">${view.forkOf.owner.login} / ${view.forkOf.files[0]?.filename ?? view.forkOf.gist.id}</a>`
    : '';
  const older = data.revision
    ? html`<p class="notice-bar">You are viewing revision <code>${data.revision.slice(0, 7)}</code>. <a href="${links.page}">View the latest</a>.</p>`
    : '';
  const body = html`<h1><a href="${userGistsLink(urls, owner)}">${owner}</a> / <strong><a href="${links.page}">${title}</a></strong>${gist.public ? '' : html`<span class="badge">Secret</span>`}</h1>
${gist.description ? html`<p class="description">${gist.description}</p>` : ''}
<p class="meta">Created ${time(gist.created_at)} · Updated ${time(gist.updated_at)} · <a href="${links.revisions}">${plural(view.history.length, 'revision')}</a> · ${plural(view.forks.length, 'fork')} · ${plural(data.stars, 'star')}${parent}</p>
${socialActions(data, links, urls.base)}
${older}
${actions(data, links, urls)}
${files.length ? files.map((f) => renderFile(f, files, images)) : html`<p class="empty">This gist has no files.</p>`}
${forksSection(view, urls)}
${data.social ? commentsSection(data.social.comments, images) : ''}`;
  return page({
    title: `${owner}/${title}${data.revision ? ` at ${data.revision.slice(0, 7)}` : ''} · hublet gist`,
    base: urls.base,
    noindex: !gist.public,
    body,
  });
}
