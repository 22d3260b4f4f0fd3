// The lexer of `hublet api --template`, a subset of Go's text/template: text, and actions `{{ … }}` with trim markers
// (`{{- ` and ` -}}`) and comments (`{{/* … */}}`). An action's tokens are fields (`.a.b`), the dot, variables (`$`,
// `$x`), strings ("…" with Go's escapes, `raw`), numbers, true/false/nil, names (keywords and functions), `|`, `(`, `)`,
// `:=`, `=` and `,`.

export type Token =
  | { kind: 'field'; names: string[]; attached: boolean }
  | { kind: 'dot' }
  | { kind: 'var'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'nil' }
  | { kind: 'name'; name: string }
  | { kind: 'pipe' | 'lparen' | 'rparen' | 'declare' | 'assign' | 'comma' };

export type Item = { kind: 'text'; text: string } | { kind: 'action'; tokens: Token[]; at: number };

export class TemplateError extends Error {}

const SPACE = /[ \t\r\n]/;
const IDENT = /[\p{L}\p{N}_]/u;
const NUMBER = /^[+-]?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO]?[0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)/;
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  '"': '"',
  "'": "'",
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

/** Where `at` is, as Go's errors name it: line and column. */
export function position(src: string, at: number): string {
  const before = src.slice(0, at).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

/** A "…" string at `i` (the opening quote); returns its value and the index after the closing quote. */
function quoted(src: string, i: number): [string, number] {
  let out = '';
  for (let j = i + 1; j < src.length; j++) {
    const c = src[j];
    if (c === '"') return [out, j + 1];
    if (c === '\n') break;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = src[++j];
    if (e in ESCAPES) out += ESCAPES[e];
    else if (e === 'x' || e === 'u' || e === 'U') {
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = src.slice(j + 1, j + 1 + len);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) throw new TemplateError(`bad escape in string at ${position(src, j)}`);
      out += String.fromCodePoint(Number.parseInt(hex, 16));
      j += len;
    } else throw new TemplateError(`unknown escape sequence \\${e} at ${position(src, j)}`);
  }
  throw new TemplateError(`unterminated quoted string at ${position(src, i)}`);
}

/** The tokens of the action starting at `i` (just after `{{` and any trim marker); returns them and where `}}` starts. */
function actionTokens(src: string, start: number): [Token[], number] {
  const tokens: Token[] = [];
  let i = start;
  for (;;) {
    let spaced = false;
    while (i < src.length && SPACE.test(src[i])) {
      i++;
      spaced = true;
    }
    if (i >= src.length) throw new TemplateError(`unclosed action at ${position(src, start)}`);
    if (src.startsWith('}}', i) || src.startsWith('-}}', i)) {
      if (src[i] === '-' && !spaced) throw new TemplateError(`bad character '-' in action at ${position(src, i)}`);
      return [tokens, i];
    }
    const c = src[i];
    if (c === '"') {
      const [value, end] = quoted(src, i);
      tokens.push({ kind: 'string', value });
      i = end;
    } else if (c === '`') {
      const end = src.indexOf('`', i + 1);
      if (end < 0) throw new TemplateError(`unterminated raw quoted string at ${position(src, i)}`);
      tokens.push({ kind: 'string', value: src.slice(i + 1, end) });
      i = end + 1;
    } else if (c === '.' && !/\d/.test(src[i + 1] ?? '')) {
      const names: string[] = [];
      while (src[i] === '.') {
        let j = i + 1;
        while (j < src.length && IDENT.test(src[j])) j++;
        if (j === i + 1) break;
        names.push(src.slice(i + 1, j));
        i = j;
      }
      if (names.length === 0) {
        tokens.push({ kind: 'dot' });
        i++;
      } else {
        const prev = tokens[tokens.length - 1];
        const attached = !spaced && (prev?.kind === 'var' || prev?.kind === 'rparen' || prev?.kind === 'field');
        tokens.push({ kind: 'field', names, attached });
      }
    } else if (c === '$') {
      let j = i + 1;
      while (j < src.length && IDENT.test(src[j])) j++;
      tokens.push({ kind: 'var', name: src.slice(i, j) });
      i = j;
    } else if (c === '|') {
      tokens.push({ kind: 'pipe' });
      i++;
    } else if (c === '(') {
      tokens.push({ kind: 'lparen' });
      i++;
    } else if (c === ')') {
      tokens.push({ kind: 'rparen' });
      i++;
    } else if (c === ',') {
      tokens.push({ kind: 'comma' });
      i++;
    } else if (src.startsWith(':=', i)) {
      tokens.push({ kind: 'declare' });
      i += 2;
    } else if (c === '=') {
      tokens.push({ kind: 'assign' });
      i++;
    } else if (NUMBER.test(src.slice(i)) && /[\d.+-]/.test(c)) {
      const text = NUMBER.exec(src.slice(i))![0];
      const clean = text.replaceAll('_', '');
      const sign = clean.startsWith('-') ? -1 : 1;
      const body = clean.replace(/^[+-]/, '');
      const value = /^0[xXbBoO]/.test(body)
        ? sign * Number(body)
        : /^0[0-7]+$/.test(body)
          ? sign * Number.parseInt(body, 8)
          : sign * Number(body);
      if (Number.isNaN(value)) throw new TemplateError(`bad number syntax: ${JSON.stringify(text)} at ${position(src, i)}`);
      tokens.push({ kind: 'number', value });
      i += text.length;
    } else if (IDENT.test(c)) {
      let j = i;
      while (j < src.length && IDENT.test(src[j])) j++;
      const name = src.slice(i, j);
      tokens.push(
        name === 'true' || name === 'false'
          ? { kind: 'bool', value: name === 'true' }
          : name === 'nil'
            ? { kind: 'nil' }
            : { kind: 'name', name },
      );
      i = j;
    } else {
      throw new TemplateError(`unexpected ${JSON.stringify(c)} in action at ${position(src, i)}`);
    }
  }
}

/** The template as text and actions, trim markers applied and comments dropped. */
export function lex(src: string): Item[] {
  const items: Item[] = [];
  let i = 0;
  let trimNext = false;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    let text = src.slice(i, open < 0 ? src.length : open);
    if (trimNext) text = text.replace(/^[ \t\r\n]+/, '');
    if (open < 0) {
      if (text) items.push({ kind: 'text', text });
      break;
    }
    let j = open + 2;
    if (src.startsWith('- ', j) || src.startsWith('-\t', j) || src.startsWith('-\n', j) || src.startsWith('-\r', j)) {
      text = text.replace(/[ \t\r\n]+$/, '');
      j += 2;
    }
    if (text) items.push({ kind: 'text', text });
    const rest = src.slice(j).replace(/^[ \t\r\n]*/, '');
    if (rest.startsWith('/*')) {
      const at = j + (src.length - j - rest.length);
      const end = src.indexOf('*/', at + 2);
      if (end < 0) throw new TemplateError(`unclosed comment at ${position(src, at)}`);
      const close = /^[ \t\r\n]*(-?)\}\}/.exec(src.slice(end + 2));
      if (!close) throw new TemplateError(`comment ends before closing delimiter at ${position(src, end)}`);
      trimNext = close[1] === '-';
      i = end + 2 + close[0].length;
      continue;
    }
    const [tokens, end] = actionTokens(src, j);
    items.push({ kind: 'action', tokens, at: open });
    trimNext = src[end] === '-';
    i = end + (trimNext ? 3 : 2);
  }
  return items;
}
