// The functions of `hublet api --template`: Go text/template's built-ins (not, len, index, slice, print, printf, println,
// eq, ne, lt, le, gt, ge, html, js, urlquery; `and` and `or` are evaluated lazily by exec.ts) and gh's (autocolor,
// color, hyperlink, join, pluck, tablerow, tablerender, timeago, timefmt, truncate).
import { TemplateError } from './lex.js';
import { timeago, timefmt } from './time.js';
import { goString, goType, isObject, scalarString, sprint, sprintf, truth } from './values.js';

export type Func = (...args: unknown[]) => unknown;

const COLORS: Record<string, number> = { black: 0, red: 1, green: 2, yellow: 3, blue: 4, magenta: 5, cyan: 6, white: 7, default: 9 };

/** mgutz/ansi's Color (gh's `color`): `fg+attrs:bg+attrs`, attrs b (bold), B (blink), u, i (inverse), s, h (bright). */
function ansi(style: string, text: string): string {
  if (style === '' || style === 'off') return text;
  if (style === 'reset') return `\x1b[0m${text}\x1b[0m`;
  const [fgPart, bgPart] = style.split(':');
  const [fg, fgStyle = ''] = fgPart.split('+');
  const codes = ['0'];
  for (const [flag, code] of [
    ['b', '1'],
    ['B', '5'],
    ['u', '4'],
    ['i', '7'],
    ['s', '9'],
  ])
    if (fgStyle.includes(flag)) codes.push(code);
  if (fg) codes.push(/^\d+$/.test(fg) ? `38;5;${fg}` : String((fgStyle.includes('h') ? 90 : 30) + (COLORS[fg] ?? 0)));
  if (bgPart) {
    const [bg, bgStyle = ''] = bgPart.split('+');
    if (bg) codes.push(/^\d+$/.test(bg) ? `48;5;${bg}` : String((bgStyle.includes('h') ? 100 : 40) + (COLORS[bg] ?? 0)));
  }
  return `\x1b[${codes.join(';')}m${text}\x1b[0m`;
}

/** go-gh's text.Truncate: at most `max` characters, with `...` when there is room for it (5 or more). */
function truncate(max: number, s: string): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const tail = max >= 5 ? '...' : '';
  return chars.slice(0, Math.max(0, max - tail.length)).join('') + tail;
}

function compare(name: string, a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean' && (name === 'eq' || name === 'ne')) return a === b ? 0 : 1;
  if ((a === null || a === undefined || b === null || b === undefined) && (name === 'eq' || name === 'ne'))
    return (a ?? null) === (b ?? null) ? 0 : 1;
  if (typeof a === typeof b && typeof a !== 'object') throw new TemplateError(`${name}: invalid type for comparison`);
  throw new TemplateError(`${name}: incompatible types for comparison: ${goType(a)} and ${goType(b)}`);
}

function index(item: unknown, ...keys: unknown[]): unknown {
  let v = item;
  for (const k of keys) {
    if (Array.isArray(v) || typeof v === 'string') {
      if (typeof k !== 'number' || !Number.isInteger(k)) throw new TemplateError(`index: cannot index slice/array with type ${goType(k)}`);
      if (k < 0 || k >= v.length) throw new TemplateError(`index: index out of range: ${k}`);
      v = typeof v === 'string' ? Buffer.from(v, 'utf8')[k] : v[k];
    } else if (isObject(v)) {
      if (typeof k !== 'string') throw new TemplateError(`index: value has type ${goType(k)}; should be string`);
      v = Object.hasOwn(v, k) ? v[k] : null;
    } else if (v === null || v === undefined) {
      throw new TemplateError('index of untyped nil');
    } else {
      throw new TemplateError(`can't index item of type ${goType(v)}`);
    }
  }
  return v;
}

function slice(item: unknown, ...idx: unknown[]): unknown {
  if (typeof item !== 'string' && !Array.isArray(item)) throw new TemplateError(`can't slice item of type ${goType(item)}`);
  const [from = 0, to = item.length] = idx as number[];
  if (from < 0 || to > item.length || from > to) throw new TemplateError(`slice: index out of range: ${from}:${to}`);
  return item.slice(from, to);
}

