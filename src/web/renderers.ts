// The pages' rendering libraries (highlight.js with its ~190 grammars, markdown-it, sanitize-html), loaded by the first
// page request rather than at start: evaluating them costs about as many instructions as starting Node itself, and a
// server that never shows a page (API, git, CLI) never pays it.
import type { HLJSApi } from 'highlight.js';
import type MarkdownIt from 'markdown-it';
import type sanitizeHtml from 'sanitize-html';

export interface Renderers {
  hljs: HLJSApi;
  MarkdownIt: typeof MarkdownIt;
  sanitizeHtml: typeof sanitizeHtml;
}

let loaded: Renderers | undefined;
let loading: Promise<Renderers> | undefined;

/** Loads the libraries once; every later call resolves at once. */
export function loadRenderers(): Promise<Renderers> {
  loading ??= Promise.all([import('highlight.js'), import('markdown-it'), import('sanitize-html')]).then(([h, m, s]) => {
    loaded = { hljs: h.default, MarkdownIt: m.default, sanitizeHtml: s.default };
    return loaded;
  });
  return loading;
}

/** Whether loadRenderers has finished (a page request needs no wait then). */
export function renderersLoaded(): boolean {
  return loaded !== undefined;
}

/** The loaded libraries; only page code calls it, after the web routes' hook awaited loadRenderers. */
export function renderers(): Renderers {
  if (!loaded) throw new Error('page rendering before loadRenderers() finished');
  return loaded;
}
