// Timestamps: the one reader of ISO 8601 timestamps that callers send (`since`, `before`, `expires_at`): strict,
// calendar-checked; and the one writer of the timestamps responses show (GitHub's, without milliseconds).

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Milliseconds since the epoch of an ISO 8601 date or date-time, or undefined when the text is not one: a day that does
 * not exist in its month (`2030-02-30`, which `Date.parse` rolls over into March), hour 24 or more, minute or second 60
 * or more, and years outside 0001–9999 are refused rather than silently moved. A time without a zone is UTC.
 */
export function parseTimestamp(text: string): number | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return undefined;
  const zone = m[7];
  const normalised = m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z` : text.replace(' ', 'T') + (zone ? '' : 'Z');
  const ms = Date.parse(normalised);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Stored timestamps are toISOString() output; those only lose their milliseconds (no Date parse on list pages). */
const STORED_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function isoUtc(value: string | Date): string {
  if (typeof value === 'string' && STORED_ISO.test(value)) return `${value.slice(0, 19)}Z`;
  const d = typeof value === 'string' ? new Date(value) : value;
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
