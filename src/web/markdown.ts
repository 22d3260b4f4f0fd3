// GitHub-flavored Markdown to safe HTML: markdown-it (tables, strikethrough, autolinks, raw HTML) with task lists and
// highlighted fenced code, then sanitize-html with an allow-list like GitHub's: no scripts, event handlers, forms,
// frames, `javascript:` URLs or styles (table cell alignment becomes a class); images by one rule (imageSource): the
// caller's own files inline, hublet's own addresses as they are, every other host's through the image proxy.
import type MarkdownIt from 'markdown-it';
import type sanitizeHtml from 'sanitize-html';
import { grammarFor, highlightCode } from './highlight.js';
import { trustedHtml, type Html } from './html.js';
import { renderers } from './renderers.js';

type StateCore = Parameters<MarkdownIt['core']['ruler']['push']>[1] extends (state: infer S) => unknown ? S : never;

/** GFM task list items: a list item whose text starts with `[ ] ` or `[x] ` gets a disabled checkbox. */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i];
    if (inline.type !== 'inline' || tokens[i - 1].type !== 'paragraph_open' || tokens[i - 2].type !== 'list_item_open') continue;
    const m = /^\[([ xX])\][ \t]/.exec(inline.content);
    const first = inline.children?.[0];
    if (!m || !first || first.type !== 'text' || !first.content.startsWith(m[0])) continue;
    first.content = first.content.slice(m[0].length);
    const box = new state.Token('html_inline', '', 0);
    box.content = `<input type="checkbox" disabled${m[1] === ' ' ? '' : ' checked'}> `;
    inline.children!.unshift(box);
    tokens[i - 2].attrJoin('class', 'task-list-item');
  }
}

let markdown: MarkdownIt | undefined;

/** The one Markdown parser, built on first use (its library loads with the first page: renderers.ts). */
function markdownParser(): MarkdownIt {
  if (markdown) return markdown;
  markdown = new (renderers().MarkdownIt)({
    html: true,
    linkify: true,
    highlight: (code, lang) => {
      const grammar = grammarFor(lang || null, '');
      return grammar ? highlightCode(code, grammar).text : '';
    },
  });
  markdown.core.ruler.push('task_lists', taskLists);
  return markdown;
}

const ALLOWED_TAGS = [
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'a',
  'img',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  'b',
  'i',
  'del',
  's',
  'ins',
  'sup',
  'sub',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'details',
  'summary',
  'kbd',
  'samp',
  'var',
  'dl',
  'dt',
  'dd',
  'input',
  'span',
  'div',
  'abbr',
  'q',
  'mark',
  'small',
  'tt',
  'caption',
];

const ALIGNMENTS = ['align-left', 'align-center', 'align-right'];

/** A table cell's alignment (markdown-it writes `style="text-align:…"`) as a class: the pages' CSP allows no style attribute. */
function aligned(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const align = /text-align:\s*(left|center|right)/.exec(attribs.style ?? '')?.[1] ?? attribs.align;
  return { tagName, attribs: align ? { class: `align-${align}` } : {} };
}

/** How the pages show an image at an absolute address: hublet's own as it is, any other through the image proxy. */
export interface ImageLinks {
  /** hublet's public base URL: an image under it loads from the page's own origin (the CSP's `img-src 'self'`). */
  base: string;
  /** The image proxy's signed address for an image on another host (image-proxy.ts), or null when it cannot carry it. */
  proxied(address: string): string | null;
}

/** What Markdown images may show: the caller's own files (a gist's images, by name or raw_url) and absolute addresses. */
export interface MarkdownImages {
  /** A `data:` URL for an image the caller holds itself, or null. */
  own?: (src: string) => string | null;
  /** Absent: images at absolute addresses become links. */
  links?: ImageLinks;
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** Whether `url` lies under the base URL (same origin, and under its path when the base has one). */
function underBase(url: URL, base: string): boolean {
  const root = parseUrl(base);
  if (!root || url.origin !== root.origin) return false;
  const prefix = root.pathname.replace(/\/+$/, '');
  return url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
}

/**
 * The one rule for every Markdown image the pages show (gist files, repository READMEs and files, the embed): the
 * caller's own image as a data: URL; an http(s) address under hublet's base URL as it is; any other http(s) address
 * through the image proxy, as GitHub shows images through Camo. Null: the image becomes a plain link to its address
 * (a relative path that names nothing, another scheme, an address carrying credentials).
 */
export function imageSource(src: string, images: MarkdownImages): string | null {
  const own = images.own?.(src);
  if (own) return own;
  if (!images.links || !/^https?:\/\//i.test(src)) return null;
  const url = parseUrl(src);
  if (!url || url.username || url.password) return null;
  return underBase(url, images.links.base) ? url.href : images.links.proxied(url.href);
}

function sanitizeOptions(images: MarkdownImages): sanitizeHtml.IOptions {
  return {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {
      a: ['href', 'title', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      input: ['type', 'checked', 'disabled', 'aria-label'],
      th: ['class'],
      td: ['class'],
      ol: ['start'],
      li: ['class'],
      code: ['class'],
      span: ['class'],
      details: ['open'],
      abbr: ['title'],
    },
    allowedClasses: { code: ['language-*', 'hljs'], span: ['hljs-*'], li: ['task-list-item'], th: ALIGNMENTS, td: ALIGNMENTS },
    allowedSchemes: ['http', 'https', 'mailto'],
    // An image's address is imageSource's: a data: URL, hublet's own address or the image proxy's (transformTags run first).
    allowedSchemesByTag: { img: ['data', 'http', 'https'] },
    allowProtocolRelative: false,
    transformTags: {
      th: aligned,
      td: aligned,
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'nofollow noopener' } }),
      // Only the task lists' checkboxes, disabled, named for screen readers by their state.
      input: (tagName, attribs) => ({
        tagName,
        attribs: {
          type: 'checkbox',
          disabled: '',
          'aria-label': 'checked' in attribs ? 'done' : 'to do',
          ...('checked' in attribs ? { checked: '' } : {}),
        },
      }),
      img: (tagName, attribs): sanitizeHtml.Tag => {
        const shown = attribs.src ? imageSource(attribs.src, images) : null;
        if (shown) return { tagName, attribs: { ...attribs, src: shown, alt: attribs.alt ?? '' } };
        return {
          tagName: 'a',
          attribs: { href: attribs.src ?? '', rel: 'nofollow noopener' },
          text: attribs.alt || attribs.src || 'image',
        };
      },
    },
    nonTextTags: [
      'style',
      'script',
      'textarea',
      'option',
      'noscript',
      'title',
      'iframe',
      'template',
      'xmp',
      'noembed',
      'noframes',
      'plaintext',
    ],
  };
}

/** Markdown source as sanitized HTML. */
export function renderMarkdown(source: string, images: MarkdownImages = {}): Html {
  return trustedHtml(renderers().sanitizeHtml(markdownParser().render(source), sanitizeOptions(images)));
}
