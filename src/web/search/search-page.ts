// The gist search page (`/gist/search?q=…`, as gist.github.com/search): the search form, how many gists matched, each
// result as the gist lists show it (owner / file, description, files) with the line that matched, its searched words
// in <mark>, ten a page; the help when nothing was asked, a clear empty state, and what is wrong with a query.
// Every text is escaped by `html`; the only markup in a snippet is the <mark> written here.
import type { Urls } from '../../core/urls.js';
import { isoUtc } from '../../core/timestamps.js';
import type { SearchHit, SearchPage } from '../../gists/search.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';
import { plural, shownTime, userGistsLink } from '../links.js';

/** Results per page, as GitHub's gist search shows them. */
export const SEARCH_PAGE_SIZE = 10;

/** What the page was asked: the query as typed, and GitHub's `s` (sort) and `o` (order). */
export interface SearchAsked {
  q: string;
  sort: string;
  order: string;
}

const SORTS: [string, string][] = [
  ['', 'Best match'],
  ['stars', 'Most stars'],
  ['updated', 'Recently updated'],
];

/** The page's address with these parameters (`p`, the page, left out on the first). */
function searchHref(urls: Urls, asked: SearchAsked, pageNumber = 1): string {
  const params = new URLSearchParams({ q: asked.q });
  if (asked.sort) params.set('s', asked.sort);
  if (asked.sort && asked.order) params.set('o', asked.order);
  if (pageNumber > 1) params.set('p', String(pageNumber));
  return `${urls.html('/gist/search')}?${params}`;
}

function form(urls: Urls, asked: SearchAsked): Html {
  const options = SORTS.map(
    ([value, label]) => html`<option value="${value}"${value === asked.sort ? html` selected` : ''}>${label}</option>`,
  );
  return html`<form class="search-form" action="${urls.html('/gist/search')}" method="get">
<label for="search-q">Search gists</label>
<input id="search-q" type="search" name="q" value="${asked.q}" maxlength="256">
<label for="search-sort">Sort</label>
<select id="search-sort" name="s">${options}</select>
<button type="submit">Search</button>
</form>`;
}

const HELP = html`<section class="search-help" aria-labelledby="search-help-title">
<h2 id="search-help-title">What you can search</h2>
<p>Every word must be found in a gist’s description, file names or file contents; <code>"quoted words"</code> are found together, and <code>NOT word</code> or <code>-word</code> leaves out gists that have it.</p>
<ul>
<li><code>user:octocat</code>: gists of one account</li>
<li><code>filename:.bashrc</code>, <code>extension:py</code>, <code>language:python</code>: gists with such a file</li>
<li><code>stars:&gt;10</code>, <code>stars:10..50</code>: by stars; <code>size:&gt;1000</code>: with a file over 1,000 bytes</li>
<li><code>fork:only</code>: forks alone; <code>fork:false</code>: no forks</li>
</ul>
</section>`;

function snippet(hit: SearchHit): Html | '' {
  const s = hit.snippet;
  if (!s) return '';
  const where = s.filename === null ? 'description' : `${s.filename}, line ${s.line}`;
  const text = s.parts.map((p) => (p.match ? html`<mark>${p.text}</mark>` : p.text));
  return html`<figure class="snippet"><figcaption>${where}</figcaption><pre><code>${text}</code></pre></figure>`;
}

function results(found: SearchPage, urls: Urls): Html {
  const items = found.items.map((hit) => {
    const { gist, owner, files } = hit;
    const at = isoUtc(gist.updated_at);
    return html`<li><a href="${userGistsLink(urls, owner.login)}">${owner.login}</a> / <a href="${urls.html(`/gist/${gist.id}`)}"><strong>${files[0]?.filename ?? gist.id}</strong></a>${gist.public ? '' : html` <span class="badge">Secret</span>`}
${gist.description ? html`<div class="description">${gist.description}</div>` : ''}<div class="files">${plural(files.length, 'file')}: ${files.map((f) => f.filename).join(', ')} · updated <time datetime="${at}">${shownTime(at)}</time></div>
${snippet(hit)}</li>`;
  });
  return html`<ul class="list search-results">${items}</ul>`;
}

function pager(urls: Urls, asked: SearchAsked, found: SearchPage, pageNumber: number): Html | '' {
  const last = Math.max(1, Math.ceil(found.total / SEARCH_PAGE_SIZE));
  if (last <= 1 && pageNumber <= 1) return '';
  const prev = pageNumber > 1 ? html`<a rel="prev" href="${searchHref(urls, asked, Math.min(pageNumber - 1, last))}">Previous</a>` : '';
  const next = pageNumber < last ? html`<a rel="next" href="${searchHref(urls, asked, pageNumber + 1)}">Next</a>` : '';
  return html`<nav class="pages" aria-label="Pages">${prev}<span>Page ${pageNumber} of ${last}</span>${next}</nav>`;
}

function matched(found: SearchPage, cap: number): string {
  if (found.total >= cap) return `${cap.toLocaleString('en')} or more gists found`;
  return `${plural(found.total, 'gist')} found`;
}

function searchPageOf(urls: Urls, asked: SearchAsked, body: Html): Html {
  const title = asked.q ? `${asked.q} · Search gists · hublet` : 'Search gists · hublet';
  return page({ title, base: urls.base, noindex: true, query: asked.q, body: html`<h1>Search gists</h1>\n${form(urls, asked)}\n${body}` });
}

/** The page for a query that found what it found (nothing: the empty state). */
export function resultsPage(urls: Urls, asked: SearchAsked, found: SearchPage, pageNumber: number, countCap: number): Html {
  if (!found.items.length) {
    return searchPageOf(
      urls,
      asked,
      html`<p class="empty" role="status">No gists matched <strong>${asked.q}</strong>. Try fewer or other words, or fewer qualifiers.</p>`,
    );
  }
  return searchPageOf(
    urls,
    asked,
    html`<p class="meta" role="status">${matched(found, countCap)}</p>
${results(found, urls)}
${pager(urls, asked, found, pageNumber)}`,
  );
}

/** The page before anything was asked: the form and what it takes. */
export function helpPage(urls: Urls, asked: SearchAsked): Html {
  return searchPageOf(urls, asked, HELP);
}

/** The page for a query that cannot run: what is wrong, and the help. */
export function problemPage(urls: Urls, asked: SearchAsked, problem: string): Html {
  return searchPageOf(urls, asked, html`<p class="flash flash-error" role="alert">${problem}</p>\n${HELP}`);
}
