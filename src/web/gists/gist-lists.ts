// Lists of gists as pages: a user's public gists (`/gist/<login>`; to themself "Your gists", secret ones too), the
// signed-in person's starred gists (`/gist/<login>/starred`) and every public gist (`/gist/discover`), newest first, a
// page of 30 at a time with previous/next links.
import type { UserRow } from '../../db/schema.js';
import type { ListPage } from '../../gists/reads.js';
import type { Urls } from '../../core/urls.js';
import { isoUtc } from '../../core/timestamps.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';
import { plural, shownTime, userGistsLink } from '../links.js';

/** Gists per list page. */
export const LIST_PAGE_SIZE = 30;

function listItems(list: ListPage, urls: Urls, empty = 'No public gists here.'): Html {
  if (!list.items.length) return html`<p class="empty">${empty}</p>`;
  const items = list.items.map(({ gist, owner, files }) => {
    const title = files[0]?.filename ?? gist.id;
    const at = isoUtc(gist.updated_at);
    const names = files.map((f) => f.filename).join(', ');
    return html`<li><a href="${userGistsLink(urls, owner.login)}">${owner.login}</a> / <a href="${urls.html(`/gist/${gist.id}`)}"><strong>${title}</strong></a>${gist.public ? '' : html` <span class="badge">Secret</span>`}
${gist.description ? html`<div class="description">${gist.description}</div>` : ''}<div class="files">${plural(files.length, 'file')}: ${names} · updated <time datetime="${at}">${shownTime(at)}</time></div></li>`;
  });
  return html`<ul class="list">${items}</ul>`;
}

function pager(list: ListPage, pageNumber: number, href: (n: number) => string): Html | '' {
  const last = Math.max(1, Math.ceil(list.total / LIST_PAGE_SIZE));
  if (last <= 1 && pageNumber <= 1) return '';
  const prev = pageNumber > 1 ? html`<a rel="prev" href="${href(Math.min(pageNumber - 1, last))}">Previous</a>` : '';
  const next = pageNumber < last ? html`<a rel="next" href="${href(pageNumber + 1)}">Next</a>` : '';
  return html`<nav class="pages" aria-label="Pages">${prev}<span>Page ${pageNumber} of ${last}</span>${next}</nav>`;
}

function pageHref(base: string, n: number): string {
  return n <= 1 ? base : `${base}?page=${n}`;
}

/** A user's public gists; to the user themself ("Your gists"), their secret ones too. */
export function userGistsPage(account: UserRow, list: ListPage, pageNumber: number, urls: Urls, own = false): Html {
  const self = userGistsLink(urls, account.login);
  const heading = own ? html`Your gists` : html`<strong>${account.login}</strong>’s gists`;
  const starred = own ? html` · <a href="${self}/starred">Starred gists</a>` : '';
  const body = html`<h1>${heading}</h1>
${account.name ? html`<p class="description">${account.name}</p>` : ''}<p class="meta">${plural(list.total, own ? 'gist' : 'public gist')}${starred}</p>
${listItems(list, urls, own ? 'You have no gists yet.' : undefined)}
${pager(list, pageNumber, (n) => pageHref(self, n))}`;
  return page({ title: `${account.login}’s gists · hublet`, base: urls.base, body });
}

/** Every public gist, newest first. */
export function discoverPage(list: ListPage, pageNumber: number, urls: Urls): Html {
  const self = urls.html('/gist/discover');
  const body = html`<h1>Discover gists</h1>
<p class="meta">Public gists, the most recently updated first.</p>
${listItems(list, urls)}
${pager(list, pageNumber, (n) => pageHref(self, n))}`;
  return page({ title: 'Discover gists · hublet', base: urls.base, body });
}

/** The gists the signed-in person starred, secret ones too, the most recently updated first. */
export function starredPage(account: UserRow, list: ListPage, pageNumber: number, urls: Urls): Html {
  const self = `${userGistsLink(urls, account.login)}/starred`;
  const body = html`<h1>Starred gists</h1>
<p class="meta">${plural(list.total, 'starred gist')} · <a href="${userGistsLink(urls, account.login)}">Your gists</a></p>
${listItems(list, urls, 'You have not starred any gists yet.')}
${pager(list, pageNumber, (n) => pageHref(self, n))}`;
  return page({ title: 'Starred gists · hublet', base: urls.base, noindex: true, body });
}
