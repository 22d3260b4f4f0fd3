// Gist search's query planner, pure: the one tokenizer (what a word is, for the index and for queries alike), and the
// parser of GitHub's gist search syntax into words, phrases and qualifiers (user:, filename:, extension:, language:,
// stars:, size:, fork:), or a problem a person can read. Nothing here reaches a database; search.ts runs the plan.
//
// The syntax, as GitHub's "Searching gists" and "Understanding the search syntax": words must all match (`AND` may be
// written between them), "quoted words" match as a phrase, `NOT word` and `-word` exclude; qualifiers are
// case-insensitive (`Language:Python` = `language:python`), a value may be quoted (`language:"Jupyter Notebook"`), a
// repeated qualifier matches any of its values (`user:a user:b`), and numbers take GitHub's range forms: `N`, `>N`,
// `>=N`, `<N`, `<=N`, `N..M`, `N..*`, `*..N`. `anon:` is accepted and changes nothing (hublet has no anonymous gists);
// any other `word:value` is searched as words.

/** GitHub's longest search query (its message names the limit). */
const MAX_QUERY_LENGTH = 256;
/** Tokens longer than this (minified code, base64) are neither indexed nor searched. */
const MAX_TOKEN_LENGTH = 100;

const WORD = /[\p{L}\p{N}]+/gu;

/** Text as the index keeps it: compatibility-decomposed, marks (accents) dropped, lowercase. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * The words of `text` as the index and the queries see them: runs of letters and digits (anything else separates
 * them: `foo_bar.py` is foo, bar, py), lowercase, accents dropped, at most MAX_TOKEN_LENGTH characters each.
 */
export function searchTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of fold(text).matchAll(WORD)) if (m[0].length <= MAX_TOKEN_LENGTH) out.push(m[0]);
  return out;
}

/** An inclusive range of whole numbers (a bound left out is open). */
export interface NumberRange {
  min?: number;
  max?: number;
}

type ForkFilter = 'include' | 'only' | 'exclude';

/** A parsed query: what search.ts turns into the index match and the filters on gists and their files. */
export interface GistSearchQuery {
  /** Every one must match: each a phrase, its words in order (a plain word is a phrase of one or, `foo.bar`, of two). */
  phrases: string[][];
  /** None may match. */
  excluded: string[][];
  /** Owner logins, lowercase: any of them. */
  users: string[];
  /** Some file whose name contains any of these (lowercase). */
  filenames: string[];
  /** Some file whose name ends in `.` and any of these (lowercase, without the dot). */
  extensions: string[];
  /** Some file in any of these languages (lowercase, spaces as hyphens: `jupyter-notebook`). */
  languages: string[];
  /** Some file whose size in bytes is in the range. */
  size?: NumberRange;
  stars?: NumberRange;
  fork: ForkFilter;
}

export type ParsedSearch = { ok: true; query: GistSearchQuery } | { ok: false; problem: string };

/** Whether a query has anything to search by: words to match, or a qualifier. */
export function hasCriteria(q: GistSearchQuery): boolean {
  return (
    q.phrases.length > 0 ||
    q.excluded.length > 0 ||
    q.users.length > 0 ||
    q.filenames.length > 0 ||
    q.extensions.length > 0 ||
    q.languages.length > 0 ||
    q.size !== undefined ||
    q.stars !== undefined ||
    q.fork !== 'include'
  );
}

/** The largest number a range takes (beyond any count or size a gist has, and safe in both databases). */
const MAX_NUMBER = 2 ** 31 - 1;

function wholeNumber(text: string): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Math.min(Number(text), MAX_NUMBER);
}