const HTML: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&#34;', '\0': '\uFFFD' };
const JS: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '<': '\\u003C',
  '>': '\\u003E',
  '&': '\\u0026',
  '=': '\\u003D',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** What gh's tablerow collects until tablerender (or the end of the output) prints it aligned. */
export class Table {
  private rows: string[][] = [];
  add(fields: string[]): void {
    this.rows.push(fields);
  }
  /** The rows with every column but the last padded to its widest cell, two spaces between; then empty again. */
  render(): string {
    const rows = this.rows;
    this.rows = [];
    const widths: number[] = [];
    for (const row of rows) {
      row.forEach((cell, i) => {
        widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
      });
    }
    return rows
      .map((row) => `${row.map((cell, i) => (i < row.length - 1 ? cell + ' '.repeat(widths[i] - [...cell].length) : cell)).join('  ')}\n`)
      .join('');
  }
}

/** The functions a template may call; tablerow adds to `table`, tablerender prints it where it is called. */
export function templateFuncs(opts: { color: boolean; now: Date; table: Table }): Record<string, Func> {
  const { table } = opts;
  return {
    not: (v) => !truth(v),
    len: (v) => {
      if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
      if (Array.isArray(v)) return v.length;
      if (isObject(v)) return Object.keys(v).length;
      throw new TemplateError(`len of type ${goType(v)}`);
    },
    index,
    slice,
    print: (...args) => sprint(args),
    printf: (format, ...args) => sprintf(String(format), args),
    println: (...args) => `${args.map(goString).join(' ')}\n`,
    eq: (a, ...bs) => {
      if (bs.length === 0) throw new TemplateError('missing argument for comparison');
      return bs.some((b) => compare('eq', a, b) === 0);
    },
    ne: (a, b) => compare('ne', a, b) !== 0,
    lt: (a, b) => compare('lt', a, b) < 0,
    le: (a, b) => compare('le', a, b) <= 0,
    gt: (a, b) => compare('gt', a, b) > 0,
    ge: (a, b) => compare('ge', a, b) >= 0,
    html: (...args) => sprint(args).replace(/[<>&'"\0]/g, (c) => HTML[c]),
    js: (...args) => sprint(args).replace(/[\\'"<>&=\n\r\t]/g, (c) => JS[c]),
    urlquery: (...args) => encodeURIComponent(sprint(args)).replace(/%20/g, '+'),
    // gh's functions.
    color: (style, v) => ansi(String(style), scalarString(v)),
    autocolor: (style, v) => (opts.color ? ansi(String(style), scalarString(v)) : scalarString(v)),
    hyperlink: (link, text) => `\x1b]8;;${String(link)}\x1b\\${String(text || link)}\x1b]8;;\x1b\\`,
    join: (sep, list) => {
      if (!Array.isArray(list)) throw new TemplateError(`join: expected an array, got ${goType(list)}`);
      return list.map(scalarString).join(String(sep));
    },
    pluck: (field, list) => {
      if (!Array.isArray(list)) throw new TemplateError(`pluck: expected an array, got ${goType(list)}`);
      return list.map((item) => (isObject(item) && Object.hasOwn(item, String(field)) ? item[String(field)] : null));
    },
    tablerow: (...fields) => {
      // gh cuts a multi-line cell at its first line break.
      table.add(fields.map((f) => scalarString(f).replace(/[\r\n][\s\S]*$/, '...')));
      return '';
    },
    tablerender: () => table.render(),
    timeago: (input) => timeago(input, opts.now),
    timefmt: (layout, input) => timefmt(layout, input),
    truncate: (max, v) => {
      if (v === null || v === undefined) return '';
      if (typeof v !== 'string') throw new TemplateError(`invalid value; expected string, got ${goType(v)}`);
      return truncate(Number(max), v);
    },
  };
}
