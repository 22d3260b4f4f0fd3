// How `hublet api` prints responses, page by page, as gh's processResponse: with -i the status line and the headers
// first; then the body — through --jq or --template, not at all with --silent, else JSON (indented) or the text as sent.
// With --paginate, pages that are JSON arrays print as one merged array (gh streams them as one array too); other pages
// print one after another; --slurp prints every page as one outer array. An error status (3xx, 4xx, 5xx) prints its
// body (never through --jq or --template) and ends the command with `hublet: MESSAGE (HTTP N)` on stderr (exit 1; 4 for
// 401), as gh does with `gh: …`, followed by hints.ts's hints (a missing scope, a refused token) as gh's scope hint.
import { STATUS_CODES } from 'node:http';
import { hintsFor } from '../../hints.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT } from '../../output.js';
import { runJq } from './jq.js';
import type { Template } from './template/exec.js';

/** What a response has that is printed (the client's ApiResponse). */
interface Response {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface PrintOptions {
  include?: boolean;
  silent?: boolean;
  jq?: string;
  template?: Template;
  paginate?: boolean;
  slurp?: boolean;
  /** GraphQL pages are whole documents: never merged into one array. */
  graphql?: boolean;
}

const JSON_TYPE = /[/+]json(;|$)/;

/** Go's CanonicalMIMEHeaderKey: `x-oauth-scopes` → `X-Oauth-Scopes`. */
const canonical = (name: string) => name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

/** gh's parseErrorResponse: what the error body says, for the `hublet: …` line. */
function errorMessage(body: unknown, status: number): string {
  if (typeof body !== 'object' || body === null) return '';
  const { message, errors } = body as { message?: unknown; errors?: unknown };
  if (typeof errors === 'string' && errors) return typeof message === 'string' && message ? `${errors} (${message})` : errors;
  if (typeof message === 'string' && message) return `${message} (HTTP ${status})`;
  if (!Array.isArray(errors)) return '';
  const messages = errors
    .map((e) =>
      typeof e === 'string'
        ? e
        : typeof e === 'object' && e && typeof (e as { message?: unknown }).message === 'string'
          ? (e as { message: string }).message
          : undefined,
    )
    .filter((m): m is string => m !== undefined);
  return messages.join('\n');
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const indented = (value: unknown) => JSON.stringify(value, null, 2).replaceAll('\n', '\n  ');

export class ResponsePrinter {
  /** Elements of merged array pages printed so far (undefined: no array page yet). */
  private merged: number | undefined;
  private readonly slurped: unknown[] = [];

  constructor(
    private readonly io: IO,
    private readonly opts: PrintOptions,
  ) {}

  private write(s: string): void {
    if (s) this.io.stdout.write(s);
  }

  /** Closes a merged array that is open. */
  private closeMerged(): void {
    if (this.merged === undefined) return;
    this.write(this.merged === 0 ? '[]\n' : '\n]\n');
    this.merged = undefined;
  }

  /** One page: printed, or (for an error status) printed and thrown as the command's end. */
  async page(res: Response, method: string, morePages: boolean): Promise<void> {
    const { opts } = this;
    if (opts.include) {
      this.closeMerged();
      let head = `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd();
      head += '\n';
      for (const name of Object.keys(res.headers).sort()) if (name !== 'status') head += `${canonical(name)}: ${res.headers[name]}\r\n`;
      this.write(`${head}\r\n`);
    }
    const isJson = JSON_TYPE.test(res.headers['content-type'] ?? '');
    const parsed = isJson && res.text ? parseJson(res.text) : { ok: false as const };
    // GraphQL answers its errors with a 200 and an `errors` list.
    const serverError = (res.status > 299 || opts.graphql) && parsed.ok ? errorMessage(parsed.value, res.status) : '';
    if (serverError || res.status > 299) {
      this.closeMerged();
      if (!opts.silent) this.write(parsed.ok ? `${JSON.stringify(parsed.value, null, 2)}\n` : res.text);
      const lines = [
        `hublet: ${serverError || `HTTP ${res.status}`}`,
        ...hintsFor({ status: res.status, body: parsed.ok ? parsed.value : null, headers: res.headers }),
      ];
      throw new CliExit(res.status === 401 ? EXIT.auth : EXIT.error, lines.join('\n'));
    }
    if (res.status === 204 || method === 'HEAD' || opts.silent) return;
    if (opts.jq !== undefined) {
      this.write(await runJq(opts.jq, res.text, this.io.isTTY));
    } else if (opts.template) {
      if (!parsed.ok) throw new CliExit(EXIT.error, 'hublet: --template: the response is not JSON');
      this.write(this.templateOutput(opts.template, parsed.value));
    } else if (!parsed.ok) {
      this.write(res.text);
    } else if (opts.slurp) {
      this.slurped.push(parsed.value);
    } else if (opts.paginate && !opts.include && !opts.graphql && Array.isArray(parsed.value)) {
      this.merge(parsed.value);
    } else {
      this.closeMerged();
      this.write(`${JSON.stringify(parsed.value, null, 2)}\n`);
    }
    if (opts.include && morePages) this.write('\n');
  }

  private templateOutput(template: Template, value: unknown): string {
    try {
      return template.execute(value);
    } catch (err) {
      throw new CliExit(EXIT.error, `hublet: --template: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** A page's elements into the one array printed for all pages, as JSON.stringify(all, null, 2) would print it. */
  private merge(elements: unknown[]): void {
    let out = '';
    for (const el of elements) {
      out += this.merged ? ',\n  ' : '[\n  ';
      out += indented(el);
      this.merged = (this.merged ?? 0) + 1;
    }
    this.merged ??= 0;
    this.write(out);
  }

  /** After the last page: closes the merged array, prints slurped pages and tablerow rows not yet rendered. */
  finish(): void {
    this.closeMerged();
    if (this.opts.slurp) this.write(`${JSON.stringify(this.slurped, null, 2)}\n`);
    if (this.opts.template) this.write(this.opts.template.flush());
  }
}
