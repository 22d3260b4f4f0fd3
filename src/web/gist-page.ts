// The gist page (`/gist/<id>`) and a past revision of it (`/gist/<id>/<sha>`): description, owner, dates, every file
// rendered, raw, download, clone and embed links, revisions, forks and stars.
import type { SingleGist } from '../gists/present.js';
import type { Urls } from '../core/urls.js';
import { isoUtc } from '../core/timestamps.js';
import { html, type Html } from './html.js';
import { page } from './layout.js';
import type { ImageLinks } from './markdown.js';
import { gistLinks, plural, shownTime, userGistsLink, type GistLinks } from './links.js';
import { renderFile, type ShownFile } from './render-file.js';

export interface GistPageData {
  view: SingleGist;
  stars: number;
  /** Set when the page shows a past revision: its commit SHA. */
  revision?: string;
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
<label>Clone with git<input type="text" readonly value="${links.clone}"></label>
<label>Embed this gist<input type="text" readonly value="${embed}"></label>
</div>`;
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
${older}
${actions(data, links, urls)}
${files.length ? files.map((f) => renderFile(f, files, images)) : html`<p class="empty">This gist has no files.</p>`}
${forksSection(view, urls)}`;
  return page({
    title: `${owner}/${title}${data.revision ? ` at ${data.revision.slice(0, 7)}` : ''} · hublet gist`,
    base: urls.base,
    noindex: !gist.public,
    body,
  });
}
