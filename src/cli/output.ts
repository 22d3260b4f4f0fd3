// CLI output and exit codes: JSON for scripts, aligned tables for people, API errors on stderr.
import { hintsFor } from './hints.js';

export const EXIT = { ok: 0, error: 1, usage: 2, auth: 4 } as const;

/** Raised by commands to stop with an exit code after printing a message. */
export class CliExit extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export function printJson(out: NodeJS.WritableStream, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printTable(out: NodeJS.WritableStream, rows: Record<string, unknown>[], columns: string[]): void {
  const cells = rows.map((r) => columns.map((c) => (r[c] === null || r[c] === undefined ? '' : String(r[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  out.write(`${line(columns.map((c) => c.toUpperCase()))}\n`);
  for (const row of cells) out.write(`${line(row)}\n`);
}

/** A list as `--json` prints it (the items as the API sent them), or as a table of `columns`, one row per item. */
export function printList<T>(
  out: NodeJS.WritableStream,
  json: boolean,
  items: T[],
  columns: string[],
  row: (item: T) => Record<string, unknown>,
): void {
  if (json) printJson(out, items);
  else printTable(out, items.map(row), columns);
}

/**
 * Throws CliExit for an error response (an ApiResponse): 401 exits 4, any other 4xx/5xx exits 1; the error body on
 * stderr, then what a person can do about it (hints.ts) when the server's answer says.
 */
export function expectOk<R extends { status: number; body: unknown; text: string; headers?: Record<string, string> }>(res: R): R {
  if (res.status < 400) return res;
  const message = typeof res.body === 'object' && res.body ? JSON.stringify(res.body, null, 2) : res.text || `HTTP ${res.status}`;
  throw new CliExit(res.status === 401 ? EXIT.auth : EXIT.error, [message, ...hintsFor(res)].join('\n'));
}
