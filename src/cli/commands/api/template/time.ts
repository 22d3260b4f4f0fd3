// Time in `hublet api --template`, as go-gh's timefmt and timeago: an RFC 3339 timestamp formatted with a Go layout
// (`2006-01-02 15:04`, `Jan 2`, `Monday`, `3:04PM`, `MST`, `-07:00`, …, in the timestamp's own offset) or said relative
// to now (`3 days ago`).
import { TemplateError } from './lex.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

interface Parsed {
  /** The wall-clock fields in the timestamp's own offset. */
  wall: Date;
  offsetMinutes: number;
  fraction: string;
  instant: Date;
}

function parseRfc3339(input: unknown): Parsed {
  const m = typeof input === 'string' ? RFC3339.exec(input) : null;
  if (!m) throw new TemplateError(`parsing time ${JSON.stringify(input)} as RFC 3339: cannot parse`);
  const zone = m[8].toUpperCase();
  const offsetMinutes = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const wall = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
  return { wall, offsetMinutes, fraction: (m[7] ?? '').slice(1), instant: new Date(wall.getTime() - offsetMinutes * 60_000) };
}

const pad = (n: number, w = 2, c = '0') => String(n).padStart(w, c);

function zone(offset: number, colon: boolean, z: boolean, seconds = false): string {
  if (z && offset === 0) return 'Z';
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  const hm = colon ? `${pad(Math.floor(a / 60))}:${pad(a % 60)}` : `${pad(Math.floor(a / 60))}${pad(a % 60)}`;
  return `${sign}${hm}${seconds ? (colon ? ':00' : '00') : ''}`;
}

/** Go's layout elements, longest first where one is a prefix of another. */
const ELEMENTS: [string, (t: Parsed) => string][] = [
  ['January', (t) => MONTHS[t.wall.getUTCMonth()]],
  ['Jan', (t) => MONTHS[t.wall.getUTCMonth()].slice(0, 3)],
  ['Monday', (t) => DAYS[t.wall.getUTCDay()]],
  ['Mon', (t) => DAYS[t.wall.getUTCDay()].slice(0, 3)],
  ['MST', (t) => (t.offsetMinutes === 0 ? 'UTC' : zone(t.offsetMinutes, false, false))],
  ['2006', (t) => pad(t.wall.getUTCFullYear(), 4)],
  ['Z07:00:00', (t) => zone(t.offsetMinutes, true, true, true)],
  ['-07:00:00', (t) => zone(t.offsetMinutes, true, false, true)],
  ['Z07:00', (t) => zone(t.offsetMinutes, true, true)],
  ['-07:00', (t) => zone(t.offsetMinutes, true, false)],
  ['Z0700', (t) => zone(t.offsetMinutes, false, true)],
  ['-0700', (t) => zone(t.offsetMinutes, false, false)],
  ['Z07', (t) => zone(t.offsetMinutes, false, true).slice(0, 3)],
  ['-07', (t) => zone(t.offsetMinutes, false, false).slice(0, 3)],
  ['002', (t) => pad(Math.floor((t.wall.getTime() - Date.UTC(t.wall.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3)],
  ['__2', (t) => pad(Math.floor((t.wall.getTime() - Date.UTC(t.wall.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3, ' ')],
  ['01', (t) => pad(t.wall.getUTCMonth() + 1)],
  ['02', (t) => pad(t.wall.getUTCDate())],
  ['_2', (t) => pad(t.wall.getUTCDate(), 2, ' ')],
  ['06', (t) => pad(t.wall.getUTCFullYear() % 100)],
  ['15', (t) => pad(t.wall.getUTCHours())],
  ['03', (t) => pad(t.wall.getUTCHours() % 12 || 12)],
  ['04', (t) => pad(t.wall.getUTCMinutes())],
  ['05', (t) => pad(t.wall.getUTCSeconds())],
  ['PM', (t) => (t.wall.getUTCHours() >= 12 ? 'PM' : 'AM')],
  ['pm', (t) => (t.wall.getUTCHours() >= 12 ? 'pm' : 'am')],
  ['1', (t) => String(t.wall.getUTCMonth() + 1)],
  ['2', (t) => String(t.wall.getUTCDate())],
  ['3', (t) => String(t.wall.getUTCHours() % 12 || 12)],
  ['4', (t) => String(t.wall.getUTCMinutes())],
  ['5', (t) => String(t.wall.getUTCSeconds())],
];

/** Fractional seconds: `.000` / `,000` (fixed digits) and `.999` (trailing zeros dropped). */
const FRACTION = /^[.,](0+|9+)/;

export function timefmt(layout: unknown, input: unknown): string {
  if (typeof layout !== 'string') throw new TemplateError('timefmt: the layout must be a string');
  const t = parseRfc3339(input);
  let out = '';
  for (let i = 0; i < layout.length; ) {
    const frac = FRACTION.exec(layout.slice(i));
    if (frac && !/\d/.test(layout[i + frac[0].length] ?? '')) {
      const digits = frac[1].length;
      const f = t.fraction.padEnd(9, '0').slice(0, digits);
      out += frac[1][0] === '0' ? layout[i] + f : f.replace(/0+$/, '') ? layout[i] + f.replace(/0+$/, '') : '';
      i += frac[0].length;
      continue;
    }
    const el = ELEMENTS.find(([name]) => layout.startsWith(name, i));
    if (el) {
      out += el[1](t);
      i += el[0].length;
    } else {
      out += layout[i++];
    }
  }
  return out;
}

const plural = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`;

/** go-gh's timeago: "just now", "5 minutes ago", "3 hours ago", "2 days ago", "4 months ago", "1 year ago". */
export function timeago(input: unknown, now: Date): string {
  const ago = now.getTime() - parseRfc3339(input).instant.getTime();
  const minutes = Math.trunc(ago / 60_000);
  const hours = Math.trunc(ago / 3_600_000);
  if (minutes < 1) return 'just now';
  if (hours < 1) return `${plural(minutes, 'minute')} ago`;
  if (hours < 24) return `${plural(hours, 'hour')} ago`;
  if (hours < 30 * 24) return `${plural(Math.trunc(hours / 24), 'day')} ago`;
  if (hours < 365 * 24) return `${plural(Math.trunc(hours / 24 / 30), 'month')} ago`;
  return `${plural(Math.trunc(hours / 24 / 365), 'year')} ago`;
}
