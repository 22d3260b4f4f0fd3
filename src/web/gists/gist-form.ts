// The new-gist and edit-gist forms as data: what a person typed (description, files each a name and content, the
// files they ticked to remove), read from a posted form with line breaks as typed (LF), turned into the API's create or
// update body, and the API's refusals placed back next to the description, file name or content they concern.
import type { FieldError } from '../../core/errors.js';
import type { createGistFrom, updateGistFrom } from '../../gists/service.js';
import { field, fieldValues, type FormBody } from '../forms.js';

type CreateBody = Parameters<typeof createGistFrom>[1];
type UpdateBody = Parameters<typeof updateGistFrom>[2];

export interface FileEntry {
  name: string;
  content: string;
  /** The file's name in the gist when the form was opened ('' for a file added in the form). */
  original: string;
  /** Ticked "Delete this file". */
  removed: boolean;
}

export interface GistForm {
  description: string;
  files: FileEntry[];
}

/** Where each refusal goes: the description, a file's name or content (by its place in the form), or above the files. */
export interface GistFormErrors {
  description?: string;
  files?: string;
  names: Map<number, string>;
  contents: Map<number, string>;
}

export const noErrors = (): GistFormErrors => ({ names: new Map(), contents: new Map() });

/** Browsers post a textarea's line breaks as CRLF: stored as the person typed them, LF. */
const typed = (text: string) => text.replace(/\r\n?/g, '\n');

/** The form as posted: the files in their order, the repeated fields read side by side. */
export function readGistForm(body: FormBody): GistForm {
  const names = fieldValues(body, 'file_name');
  const contents = fieldValues(body, 'file_content');
  const originals = fieldValues(body, 'file_original');
  const removed = new Set(fieldValues(body, 'remove_file'));
  const files = names.map((name, i) => ({
    name,
    content: typed(contents[i] ?? ''),
    original: originals[i] ?? '',
    removed: removed.has(String(i)),
  }));
  return { description: field(body, 'description'), files };
}

/** The form with one more empty file ("Add file"), the ticked new files taken out (they were never saved). */
export function withAddedFile(form: GistForm): GistForm {
  const files = form.files.filter((f) => f.original !== '' || !f.removed);
  return { ...form, files: [...files, { name: '', content: '', original: '', removed: false }] };
}

const blank = (text: string) => text.trim() === '';

/** A file the form adds, worth sending: named or with content, not ticked away. */
const adds = (f: FileEntry) => f.original === '' && !f.removed && !(blank(f.name) && blank(f.content));

/**
 * The API body for the form, and which place of the form each of the body's file keys (and new names) came from. Files without a name
 * are sent under distinct blank keys (the API names them gistfile1.txt, gistfile2.txt, …). Problems the API cannot be
 * told of (two files of one name: one JSON key) are found here.
 */
function fileMap(form: GistForm, errors: GistFormErrors, taken: ReadonlySet<string>) {
  const keys = new Map<string, number>();
  let unnamed = 0;
  form.files.forEach((f, i) => {
    if (!adds(f)) return;
    if (blank(f.name)) {
      unnamed += 1;
      keys.set(' '.repeat(unnamed), i);
    } else if (keys.has(f.name) || taken.has(f.name)) {
      errors.names.set(i, `a file named ${JSON.stringify(f.name)} already exists in this gist`);
    } else keys.set(f.name, i);
  });
  return keys;
}

export function createBody(form: GistForm, isPublic: boolean): { body: CreateBody; keys: Map<string, number>; errors: GistFormErrors } {
  const errors = noErrors();
  const keys = fileMap(form, errors, new Set());
  const files: Record<string, { content: string }> = {};
  for (const [key, i] of keys) files[key] = { content: form.files[i].content };
  return { body: { description: form.description, public: isPublic, files }, keys, errors };
}

/**
 * The update: every file the gist had sent with its (new) name and content, ticked ones deleted (null), added ones by
 * their name. Emptying a kept file is refused here: the API would read it as a deletion, which the checkbox says.
 */
export function updateBody(form: GistForm): { body: UpdateBody; keys: Map<string, number>; errors: GistFormErrors } {
  const errors = noErrors();
  const originals = new Set(form.files.map((f) => f.original).filter((o) => o !== ''));
  const keys = fileMap(form, errors, originals);
  const files: Record<string, { content?: string; filename?: string } | null> = {};
  for (const [key, i] of keys) files[key] = { content: form.files[i].content };
  form.files.forEach((f, i) => {
    if (f.original === '') return;
    keys.set(f.original, i);
    if (f.removed) files[f.original] = null;
    else if (f.content === '') errors.contents.set(i, 'Contents can’t be empty: tick “Delete this file” to remove it');
    else files[f.original] = f.name === f.original ? { content: f.content } : { content: f.content, filename: f.name };
    // A rename's new name is what the API's messages about it quote.
    if (f.name !== f.original && !blank(f.name) && !keys.has(f.name)) keys.set(f.name, i);
  });
  return { body: { description: form.description, files }, keys, errors };
}

export const hasErrors = (e: GistFormErrors) => Boolean(e.description || e.files || e.names.size || e.contents.size);

/** Whether a message of the API about files names this key (its messages quote a file's name, or say files.NAME). */
function names(message: string, key: string): boolean {
  return message.includes(JSON.stringify(key)) || message.includes(`files.${key}.`) || message.includes(`files.${key} `);
}

/** The API's refusals (a 422's errors) placed in the form: a file's content or name, the description, or the files. */
export function placeErrors(apiErrors: readonly FieldError[], keys: ReadonlyMap<string, number>): GistFormErrors {
  const out = noErrors();
  const add = (map: Map<number, string>, i: number, m: string) => map.set(i, map.has(i) ? `${map.get(i)}; ${m}` : m);
  for (const e of apiErrors) {
    const message = e.message ?? `${e.field ?? 'gist'} is invalid`;
    if (e.field === 'description') {
      out.description = message;
      continue;
    }
    // The longest key first: a file "a" must not claim a message about "a.txt".
    const key = [...keys.keys()].sort((a, b) => b.length - a.length).find((k) => names(message, k));
    if (key === undefined) out.files = out.files ? `${out.files}; ${message}` : message;
    else add(/contents|larger than/.test(message) ? out.contents : out.names, keys.get(key)!, message);
  }
  return out;
}
