// The text a search result shows, pure: the line of a gist's files (or its description) that holds the most of the
// searched words, cut around the first of them, as plain-text parts, each saying whether it is a searched word. The
// parts are text, never markup: the web page escapes every one and marks the matches itself.
import { MAX_INDEXED_FILE_BYTES } from './search-document.js';
import { searchTokens } from './search-query.js';

interface SnippetPart {
  text: string;
  /** A word the search looked for. */
  match: boolean;
}

export interface Snippet {
  /** The file the line is from; null for the description. */
  filename: string | null;
  /** 1-based; 0 for the description. */
  line: number;
  parts: SnippetPart[];
}

export interface SnippetSource {
  filename: string | null;
  text: string;
}

/** The longest snippet shown, in characters (a longer line is cut around its first match). */
const SNIPPET_CHARS = 200;
/** Characters kept before the first match of a cut line. */
const LEAD_CHARS = 40;

const RAW_WORD = /[\p{L}\p{N}]+/gu;

interface Match {
  start: number;
  end: number;
  word: string;
}

function matchesIn(line: string, wanted: ReadonlySet<string>): Match[] {
  const out: Match[] = [];
  for (const m of line.matchAll(RAW_WORD)) {
    // ASCII words need only lowercasing; others are folded as the index folds them (accents dropped).
    const word = /^[a-z0-9]*$/i.test(m[0]) ? m[0].toLowerCase() : searchTokens(m[0]).find((t) => wanted.has(t));
    if (word && !wanted.has(word)) continue;
    if (word) out.push({ start: m.index, end: m.index + m[0].length, word });
  }
  return out;
}

/** The part of `line` shown, at most SNIPPET_CHARS, starting a little before the first match. */
function cut(line: string, matches: Match[]): { from: number; to: number } {
  if (line.length <= SNIPPET_CHARS) return { from: 0, to: line.length };
  const from = Math.max(0, Math.min(matches[0]?.start ?? 0, line.length - SNIPPET_CHARS) - LEAD_CHARS);
  return { from, to: Math.min(line.length, from + SNIPPET_CHARS) };
}

function parts(line: string, matches: Match[]): SnippetPart[] {
  const { from, to } = cut(line, matches);
  const out: SnippetPart[] = [];
  let at = from;
  for (const m of matches) {
    if (m.start < at || m.end > to) continue;
    if (m.start > at) out.push({ text: line.slice(at, m.start), match: false });
    out.push({ text: line.slice(m.start, m.end), match: true });
    at = m.end;
  }
  if (at < to) out.push({ text: line.slice(at, to), match: false });
  return out;
}

/**
 * The best line for `words` (the searched words, as searchTokens gives them): the first line holding the most distinct
 * ones, files first, then the description. Null when no line holds any (a gist found by a qualifier alone, say).
 */
export function snippetFor(sources: SnippetSource[], words: readonly string[]): Snippet | null {
  const wanted = new Set(words);
  if (!wanted.size) return null;
  const ordered = [...sources.filter((s) => s.filename !== null), ...sources.filter((s) => s.filename === null)];
  let best: { source: SnippetSource; line: number; text: string; matches: Match[]; distinct: number } | undefined;
  for (const source of ordered) {
    const lines = source.text.slice(0, MAX_INDEXED_FILE_BYTES).split('\n');
    for (const [i, text] of lines.entries()) {
      const matches = matchesIn(text, wanted);
      const distinct = new Set(matches.map((m) => m.word)).size;
      if (distinct > (best?.distinct ?? 0)) best = { source, line: i + 1, text, matches, distinct };
      if (distinct === wanted.size) break;
    }
    if (best?.distinct === wanted.size) break;
  }
  if (!best) return null;
  const line = best.text.replace(/\s+$/, '');
  return { filename: best.source.filename, line: best.source.filename === null ? 0 : best.line, parts: parts(line, best.matches) };
}
