// Code highlighting with highlight.js: the gist's detected language (a Linguist name such as "Python" or "C++") or the
// file's extension picks the grammar; highlight.js escapes the code itself, so its output is placed as it is.
import { escapeHtml, trustedHtml, type Html } from './html.js';
import { renderers } from './renderers.js';

/** Files larger than this are shown as plain (escaped) text: highlighting is linear but not free. */
const HIGHLIGHT_LIMIT_BYTES = 256 * 1024;

/** Linguist names that highlight.js knows under another name. */
const ALIASES: Record<string, string> = {
  'objective-c': 'objectivec',
  'vim script': 'vim',
  'emacs lisp': 'lisp',
  'common lisp': 'lisp',
  'shell session': 'shell',
  'git config': 'ini',
  'html+erb': 'erb',
  'jupyter notebook': 'json',
  graphql: 'graphql',
  text: 'plaintext',
};

/** The highlight.js grammar for a Linguist language name or, failing that, a file name's extension. */
export function grammarFor(language: string | null, filename: string): string | undefined {
  const candidates: string[] = [];
  if (language) {
    const name = language.toLowerCase();
    candidates.push(ALIASES[name] ?? name, name.replace(/\s+/g, ''));
  }
  const ext = /\.([A-Za-z0-9+#-]+)$/.exec(filename)?.[1];
  if (ext) candidates.push(ext.toLowerCase());
  const { hljs } = renderers();
  return candidates.find((c) => hljs.getLanguage(c) !== undefined);
}

/** The code as markup: highlighted when a grammar is known and the text is not too long, else escaped. */
export function highlightCode(code: string, grammar: string | undefined): Html {
  if (!grammar || code.length > HIGHLIGHT_LIMIT_BYTES) return trustedHtml(escapeHtml(code));
  return trustedHtml(renderers().hljs.highlight(code, { language: grammar, ignoreIllegals: true }).value);
}
