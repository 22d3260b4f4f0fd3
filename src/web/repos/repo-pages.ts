// A repository's pages: its home (`/<owner>/<name>`: description, topics, clone URL, the default branch's files and
// README rendered), a directory (`…/tree/<ref>/<path>`) and a file (`…/blob/<ref>/<path>`, with a link to `…/raw/…`).
import type { UserRow } from '../../db/schema.js';
import type { RepositoryRow } from '../../db/tables/repos.js';
import { repositoryUrls, topicsOf } from '../../repos/present.js';
import type { TreeItem } from '../../repos/reads.js';
import type { Urls } from '../../core/urls.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';
import { repositoryLinks, type RepositoryLinks } from '../links.js';
import type { ImageLinks } from '../markdown.js';
import { renderFile } from '../render-file.js';

/** A README in a directory: the first entry so named (README.md before README, as GitHub prefers Markdown). */
export function readmeIn(tree: readonly TreeItem[]): TreeItem | undefined {
  const readmes = tree.filter((e) => e.type === 'blob' && /^readme(\.(md|markdown|mdown|txt|rst))?$/i.test(e.name));
  return readmes.find((e) => /\.(md|markdown|mdown)$/i.test(e.name)) ?? readmes[0];
}

export interface RepositoryView {
  repo: RepositoryRow;
  owner: UserRow;
}

function header(view: RepositoryView, urls: Urls, links: RepositoryLinks): Html {
  const { repo, owner } = view;
  const topics = topicsOf(repo);
  const homepage =
    repo.homepage && /^https?:\/\//i.test(repo.homepage)
      ? html` · <a href="${repo.homepage}" rel="nofollow noopener">${repo.homepage}</a>`
      : '';
  return html`<h1><a href="${urls.html(`/${owner.login}`)}">${owner.login}</a> / <strong><a href="${links.home}">${repo.name}</a></strong>${repo.archived ? html`<span class="badge">Archived</span>` : ''}</h1>
${repo.description ? html`<p class="description">${repo.description}</p>` : ''}${topics.length ? html`<ul class="topics" aria-label="Topics">${topics.map((t) => html`<li>${t}</li>`)}</ul>` : ''}
<p class="meta">Default branch <code>${repo.default_branch}</code>${repo.language ? ` · ${repo.language}` : ''}${homepage}</p>
<div class="actions"><label>Clone with git<input type="text" readonly value="${repositoryUrls(urls, owner.login, repo.name).clone_url}"></label></div>`;
}

/** Breadcrumbs of a path: the repository, then each directory, the last segment plain. */
function crumbs(view: RepositoryView, links: RepositoryLinks, ref: string, path: string): Html {
  const parts = path.split('/').filter(Boolean);
  const items: Html[] = [html`<a href="${links.tree(ref, '')}">${view.repo.name}</a>`];
  parts.forEach((part, i) => {
    items.push(
      i === parts.length - 1
        ? html`<strong>${part}</strong>`
        : html`<a href="${links.tree(ref, parts.slice(0, i + 1).join('/'))}">${part}</a>`,
    );
  });
  return html`<p class="crumbs">${items.map((item, i) => (i === 0 ? item : html` / ${item}`))} <span class="muted">at <code>${ref}</code></span></p>`;
}

function treeTable(items: readonly TreeItem[], links: RepositoryLinks, ref: string, dir: string): Html {
  // Directories first, then files, each by name (as GitHub lists them).
  const sorted = [...items].sort((a, b) =>
    (a.type === 'tree') === (b.type === 'tree') ? (a.name < b.name ? -1 : 1) : a.type === 'tree' ? -1 : 1,
  );
  const rows = sorted.map((e) => {
    const path = dir ? `${dir}/${e.name}` : e.name;
    if (e.type === 'commit') return html`<tr><td>${e.name} <span class="muted">(submodule at ${e.oid.slice(0, 7)})</span></td></tr>`;
    const href = e.type === 'tree' ? links.tree(ref, path) : links.blob(ref, path);
    return html`<tr><td><a href="${href}">${e.name}${e.type === 'tree' ? '/' : ''}</a></td></tr>`;
  });
  return html`<table class="tree"><caption class="visually-hidden">Files</caption><tbody>${rows}</tbody></table>`;
}

function readmeSection(
  readme: { name: string; content: Buffer } | null,
  links: RepositoryLinks,
  ref: string,
  dir: string,
  images: ImageLinks,
): Html | '' {
  if (!readme) return '';
  const path = dir ? `${dir}/${readme.name}` : readme.name;
  const file = {
    filename: readme.name,
    size: readme.content.length,
    language: null,
    content: readme.content,
    rawUrl: links.raw(ref, path),
  };
  return renderFile(file, [file], images);
}

/** The repository's home: its default branch's root directory and README (or a note that it is empty); Markdown images by `images`. */
export function repositoryPage(
  view: RepositoryView,
  root: readonly TreeItem[] | null,
  readme: { name: string; content: Buffer } | null,
  urls: Urls,
  images: ImageLinks,
): Html {
  const links = repositoryLinks(urls, view.owner.login, view.repo.name);
  const ref = view.repo.default_branch;
  const files = root
    ? html`${treeTable(root, links, ref, '')}${readmeSection(readme, links, ref, '', images)}`
    : html`<p class="empty">This repository is empty: push to it with the clone URL above.</p>`;
  return page({
    title: `${view.owner.login}/${view.repo.name} · hublet`,
    base: urls.base,
    body: html`${header(view, urls, links)}\n${files}`,
  });
}

/** A directory at a ref. */
export function treePage(
  view: RepositoryView,
  ref: string,
  dir: string,
  items: readonly TreeItem[],
  readme: { name: string; content: Buffer } | null,
  urls: Urls,
  images: ImageLinks,
): Html {
  const links = repositoryLinks(urls, view.owner.login, view.repo.name);
  const body = html`${header(view, urls, links)}\n${crumbs(view, links, ref, dir)}${treeTable(items, links, ref, dir)}${readmeSection(readme, links, ref, dir, images)}`;
  return page({ title: `${dir || view.repo.name} at ${ref} · ${view.owner.login}/${view.repo.name} · hublet`, base: urls.base, body });
}

/** A file at a ref, rendered as the gist pages render files. */
export function blobPage(view: RepositoryView, ref: string, path: string, content: Buffer, urls: Urls, images: ImageLinks): Html {
  const links = repositoryLinks(urls, view.owner.login, view.repo.name);
  const name = path.split('/').pop() ?? path;
  const file = { filename: name, size: content.length, language: null, content, rawUrl: links.raw(ref, path) };
  const body = html`${header(view, urls, links)}\n${crumbs(view, links, ref, path)}${renderFile(file, [file], images)}`;
  return page({ title: `${path} at ${ref} · ${view.owner.login}/${view.repo.name} · hublet`, base: urls.base, body });
}
