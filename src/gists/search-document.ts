// What gist search indexes of a gist, pure: its description, its file names and its files' text as words
// (search-query.ts's tokenizer), with who may find it and its files' languages and extensions (for `language:` and
// `extension:`). Binary files give their name only; a file gives at most its first 384 KB (GitHub's limit for searched
// files); and a document stops taking new words at an index budget that keeps it within PostgreSQL's 1 MB tsvector
// whatever the files hold. search-store.ts writes it in either database's form.
import { searchTokens } from './search-query.js';

/** GitHub searches files up to 384 KB: of a longer file, the first 384 KB are indexed. */
export const MAX_INDEXED_FILE_BYTES = 384 * 1024;

/**
 * Bytes of index a document may take, estimated as PostgreSQL's tsvector stores it (an entry of 4 bytes, the word, a
 * pad byte, a count and 2 bytes a position, at most 256 positions a word); its limit is 1 MB.
 */
const INDEX_BUDGET_BYTES = 900_000;
const MAX_POSITIONS = 256;

interface SearchableFile {
  filename: string;
  language: string | null;
  /** The file's bytes (only its first MAX_INDEXED_FILE_BYTES are read); null for a binary file. */
  content: Buffer | null;
}

export interface SearchableGist {
  ownerId: number;
  public: boolean;
  description: string;
  files: SearchableFile[];
}

/** A gist's words by field, in order, and who may find it. */
export interface SearchDocument {
  ownerId: number;
  public: boolean;
  description: string[];
  filenames: string[];
  content: string[];
  /** Index words of its files' languages and extensions (languageWord, extensionWord). */
  languages: string[];
  extensions: string[];
}

/** A value as an index word: its UTF-8 bytes in hex (letters and digits, whatever the value holds). */
const hexWord = (value: string) => Buffer.from(value).toString('hex');

/** The index word of a language, as `language:` compares it: lowercase, spaces as hyphens (`jupyter-notebook`). */
export const languageWord = (language: string) => hexWord(language.trim().toLowerCase().replace(/\s+/g, '-'));

/** The index word of a file name extension (`py` of `a.PY`, `bashrc` of `.bashrc`), as `extension:` compares it. */
export const extensionWord = (extension: string) => hexWord(extension.toLowerCase());

/** A file name's extension: what follows its last dot; none without one. */
function extensionOf(filename: string): string | null {
  const dot = filename.lastIndexOf('.');
  return dot >= 0 && dot < filename.length - 1 ? filename.slice(dot + 1) : null;
}

/** Counts what each word costs of the budget; `take` is false once a new word would go over it. */
class Budget {
  private readonly seen = new Map<string, number>();
  private used = 0;

  take(word: string): boolean {
    const n = this.seen.get(word);
    if (n !== undefined) {
      if (n < MAX_POSITIONS) {
        this.seen.set(word, n + 1);
        this.used += 2;
      }
      return true;
    }
    const cost = 10 + Buffer.byteLength(word);
    if (this.used + cost > INDEX_BUDGET_BYTES) return false;
    this.used += cost;
    this.seen.set(word, 1);
    return true;
  }
}

/** The words of a gist as the index keeps them (see the header for what is left out). */
export function searchDocument(gist: SearchableGist): SearchDocument {
  const budget = new Budget();
  const within = (words: string[]) => {
    const kept: string[] = [];
    for (const w of words) {
      if (!budget.take(w)) break;
      kept.push(w);
    }
    return kept;
  };
  const description = within(searchTokens(gist.description));
  const filenames = within(gist.files.flatMap((f) => searchTokens(f.filename)));
  const content: string[] = [];
  for (const f of gist.files) {
    if (!f.content) continue;
    const words = searchTokens(f.content.subarray(0, MAX_INDEXED_FILE_BYTES).toString('utf8'));
    const kept = within(words);
    for (const w of kept) content.push(w);
    if (kept.length < words.length) break;
  }
  const languages = new Set(gist.files.flatMap((f) => (f.language ? [languageWord(f.language)] : [])));
  const extensions = new Set(
    gist.files.flatMap((f) => (extensionOf(f.filename) === null ? [] : [extensionWord(extensionOf(f.filename)!)])),
  );
  return {
    ownerId: gist.ownerId,
    public: gist.public,
    description,
    filenames,
    content,
    languages: [...languages],
    extensions: [...extensions],
  };
}
