// How `hublet api --template` sees JSON values as Go's text/template sees gh's decoded JSON: truth, printing (`%v`:
// `<nil>` for null, `<no value>` for a missing key, `[a b]` for arrays, `map[k:v]` for objects), Go's type names in
// errors, and fmt's Sprint/Sprintf for print and printf. Numbers print whole (Go prints float64 ids such as 123456789 as
// 1.23456789e+08; that is gh's output, not kept here).
import { TemplateError } from './lex.js';

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's type name for a decoded JSON value (in error messages). */
export function goType(v: unknown): string {
  if (v === undefined) return 'invalid value';
  if (v === null) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
}

/** Go's truth: false, 0, nil, no value and empty strings, arrays and maps are false. */
export function truth(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  return Object.keys(v as object).length > 0;
}

/** Go's `%v`. */
export function goString(v: unknown): string {
  if (v === undefined) return '<no value>';
  if (v === null) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goString).join(' ')}]`;
  const obj = v as Record<string, unknown>;
  return `map[${Object.keys(obj)
    .sort()
    .map((k) => `${k}:${goString(obj[k])}`)
    .join(' ')}]`;
}

/** go-gh's jsonScalarToString (join, color, tablerow): strings, numbers, booleans, and null as ''. */
export function scalarString(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new TemplateError(`cannot convert type to string: ${goString(v)}`);
}

/** fmt.Sprint: a space between operands when neither is a string. */
export function sprint(args: unknown[]): string {
  let out = '';
  args.forEach((a, i) => {
    if (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += goString(a);
  });
  return out;
}

const VERB = /%([-+# 0]*)(\d+|\*)?(?:\.(\d+|\*))?([a-zA-Z%])/g;

/** fmt.Sprintf for %v %s %d %f %e %g %q %t %x %X %o %b %c %%, with flags, width and precision. */
export function sprintf(format: string, args: unknown[]): string {
  let n = 0;
  const next = () => (n < args.length ? args[n++] : undefined);
  const out = format.replace(VERB, (_whole, flags: string, width: string | undefined, prec: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    const w = width === '*' ? Number(next()) : width ? Number(width) : 0;
    const p = prec === '*' ? Number(next()) : prec !== undefined ? Number(prec) : undefined;
    if (n >= args.length) return `%!${verb}(MISSING)`;
    const v = next();
    let s: string;
    switch (verb) {
      case 'v':
      case 's':
        s = goString(v);
        if (p !== undefined && verb === 's') s = s.slice(0, p);
        break;
      case 'q':
        s = typeof v === 'string' ? JSON.stringify(v) : goString(v);
        break;
      case 't':
        s = typeof v === 'boolean' ? String(v) : `%!t(${goType(v)}=${goString(v)})`;
        break;
      case 'd':
        s = typeof v === 'number' ? Math.trunc(v).toString() : `%!d(${goType(v)}=${goString(v)})`;
        break;
      case 'f':
      case 'F':
        s = typeof v === 'number' ? v.toFixed(p ?? 6) : `%!f(${goType(v)}=${goString(v)})`;
        break;
      case 'e':
        s = typeof v === 'number' ? v.toExponential(p ?? 6).replace(/e([+-])(\d)$/, 'e$10$2') : `%!e(${goType(v)}=${goString(v)})`;
        break;
      case 'g':
        s = typeof v === 'number' ? (p === undefined ? String(v) : v.toPrecision(p)) : `%!g(${goType(v)}=${goString(v)})`;
        break;
      case 'x':
      case 'X':
      case 'o':
      case 'b': {
        const radix = verb === 'o' ? 8 : verb === 'b' ? 2 : 16;
        if (typeof v === 'number') s = Math.trunc(v).toString(radix);
        else if (typeof v === 'string' && radix === 16) s = Buffer.from(v, 'utf8').toString('hex');
        else s = `%!${verb}(${goType(v)}=${goString(v)})`;
        if (verb === 'X') s = s.toUpperCase();
        break;
      }
      case 'c':
        s = typeof v === 'number' ? String.fromCodePoint(v) : `%!c(${goType(v)}=${goString(v)})`;
        break;
      default:
        return `%!${verb}(${goType(v)}=${goString(v)})`;
    }
    if (flags.includes('+') && typeof v === 'number' && v >= 0 && 'dfFeg'.includes(verb)) s = `+${s}`;
    if (s.length < w) {
      if (flags.includes('-')) s = s.padEnd(w);
      else if (flags.includes('0') && typeof v === 'number')
        s = s.startsWith('-') || s.startsWith('+') ? s[0] + s.slice(1).padStart(w - 1, '0') : s.padStart(w, '0');
      else s = s.padStart(w);
    }
    return s;
  });
  return n < args.length
    ? `${out}%!(EXTRA ${args
        .slice(n)
        .map((a) => `${goType(a)}=${goString(a)}`)
        .join(', ')})`
    : out;
}
