// A gist file's `language` and `type` from its name (and shebang), the way Linguist does, over the linguist-languages data.
//
// Linguist's strategies in order: an exact file name (`Makefile`, `Gemfile`), the interpreter of a `#!` line, then the
// longest matching extension (case-insensitive). Linguist breaks ties between languages sharing an extension with
// content heuristics and a classifier that the data package does not carry; here the tie goes to the language whose
// primary (first) extension it is, then to one with an editor mode (an established language), then to the language
// with the most extensions, file names and interpreters, then by name. `type` is the language's MIME type; without
// one, `text/plain` (or `application/octet-stream` for bytes that are not text).

interface LanguageData {
  name: string;
  type: string;
  extensions?: readonly string[];
  filenames?: readonly string[];
  interpreters?: readonly string[];
  codemirrorMimeType?: string;
  aceMode?: string;
}

interface Index {
  byFilename: Map<string, LanguageData[]>;
  byExtension: Map<string, LanguageData[]>;
  byInterpreter: Map<string, LanguageData[]>;
}

export interface Detected {
  language: string | null;
  type: string;
}

/** A constant built on first use from the bundled linguist data: the same for every app, never changed once built. */
let loading: Promise<Index> | undefined;

/** The data is large (800+ modules): loaded on first use, so commands that never present a gist do not pay for it. */
function index(): Promise<Index> {
  loading ??= import('linguist-languages').then((all) => {
    const idx: Index = { byFilename: new Map(), byExtension: new Map(), byInterpreter: new Map() };
    const add = (map: Map<string, LanguageData[]>, key: string, lang: LanguageData) => {
      const list = map.get(key);
      if (list) list.push(lang);
      else map.set(key, [lang]);
    };
    for (const lang of Object.values(all) as LanguageData[]) {
      for (const f of lang.filenames ?? []) add(idx.byFilename, f, lang);
      for (const e of lang.extensions ?? []) add(idx.byExtension, e.toLowerCase(), lang);
      for (const i of lang.interpreters ?? []) add(idx.byInterpreter, i, lang);
    }
    return idx;
  });
  return loading;
}

function weight(lang: LanguageData): number {
  return (lang.extensions?.length ?? 0) + (lang.filenames?.length ?? 0) + (lang.interpreters?.length ?? 0);
}

/** One language out of several that claim the same name or extension. */
function pick(candidates: LanguageData[], extension?: string): LanguageData {
  let pool = candidates;
  if (extension) {
    const primary = pool.filter((l) => l.extensions?.[0]?.toLowerCase() === extension);
    if (primary.length) pool = primary;
  }
  const withMode = pool.filter((l) => l.codemirrorMimeType);
  if (withMode.length) pool = withMode;
  return [...pool].sort((a, b) => weight(b) - weight(a) || a.name.localeCompare(b.name))[0];
}

/** The interpreter a `#!` line names (`#!/usr/bin/env python3` → `python3`, `python`). */
function shebangInterpreters(head: string): string[] {
  const m = /^#!\s*(\S+)(?:\s+(.*))?/.exec(head.split('\n', 1)[0] ?? '');
  if (!m) return [];
  let script = m[1].split('/').pop() ?? '';
  if (script === 'env') {
    const args = (m[2] ?? '').split(/\s+/).filter((a) => a && !a.startsWith('-') && !a.includes('='));
    script = args[0] ?? '';
  }
  if (!script) return [];
  const unversioned = script.replace(/[\d.]+$/, '');
  return unversioned && unversioned !== script ? [script, unversioned] : [script];
}

function isText(content: Buffer): boolean {
  if (content.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return true;
  } catch {
    return false;
  }
}

/** True when the bytes are UTF-8 text (no NUL, valid encoding). */
export function isBinary(content: Buffer): boolean {
  return !isText(content);
}

/** The Linguist language and media type of a gist file. */
export async function detectLanguage(filename: string, content: Buffer | null): Promise<Detected> {
  const idx = await index();
  const binary = content !== null && isBinary(content);
  const result = (lang: LanguageData | undefined): Detected => ({
    language: lang?.name ?? null,
    type: lang?.codemirrorMimeType ?? (binary ? 'application/octet-stream' : 'text/plain'),
  });

  const byName = idx.byFilename.get(filename);
  if (byName) return result(pick(byName));

  if (content && !binary && content[0] === 0x23 && content[1] === 0x21) {
    for (const interpreter of shebangInterpreters(content.subarray(0, 256).toString('utf8'))) {
      const langs = idx.byInterpreter.get(interpreter);
      if (langs) return result(pick(langs));
    }
  }

  const lower = filename.toLowerCase();
  // Longest extension first: `x.d.ts` tries `.d.ts`, then `.ts`. A leading dot alone (`.bashrc`) is a name, not an extension.
  for (let i = lower.indexOf('.', 1); i >= 0; i = lower.indexOf('.', i + 1)) {
    const ext = lower.slice(i);
    const langs = idx.byExtension.get(ext);
    if (langs) return result(pick(langs, ext));
  }
  return result(undefined);
}
