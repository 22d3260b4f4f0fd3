// The page shell every web page shares (head, site header, footer) and the not-found page; the security headers every
// web response carries (a Content-Security-Policy without inline scripts, nosniff, no framing).
import type { FastifyReply } from 'fastify';
import { html, trustedHtml, type Html } from './html.js';
import { pageScript } from './page-script.js';
import { pageStylesheet } from './styles.js';

/** No inline script or style anywhere, nothing from other hosts, no plugins, no framing by other sites. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Sets the headers every web response carries (a response that set its own CSP, raw bytes in a sandbox, keeps it). */
export function securityHeaders(reply: FastifyReply): void {
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'same-origin');
}

/**
 * Where the header names the viewer (signed in: who, and Sign out; else Sign in). Pages are built and cached without
 * it; serve.ts fills it per request, so a page's cached bytes never carry one person's name or form token to another.
 */
export const VIEWER_SLOT = trustedHtml('<!--hublet:viewer-->');

/**
 * Where a cached page's forms carry their authenticity token: the token is bound to one session (csrf.ts), so serve.ts
 * fills it per request, as the viewer slot, and a page kept for one person works in each of their sessions.
 */
export const FORM_TOKEN_SLOT = trustedHtml('<!--hublet:form-token-->');

export interface PageOptions {
  title: string;
  /** Links are absolute, built from the public base URL. */
  base: string;
  /** Secret gists: search engines must not index them. */
  noindex?: boolean;
  /** What the header's search field holds (the search page's query). */
  query?: string;
  body: Html;
}

/** The header's search field: a GET form to the gist search page (`/gist/search?q=`), labelled for screen readers. */
function siteSearch(base: string, query = ''): Html {
  return html`<form class="site-search" role="search" action="${base}/gist/search" method="get"><label class="visually-hidden" for="site-search">Search gists</label><input id="site-search" type="search" name="q" value="${query}" placeholder="Search gists…" maxlength="256"></form>`;
}

/** A whole HTML document around a page's body. */
export function page(options: PageOptions): Html {
  const { base } = options;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.noindex ? html`<meta name="robots" content="noindex">\n` : ''}<title>${options.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/-/web.css?v=${pageStylesheet.version}">
<script src="${base}/-/web.js?v=${pageScript.version}" defer></script>
</head>
<body>
<header class="site"><a class="home" href="${base}/gist/discover">hublet</a><nav aria-label="Site"><a href="${base}/gist/discover">Discover gists</a></nav>${siteSearch(base, options.query)}${VIEWER_SLOT}</header>
<main id="main">
${options.body}
</main>
<footer>Served by hublet.</footer>
</body>
</html>
`;
}

/** A refusal the person can read (a forged or expired form, a cross-site post, too many attempts). */
export function errorPage(base: string, title: string, message: string): Html {
  return page({ title: `${title} · hublet`, base, noindex: true, body: html`<h1>${title}</h1><p>${message}</p>` });
}

/** The page for anything that does not exist or that the visitor may not see (the same page for both). */
export function notFoundPage(base: string): Html {
  return page({
    title: 'Page not found · hublet',
    base,
    noindex: true,
    body: html`<h1>Page not found</h1><p>There is nothing here, or it is not yours to see.</p><p><a href="${base}/gist/discover">Discover gists</a></p>`,
  });
}