/** GitHub's range forms; undefined when `value` is none of them (or an empty range such as `<0`). */
export function parseRange(value: string): NumberRange | undefined {
  const m = /^(>=|<=|>|<)?(.*)$/.exec(value)!;
  const [, op, rest] = m;
  if (op) {
    const n = wholeNumber(rest);
    if (n === undefined) return undefined;
    if (op === '>') return n >= MAX_NUMBER ? undefined : { min: n + 1 };
    if (op === '>=') return { min: n };
    if (op === '<') return n === 0 ? undefined : { max: n - 1 };
    return { max: n };
  }
  const dots = rest.indexOf('..');
  if (dots < 0) {
    const n = wholeNumber(rest);
    return n === undefined ? undefined : { min: n, max: n };
  }
  const [low, high] = [rest.slice(0, dots), rest.slice(dots + 2)];
  const min = low === '*' ? undefined : wholeNumber(low);
  const max = high === '*' ? undefined : wholeNumber(high);
  if ((low !== '*' && min === undefined) || (high !== '*' && max === undefined)) return undefined;
  if (min !== undefined && max !== undefined && min > max) return undefined;
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

const QUALIFIERS = new Set(['user', 'filename', 'extension', 'language', 'stars', 'size', 'fork', 'anon']);

interface Piece {
  text: string;
  /** Written in double quotes (a phrase, or a qualifier's quoted value). */
  quoted: boolean;
  /** Preceded by `-`. */
  negated: boolean;
  /** The qualifier's name, lowercase, when the piece is `name:value`. */
  qualifier?: string;
}

/** The query cut into pieces: quoted phrases, `name:value` (the value may be quoted) and bare words. */
function pieces(q: string): Piece[] {
  const out: Piece[] = [];
  let i = 0;
  const quotedFrom = (start: number): { text: string; end: number } => {
    const close = q.indexOf('"', start);
    return close < 0 ? { text: q.slice(start), end: q.length } : { text: q.slice(start, close), end: close + 1 };
  };
  while (i < q.length) {
    if (/\s/.test(q[i])) {
      i++;
      continue;
    }
    let negated = false;
    if (q[i] === '-' && i + 1 < q.length && !/\s/.test(q[i + 1])) {
      negated = true;
      i++;
    }
    if (q[i] === '"') {
      const { text, end } = quotedFrom(i + 1);
      out.push({ text, quoted: true, negated });
      i = end;
      continue;
    }
    const qualifier = /^([A-Za-z]+):/.exec(q.slice(i));
    if (qualifier && QUALIFIERS.has(qualifier[1].toLowerCase())) {
      const start = i + qualifier[0].length;
      if (q[start] === '"') {
        const { text, end } = quotedFrom(start + 1);
        out.push({ text, quoted: true, negated, qualifier: qualifier[1].toLowerCase() });
        i = end;
        continue;
      }
      let end = start;
      while (end < q.length && !/\s/.test(q[end])) end++;
      out.push({ text: q.slice(start, end), quoted: false, negated, qualifier: qualifier[1].toLowerCase() });
      i = end;
      continue;
    }
    let end = i;
    while (end < q.length && !/\s/.test(q[end])) end++;
    out.push({ text: q.slice(i, end), quoted: false, negated });
    i = end;
  }
  return out;
}

/** A qualifier's value as compared: lowercase, trimmed, inner spaces as hyphens for languages. */
function qualifierValue(name: string, value: string): string {
  const v = value.trim().toLowerCase();
  if (name === 'extension') return v.replace(/^\.+/, '');
  if (name === 'language') return v.replace(/\s+/g, '-');
  return v;
}

/** Parses a search query (GitHub's syntax, see the header), or says what is wrong with it. */
export function parseSearchQuery(q: string): ParsedSearch {
  if (q.length > MAX_QUERY_LENGTH) return { ok: false, problem: `The search is longer than ${MAX_QUERY_LENGTH} characters.` };
  // Control characters separate words (PostgreSQL refuses NUL in any text, a qualifier's value included).
  q = q.replace(/\p{Cc}/gu, ' ');
  const query: GistSearchQuery = { phrases: [], excluded: [], users: [], filenames: [], extensions: [], languages: [], fork: 'include' };
  let exclude = false;
  for (const p of pieces(q)) {
    if (!p.quoted && !p.negated && !p.qualifier && (p.text === 'AND' || p.text === 'NOT' || p.text === 'OR')) {
      if (p.text === 'OR') return { ok: false, problem: 'OR is not supported in gist search: every word must match.' };
      if (p.text === 'NOT') exclude = true;
      continue;
    }
    if (p.qualifier) {
      if (p.negated || exclude) return { ok: false, problem: `Excluding a qualifier (-${p.qualifier}:…) is not supported in gist search.` };
      const problem = applyQualifier(query, p.qualifier, p.text);
      if (problem) return { ok: false, problem };
      continue;
    }
    const tokens = searchTokens(p.text);
    if (tokens.length) (p.negated || exclude ? query.excluded : query.phrases).push(tokens);
    exclude = false;
  }
  return { ok: true, query };
}

/** Adds one qualifier to the query; a problem when its value is not one the qualifier takes. */
function applyQualifier(query: GistSearchQuery, name: string, raw: string): string | undefined {
  const value = qualifierValue(name, raw);
  const shown = `${name}:${raw}`;
  switch (name) {
    case 'stars':
    case 'size': {
      const range = parseRange(value);
      if (!range) return `${shown} is not a number or a range of numbers (such as ${name}:>10, ${name}:10..50 or ${name}:<=5).`;
      const previous = query[name];
      query[name] = previous
        ? { min: Math.max(previous.min ?? 0, range.min ?? 0), max: Math.min(previous.max ?? MAX_NUMBER, range.max ?? MAX_NUMBER) }
        : range;
      return undefined;
    }
    case 'fork': {
      const fork = ({ true: 'include', only: 'only', false: 'exclude' } as const)[value as 'true' | 'only' | 'false'];
      if (!fork) return `${shown} is not one of fork:true, fork:only or fork:false.`;
      query.fork = fork;
      return undefined;
    }
    case 'anon':
      return undefined;
    default: {
      if (value === '') return `${name}: needs a value (such as ${name}:${EXAMPLES[name]}).`;
      const list = { user: query.users, filename: query.filenames, extension: query.extensions, language: query.languages }[name]!;
      if (!list.includes(value)) list.push(value);
      return undefined;
    }
  }
}

const EXAMPLES: Record<string, string> = { user: 'octocat', filename: '.bashrc', extension: 'py', language: 'python' };
