// GitHub's audit log search phrase: qualifiers separated by spaces, `action:hook.create` (an action) or `action:hook`
// (its category), `actor:`, `user:`, `org:`, `repo:owner/name`, `operation:create`, `created:` with `>`, `>=`, `<`,
// `<=`, a day, or a range `FROM..TO` (`*` open); a value may be quoted, `-` before a qualifier leaves its matches out.
// One qualifier given several times matches any of its values (`actor:alice actor:bob`); different ones must all match.
import { ValidationFailed } from '../core/errors.js';
import { parseTimestamp } from '../core/timestamps.js';
import { actionsOf } from './actions.js';

/** The qualifiers that compare a column with a value (not case sensitive). */
export type TextKey = 'action' | 'actor' | 'user' | 'org' | 'repo' | 'operation';
const TEXT_KEYS: readonly TextKey[] = ['action', 'actor', 'user', 'org', 'repo', 'operation'];

export interface TextTerm {
  key: TextKey;
  /** Any of these (empty: no positive condition). */
  anyOf: string[];
  /** None of these. */
  noneOf: string[];
}

/** A time range, each bound an ISO time; `from` inclusive, `to` exclusive. */
interface TimeRange {
  from?: string;
  to?: string;
  negated: boolean;
}

export interface Phrase {
  terms: TextTerm[];
  created: TimeRange[];
}

const DAY_MS = 86_400_000;
const MAX_PHRASE = 1024;
const TOKEN = /(-?)([A-Za-z_]+):(?:"([^"]*)"|(\S*))|"[^"]*"|\S+/g;

function invalid(message: string): ValidationFailed {
  return new ValidationFailed([{ resource: 'AuditLog', field: 'phrase', code: 'invalid', message }]);
}

/** A day (`2026-01-01`, the whole day) or a time (`2026-01-01T12:00:00Z`, that instant): [start, end) in milliseconds. */
function instant(text: string): { start: number; end: number } {
  const ms = parseTimestamp(text);
  if (ms === undefined) throw invalid(`created: expects a date (YYYY-MM-DD) or an ISO 8601 time, got ${JSON.stringify(text)}`);
  return { start: ms, end: /^\d{4}-\d{2}-\d{2}$/.test(text) ? ms + DAY_MS : ms };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `created:` as a range: `>=D` from D's start, `>D` from its end, `<D` to its start, `<=D` to its end, `D` the day, `A..B`. */
function createdRange(value: string, negated: boolean): TimeRange {
  const m = /^(>=|<=|>|<)(.+)$/.exec(value);
  if (m) {
    const at = instant(m[2]);
    if (m[1] === '>=') return { from: iso(at.start), negated };
    if (m[1] === '>') return { from: iso(at.end === at.start ? at.start + 1 : at.end), negated };
    if (m[1] === '<') return { to: iso(at.start), negated };
    return { to: iso(at.end === at.start ? at.start + 1 : at.end), negated };
  }
  const range = /^(.+?)\.\.(.+)$/.exec(value);
  if (range) {
    return {
      from: range[1] === '*' ? undefined : iso(instant(range[1]).start),
      to: range[2] === '*' ? undefined : iso(instant(range[2]).end),
      negated,
    };
  }
  const at = instant(value);
  return { from: iso(at.start), to: iso(at.end === at.start ? at.start + 1 : at.end), negated };
}

/** Reads a phrase; a word without a qualifier, an unknown qualifier or a value it cannot take is a 422 naming it. */
export function parsePhrase(raw: string | undefined): Phrase {
  const phrase: Phrase = { terms: [], created: [] };
  if (raw === undefined || raw.trim() === '') return phrase;
  if (raw.length > MAX_PHRASE) throw invalid(`phrase must be at most ${MAX_PHRASE} characters`);
  const byKey = new Map<TextKey, TextTerm>();
  for (const m of raw.matchAll(TOKEN)) {
    if (m[2] === undefined)
      throw invalid(
        `the audit log is searched with qualifiers (action:, actor:, user:, org:, repo:, operation:, created:), not words: ${m[0]}`,
      );
    const key = m[2].toLowerCase();
    const negated = m[1] === '-';
    const value = m[3] ?? m[4];
    if (value === '') throw invalid(`${key}: needs a value`);
    if (key === 'created') {
      phrase.created.push(createdRange(value, negated));
      continue;
    }
    if (!(TEXT_KEYS as readonly string[]).includes(key))
      throw invalid(`unknown qualifier ${key}: (known: ${[...TEXT_KEYS, 'created'].join(', ')})`);
    const k = key as TextKey;
    const lower = value.toLowerCase();
    if (k === 'operation' && !actionsOf(lower))
      throw invalid(`operation: is one of access, authentication, create, modify, remove, transfer`);
    let term = byKey.get(k);
    if (!term) {
      term = { key: k, anyOf: [], noneOf: [] };
      byKey.set(k, term);
      phrase.terms.push(term);
    }
    (negated ? term.noneOf : term.anyOf).push(lower);
  }
  return phrase;
}
