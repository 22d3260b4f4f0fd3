// Times in tables as gh shows them: "about 2 hours ago" for a person at a terminal (gh's text.FuzzyAgo, which is
// go-gh's RelativeTimeAgo), the API's own ISO 8601 time for scripts reading a pipe.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
const about = (n: number, unit: string) => `about ${plural(n, unit)} ago`;

/** How long before `now` the time `then` was, rounded down to the nearest unit, in gh's words. */
export function fuzzyAgo(now: Date, then: Date): string {
  const ago = now.getTime() - then.getTime();
  if (ago < MINUTE) return 'less than a minute ago';
  if (ago < HOUR) return about(Math.trunc(ago / MINUTE), 'minute');
  if (ago < DAY) return about(Math.trunc(ago / HOUR), 'hour');
  const days = Math.trunc(ago / DAY);
  if (ago < 30 * DAY) return about(days, 'day');
  if (ago < 365 * DAY) return about(Math.trunc(days / 30), 'month');
  return about(Math.trunc(days / 365), 'year');
}

/** A table's time cell: relative on a terminal, the API's ISO time otherwise (as gh's tableprinter.AddTimeField). */
export function timeCell(iso: string | null | undefined, isTTY: boolean, now: Date = new Date()): string {
  if (!iso) return '';
  const then = new Date(iso);
  if (!isTTY || Number.isNaN(then.getTime())) return iso;
  return fuzzyAgo(now, then);
}
