// `hublet api` request parameters from `-f/--raw-field` and `-F/--field`, parsed as gh's pkg/cmd/api/fields.go does:
// `key=value`, nested `key[sub]=value` (objects), `key[]=value` (arrays, one element per use; `key[]` alone is an empty
// array), `key[][sub]=value` (arrays of objects). -F values are typed: true, false, null and integers become JSON values,
// `@file` reads a file and `@-` stdin. Raw fields are parsed before typed ones, as in gh.
import fs from 'node:fs';
import { readAll, type IO } from '../../io.js';
import { CliExit, EXIT } from '../../output.js';

export type Params = { [key: string]: unknown };

/** How a typed value names a file; `-` is stdin. */
export type ReadUserFile = (name: string) => Promise<string>;

const INTEGER = /^[+-]?\d+$/;

/** gh's magicFieldValue: `@file`, an integer (strconv.Atoi: within int64), true, false, null; else the text itself. */
async function magicValue(v: string, readUserFile: ReadUserFile): Promise<unknown> {
  if (v.startsWith('@')) return readUserFile(v.slice(1));
  if (INTEGER.test(v)) {
    const n = BigInt(v);
    if (n >= -(2n ** 63n) && n < 2n ** 63n) return Number(n);
  }
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  return v;
}

const usage = (message: string) => new CliExit(EXIT.usage, `hublet: ${message}`);
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Objects for user-named keys have no prototype (`__proto__` is a key like any other). */
const newParams = (): Params => Object.create(null) as Params;

function addParamsMap(m: Params, key: string): Params {
  if (Object.hasOwn(m, key)) {
    const v = m[key];
    if (isObject(v)) return v;
    throw usage(`expected map type under ${JSON.stringify(key)}, got ${typeName(v)}`);
  }
  const created = newParams();
  m[key] = created;
  return created;
}

/** `prev[][next]`: the array's last object while it does not have `next` yet (or has an array there), else a new one. */
function addParamsSlice(m: Params, prevKey: string, newKey: string): Params {
  if (Object.hasOwn(m, prevKey)) {
    const v = m[prevKey];
    if (!Array.isArray(v)) throw usage(`expected array type under ${JSON.stringify(prevKey)}, got ${typeName(v)}`);
    const last = v[v.length - 1];
    if (isObject(last) && (!Object.hasOwn(last, newKey) || Array.isArray(last[newKey]))) return last;
    const created = newParams();
    v.push(created);
    return created;
  }
  const created = newParams();
  m[prevKey] = [created];
  return created;
}

/** One field into `params`, as gh's parseField. */
async function parseField(params: Params, f: string, magic: boolean, readUserFile: ReadUserFile): Promise<void> {
  let valueIndex = 0;
  const keystack: string[] = [];
  let keyStartAt = 0;
  for (let i = 0; i < f.length; i++) {
    const r = f[i];
    if (r === '[') {
      if (keyStartAt === 0) keystack.push(f.slice(0, i));
      keyStartAt = i + 1;
    } else if (r === ']') {
      keystack.push(f.slice(keyStartAt, i));
    } else if (r === '=') {
      if (keyStartAt === 0) keystack.push(f.slice(0, i));
      valueIndex = i + 1;
      break;
    }
  }
  if (keystack.length === 0) throw usage(`invalid key: ${JSON.stringify(f)}`);

  let key = f;
  let value: unknown = null;
  if (valueIndex === 0) {
    if (keystack[keystack.length - 1] !== '') throw usage(`field ${JSON.stringify(key)} requires a value separated by an '=' sign`);
  } else {
    key = f.slice(0, valueIndex - 1);
    value = f.slice(valueIndex);
  }
  // hublet's own form, kept from before: `key:=JSON` sends any JSON value (an object, a float, a string "true").
  if (valueIndex > 0 && key.endsWith(':') && keystack.length === 1) {
    keystack[0] = key = key.slice(0, -1);
    try {
      value = JSON.parse(value as string);
    } catch {
      throw usage(`field ${key}: not JSON: ${value as string}`);
    }
  } else if (magic && valueIndex > 0) {
    try {
      value = await magicValue(value as string, readUserFile);
    } catch (err) {
      throw usage(`error parsing ${JSON.stringify(key)} value: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  let dest = params;
  let isArray = false;
  let subkey = '';
  for (const k of keystack) {
    if (k === '') {
      isArray = true;
      continue;
    }
    if (subkey !== '') {
      if (isArray) {
        dest = addParamsSlice(dest, subkey, k);
        isArray = false;
      } else {
        dest = addParamsMap(dest, subkey);
      }
    }
    subkey = k;
  }

  if (isArray) {
    if (valueIndex === 0) {
      dest[subkey] = [];
    } else if (Object.hasOwn(dest, subkey)) {
      const existing = dest[subkey];
      if (!Array.isArray(existing)) throw usage(`expected array type under ${JSON.stringify(subkey)}, got ${typeName(existing)}`);
      existing.push(value);
    } else {
      dest[subkey] = [value];
    }
  } else {
    if (Object.hasOwn(dest, subkey)) throw usage(`unexpected override existing field under ${JSON.stringify(subkey)}`);
    dest[subkey] = value;
  }
}

/** All fields: the raw ones (-f) first, then the typed ones (-F), as gh does. */
export async function parseFields(raw: string[], typed: string[], readUserFile: ReadUserFile): Promise<Params> {
  const params = newParams();
  for (const f of raw) await parseField(params, f, false, readUserFile);
  for (const f of typed) await parseField(params, f, true, readUserFile);
  return params;
}

/** Reads a file named on the command line, or stdin for `-` (once: a second read of stdin is refused). */
export function userFileReader(io: IO): ReadUserFile {
  let stdinRead = false;
  return async (name) => {
    if (name === '-') {
      if (stdinRead) throw new Error('standard input can be read once');
      stdinRead = true;
      return (await readAll(io.stdin)).toString('utf8');
    }
    return fs.readFileSync(name, 'utf8');
  };
}
