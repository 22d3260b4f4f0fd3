// The addresses the web pages link to, built from the public base URL: the same layout as the API's html_url,
// raw_url and git_pull_url (gists/present.ts), plus the pages' own (revisions, archives, the embed script, styles).
import type { Urls } from '../core/urls.js';

export interface GistLinks {
  page: string;
  revisions: string;
  revision(sha: string): string;
  raw(blobSha: string, filename: string): string;
  archive(sha: string, format: 'zip' | 'tar.gz'): string;
  clone: string;
  embed: string;
}

export function gistLinks(urls: Urls, ownerLogin: string, id: string): GistLinks {
  const page = urls.html(`/gist/${id}`);
  const owner = encodeURIComponent(ownerLogin);
  return {
    page,
    revisions: `${page}/revisions`,
    revision: (sha) => `${page}/${sha}`,
    raw: (blobSha, filename) => urls.html(`/gist/${owner}/${id}/raw/${blobSha}/${encodeURIComponent(filename)}`),
    archive: (sha, format) => urls.html(`/gist/${owner}/${id}/archive/${sha}.${format}`),
    clone: urls.html(`/gist/${id}.git`),
    embed: urls.html(`/gist/${id}.js`),
  };
}

/** A user's gists page. */
export function userGistsLink(urls: Urls, login: string): string {
  return urls.html(`/gist/${encodeURIComponent(login)}`);
}

/** A timestamp as the pages show it: `2026-11-22 23:02 UTC` (absolute: a cached page never goes stale by a clock). */
export function shownTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** `1 revision`, `2 revisions`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export interface RepositoryLinks {
  home: string;
  tree(ref: string, path: string): string;
  blob(ref: string, path: string): string;
  raw(ref: string, path: string): string;
}

/** A path in a URL: each segment encoded, the slashes kept. */
function pathSegments(path: string): string {
  return path
    .split('/')
    .filter((p) => p !== '')
    .map(encodeURIComponent)
    .join('/');
}

/** A repository's pages (the html_url `/<owner>/<name>`, and its tree, blob and raw views at a ref). */
export function repositoryLinks(urls: Urls, ownerLogin: string, name: string): RepositoryLinks {
  const home = urls.html(`/${encodeURIComponent(ownerLogin)}/${encodeURIComponent(name)}`);
  const at = (view: string) => (ref: string, path: string) => `${home}/${view}/${pathSegments(ref)}${path ? `/${pathSegments(path)}` : ''}`;
  return { home, tree: at('tree'), blob: at('blob'), raw: at('raw') };
}
