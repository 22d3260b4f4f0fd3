// What a gist body asks for, checked where its schema (schemas.ts) cannot say it with GitHub's 422s: the description,
// `public`, each value of the file map and blank contents, in the body's order. plan.ts turns the result into a change
// of files (and meets rules.ts there); nothing here reads the database.
import { ValidationFailed, type FieldError } from '../core/errors.js';
import type { CreateBody, UpdateBody } from './schemas.js';

const RESOURCE = 'Gist';

/** The configured limits on gist files and descriptions. */
export interface GistLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxDescription: number;
}

/** A file a create body sends: `filename` null when sent without a usable name (it gets an automatic one). */
export interface SentFile {
  filename: string | null;
  content: Buffer;
}

/** One entry of an update body's file map, checked against the names the gist has. */
export type FileEdit =
  | { key: string; deletes: true }
  | {
      key: string;
      deletes: false;
      /** The name it is to have: the key, a rename, or null for a blank one (an automatic name). */
      target: string | null;
      /** New bytes, or null: the current file's bytes (a rename alone). */
      content: Buffer | null;
    };

export function invalid(field: string, message: string, code = 'invalid'): FieldError {
  return { resource: RESOURCE, field, code, message };
}

function missingFile(message: string): FieldError {
  return { resource: RESOURCE, field: 'files', code: 'missing_field', message };
}

function isBlank(s: string): boolean {
  return s.trim() === '';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function throwIf(errors: FieldError[]): void {
  if (errors.length) throw new ValidationFailed(errors);
}

function descriptionProblem(description: unknown, limits: GistLimits): FieldError | null {
  if (description === undefined || description === null) return null;
  if (typeof description !== 'string') return invalid('description', 'description must be a string');
  if (description.includes('\0')) return invalid('description', 'description cannot contain NUL characters');
  if (description.length > limits.maxDescription) return invalid('description', `description is too long (maximum is ${limits.maxDescription} characters)`);
  return null;
}

/** `public` as a boolean, from a boolean or the strings "true"/"false" (secret when absent). */
function parsePublic(value: unknown, errors: FieldError[]): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  errors.push(invalid('public', 'public must be true or false'));
  return false;
}

const blankContent = (key: string) => missingFile(`contents of ${JSON.stringify(key)} can't be blank`);
const notAFile = (key: string) => invalid('files', `${JSON.stringify(key)} is not a file of this gist`, 'missing');

/**
 * A create body: a description, `public`, and files (required, non-empty, every one an object with non-blank
 * content); the files with a name first, those without after them, each in the body's order.
 */
export function parseCreate(body: CreateBody, limits: GistLimits): { description: string; public: boolean; files: SentFile[] } {
  const errors: FieldError[] = [];
  const descriptionError = descriptionProblem(body.description, limits);
  if (descriptionError) errors.push(descriptionError);
  const isPublic = parsePublic(body.public, errors);
  const entries = Object.entries(body.files);
  if (!entries.length) errors.push(missingFile('files cannot be empty'));

  const named: SentFile[] = [];
  const unnamed: SentFile[] = [];
  for (const [key, value] of entries) {
    if (!isObject(value)) {
      errors.push(invalid('files', `files.${key} must be an object with a content string`));
      continue;
    }
    if (typeof value.content !== 'string') {
      errors.push(missingFile(`files.${key}.content is required and must be a string`));
      continue;
    }
    if (isBlank(value.content)) {
      errors.push(blankContent(key));
      continue;
    }
    const content = Buffer.from(value.content, 'utf8');
    if (isBlank(key)) unnamed.push({ filename: null, content });
    else named.push({ filename: key, content });
  }
  throwIf(errors);
  return { description: typeof body.description === 'string' ? body.description : '', public: isPublic, files: [...named, ...unnamed] };
}

/**
 * An update body: the description sent (null reads as empty) and the file map's entries as edits, or undefined for
 * what was not sent. `null` (or an object with neither content nor filename, or empty content) deletes, `{filename}`
 * renames, `{content}` replaces, a name the gist does not have adds (with content). Refuses a body that sends neither.
 */
export function parseUpdate(body: UpdateBody, has: (name: string) => boolean, limits: GistLimits): { description?: string; edits?: FileEdit[] } {
  const errors: FieldError[] = [];
  const hasDescription = body.description !== undefined;
  const hasFiles = body.files !== undefined && body.files !== null;
  if (!hasDescription && !hasFiles) throw new ValidationFailed([missingFile('an update needs a description or files')]);
  const descriptionError = descriptionProblem(body.description, limits);
  if (descriptionError) errors.push(descriptionError);
  const description = hasDescription ? (body.description ?? '') : undefined;
  if (!hasFiles) {
    throwIf(errors);
    return { description };
  }

  const edits: FileEdit[] = [];
  for (const [key, value] of Object.entries(body.files as Record<string, unknown>)) {
    const exists = has(key);
    if (value !== null && !isObject(value)) {
      errors.push(invalid('files', `files.${key} must be an object or null`));
      continue;
    }
    const content = value?.content;
    const rename = value?.filename;
    if (content !== undefined && content !== null && typeof content !== 'string') {
      errors.push(invalid('files', `files.${key}.content must be a string`));
      continue;
    }
    if (rename !== undefined && rename !== null && typeof rename !== 'string') {
      errors.push(invalid('files', `files.${key}.filename must be a string or null`));
      continue;
    }
    const deletes = value === null || ((content === undefined || content === null) && (rename === undefined || rename === null)) || content === '';
    if (deletes) {
      if (!exists) errors.push(notAFile(key));
      else edits.push({ key, deletes: true });
      continue;
    }
    if (typeof content === 'string' && isBlank(content)) {
      errors.push(blankContent(key));
      continue;
    }
    const target = typeof rename === 'string' ? rename : key;
    if (!exists && typeof content !== 'string') {
      errors.push(notAFile(key));
      continue;
    }
    if (exists && target !== key && isBlank(target)) {
      errors.push(invalid('files', `files.${key}.filename cannot be blank`));
      continue;
    }
    edits.push({ key, deletes: false, target: isBlank(target) ? null : target, content: typeof content === 'string' ? Buffer.from(content, 'utf8') : null });
  }
  throwIf(errors);
  return { description, edits };
}
