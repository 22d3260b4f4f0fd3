// A gist's revisions (`/gist/<id>/revisions`): newest first, each with who made it, when, and its diff against the
// revision before it, file by file (jsdiff's unified hunks as a table), ten revisions a page.
import { structuredPatch } from 'diff';
import type { FileWithContent, HistoryView, SingleGist } from '../../gists/present.js';
import type { Urls } from '../../core/urls.js';
import { isoUtc } from '../../core/timestamps.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';
import { gistLinks, plural, shownTime, userGistsLink } from '../links.js';
import { gistTitle } from './gist-page.js';

/** Revisions per page. */
export const REVISIONS_PAGE_SIZE = 10;
/** Files whose two sides together exceed this are not diffed on the page. */
const DIFF_LIMIT_BYTES = 256 * 1024;

export interface RevisionChange {
  entry: HistoryView;
  /** The files of the revision before it (none for the first). */
  before: FileWithContent[];
  after: FileWithContent[];
}

function isText(content: Buffer): boolean {
  return !content.includes(0);
}

function fileDiff(name: string, before: FileWithContent | undefined, after: FileWithContent | undefined, revisionHref: string): Html | '' {
  if (before && after && before.blob_sha === after.blob_sha) return '';
  const state = !before ? 'added' : !after ? 'removed' : 'changed';
  const head = html`<div class="file-head"><h3 class="file-name">${name}</h3><span class="file-info">${state}</span></div>`;
  const sides = [before?.content, after?.content].filter((c): c is Buffer => c !== undefined);
  if (!sides.every(isText)) return html`<section class="file">${head}<p class="notice">Binary file ${state}.</p></section>`;
  if (sides.reduce((n, c) => n + c.length, 0) > DIFF_LIMIT_BYTES) {
    return html`<section class="file">${head}<p class="notice">This diff is too large to show: <a href="${revisionHref}">view the revision</a>.</p></section>`;
  }
  const patch = structuredPatch(
    name,
    name,
    before?.content.toString('utf8') ?? '',
    after?.content.toString('utf8') ?? '',
    undefined,
    undefined,
    {
      context: 3,
      maxEditLength: 5000,
      timeout: 2000,
    },
  );
  if (!patch)
    return html`<section class="file">${head}<p class="notice">This diff is too large to show: <a href="${revisionHref}">view the revision</a>.</p></section>`;
  const rows: Html[] = [];
  for (const hunk of patch.hunks) {
    rows.push(
      html`<tr class="hunk"><td class="num"></td><td class="num"></td><td>@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@</td></tr>`,
    );
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === '+') rows.push(html`<tr class="add"><td class="num"></td><td class="num">${newLine++}</td><td>+${text}</td></tr>`);
      else if (mark === '-') rows.push(html`<tr class="del"><td class="num">${oldLine++}</td><td class="num"></td><td>-${text}</td></tr>`);
      else if (mark === ' ') rows.push(html`<tr><td class="num">${oldLine++}</td><td class="num">${newLine++}</td><td> ${text}</td></tr>`);
    }
  }
  const caption = html`<caption class="visually-hidden">Changes to ${name}</caption>`;
  return html`<section class="file">${head}<table class="diff">${caption}<tbody>${rows}</tbody></table></section>`;
}

function revisionSection(change: RevisionChange, view: SingleGist, urls: Urls): Html {
  const { revision, user } = change.entry;
  const links = gistLinks(urls, view.owner.login, view.gist.id);
  const href = links.revision(revision.version);
  const names = [...new Set([...change.before, ...change.after].map((f) => f.filename))].sort((a, b) =>
    Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
  const before = new Map(change.before.map((f) => [f.filename, f]));
  const after = new Map(change.after.map((f) => [f.filename, f]));
  const at = isoUtc(revision.committed_at);
  const who = user ? html`<a href="${userGistsLink(urls, user.login)}">${user.login}</a>` : 'someone';
  const diffs = names.map((n) => fileDiff(n, before.get(n), after.get(n), href));
  return html`<section class="revision" aria-label="Revision ${revision.version.slice(0, 7)}">
<h2>${who} revised this gist <time datetime="${at}">${shownTime(at)}</time> · <a href="${href}"><code>${revision.version.slice(0, 7)}</code></a></h2>
<p class="meta">${plural(revision.additions, 'addition')} · ${plural(revision.deletions, 'deletion')}</p>
${diffs.some((d) => d !== '') ? diffs : html`<p class="empty">No file changed.</p>`}
</section>`;
}

/** The revisions page. */
export function revisionsPage(view: SingleGist, changes: RevisionChange[], pageNumber: number, total: number, urls: Urls): Html {
  const links = gistLinks(urls, view.owner.login, view.gist.id);
  const title = gistTitle(view);
  const last = Math.max(1, Math.ceil(total / REVISIONS_PAGE_SIZE));
  const href = (n: number) => (n <= 1 ? links.revisions : `${links.revisions}?page=${n}`);
  const pager =
    last > 1
      ? html`<nav class="pages" aria-label="Pages">${pageNumber > 1 ? html`<a rel="prev" href="${href(Math.min(pageNumber - 1, last))}">Newer</a>` : ''}<span>Page ${pageNumber} of ${last}</span>${pageNumber < last ? html`<a rel="next" href="${href(pageNumber + 1)}">Older</a>` : ''}</nav>`
      : '';
  const body = html`<h1><a href="${userGistsLink(urls, view.owner.login)}">${view.owner.login}</a> / <strong><a href="${links.page}">${title}</a></strong>${view.gist.public ? '' : html`<span class="badge">Secret</span>`}</h1>
<p class="meta">${plural(total, 'revision')}, the newest first</p>
${changes.length ? changes.map((c) => revisionSection(c, view, urls)) : html`<p class="empty">No revisions on this page.</p>`}
${pager}`;
  return page({ title: `Revisions of ${view.owner.login}/${title} · hublet gist`, base: urls.base, noindex: !view.gist.public, body });
}
