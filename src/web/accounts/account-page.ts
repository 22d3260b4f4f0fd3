// A user's or an organization's page (`/<login>`): the profile, public repositories, public gists; an organization's
// members are concealed (as the API conceals them from anyone outside it), so its page says so.
import type { UserRow } from '../../db/schema.js';
import type { ListPage } from '../../gists/reads.js';
import type { listForOwner } from '../../repos/reads.js';
import type { Urls } from '../../core/urls.js';
import { isoUtc } from '../../core/timestamps.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';
import { plural, shownTime, userGistsLink } from '../links.js';

type ListResult = Awaited<ReturnType<typeof listForOwner>>;

/** A URL a profile names, linked only when it is http(s) (what users wrote: nofollow ugc); anything else is shown as text. */
function website(blog: string): Html {
  const href = /^https?:\/\//i.test(blog) ? blog : /^[a-z0-9.-]+\.[a-z]{2,}(\/\S*)?$/i.test(blog) ? `https://${blog}` : null;
  return href ? html`<a href="${href}" rel="nofollow ugc">${blog}</a>` : html`${blog}`;
}

function facts(account: UserRow): Html {
  const items: Html[] = [];
  if (account.company) items.push(html`<li>${account.company}</li>`);
  if (account.location) items.push(html`<li>${account.location}</li>`);
  if (account.blog) items.push(html`<li>${website(account.blog)}</li>`);
  const joined = isoUtc(account.created_at);
  items.push(html`<li>Joined <time datetime="${joined}">${joined.slice(0, 10)}</time></li>`);
  return html`<ul class="facts">${items}</ul>`;
}

function repositoryList(repos: ListResult, urls: Urls): Html {
  if (!repos.items.length) return html`<p class="empty">No public repositories.</p>`;
  const items = repos.items.map(({ repo, owner }) => {
    const at = isoUtc(repo.pushed_at);
    return html`<li><a href="${urls.html(`/${owner.login}/${repo.name}`)}"><strong>${repo.name}</strong></a>
${repo.description ? html`<div class="description">${repo.description}</div>` : ''}<div class="files">${repo.language ? `${repo.language} · ` : ''}updated <time datetime="${at}">${shownTime(at)}</time></div></li>`;
  });
  return html`<ul class="list">${items}</ul>`;
}

function gistList(gists: ListPage, account: UserRow, urls: Urls): Html {
  if (!gists.items.length) return html`<p class="empty">No public gists.</p>`;
  const items = gists.items.map(({ gist, files }) => {
    const at = isoUtc(gist.updated_at);
    return html`<li><a href="${urls.html(`/gist/${gist.id}`)}"><strong>${files[0]?.filename ?? gist.id}</strong></a>
${gist.description ? html`<div class="description">${gist.description}</div>` : ''}<div class="files">updated <time datetime="${at}">${shownTime(at)}</time></div></li>`;
  });
  const more =
    gists.total > gists.items.length
      ? html`<p><a href="${userGistsLink(urls, account.login)}">All ${plural(gists.total, 'public gist')}</a></p>`
      : '';
  return html`<ul class="list">${items}</ul>${more}`;
}

export interface ProfileData {
  account: UserRow;
  repos: ListResult;
  /** Public gists (users only; organizations have none). */
  gists: ListPage | null;
  /** An organization's settings (its webhooks), linked for its owners only: the page is built per viewer. */
  settings?: string;
}

/** The page of a user or an organization. */
export function profilePage(data: ProfileData, urls: Urls): Html {
  const { account } = data;
  const org = account.type === 'Organization';
  const body = html`<img class="avatar" src="${urls.html(`/avatars/${account.login}`)}?s=96" alt="" width="96" height="96">
<h1><strong>${account.login}</strong>${account.name ? html` <span class="muted">${account.name}</span>` : ''}${org ? html`<span class="badge">Organization</span>` : ''}</h1>
${account.bio ? html`<p class="description bio">${account.bio}</p>` : ''}${facts(account)}
${data.settings ? html`<p><a class="button" href="${data.settings}">Settings</a></p>` : ''}
<h2>Public repositories</h2>
${repositoryList(data.repos, urls)}
${data.repos.total > data.repos.items.length ? html`<p class="meta">Showing ${data.repos.items.length} of ${plural(data.repos.total, 'repository', 'repositories')}.</p>` : ''}
${data.gists ? html`<h2>Public gists</h2>${gistList(data.gists, account, urls)}` : ''}
${org ? html`<h2>Members</h2><p class="empty">This organization’s members are not public.</p>` : ''}`;
  return page({ title: `${account.login}${account.name ? ` (${account.name})` : ''} · hublet`, base: urls.base, body });
}
