// Request shapes of the gist routes (JSON schemas for Fastify) and the checks a schema cannot express (file maps; names and limits by rules.ts).
import type { FromSchema } from 'json-schema-to-ts';
import { ValidationFailed, type FieldError } from '../core/errors.js';
import { pagingQuery } from '../http/pagination.js';
import { automaticName, revisionProblems } from './rules.js';
import { parseTimestamp } from '../core/timestamps.js';

const RESOURCE = 'Gist';

export const gistParams = {
  type: 'object',
  properties: { gist_id: { type: 'string' } },
  required: ['gist_id'],
} as const;

export const userParams = {
  type: 'object',
  properties: { username: { type: 'string' } },
  required: ['username'],
} as const;

export const revisionParams = {
  type: 'object',
  properties: { gist_id: { type: 'string' }, sha: { type: 'string' } },
  required: ['gist_id', 'sha'],
} as const;

export const commentParams = {
  type: 'object',
  properties: { gist_id: { type: 'string' }, comment_id: { type: 'string' } },
  required: ['gist_id', 'comment_id'],
} as const;

export const listQuery = {
  type: 'object',
  properties: { ...pagingQuery, since: { type: 'string' } },
} as const;

export const pagedQuery = { type: 'object', properties: { ...pagingQuery } } as const;

export const createBody = {
  type: 'object',
  properties: {
    description: { type: ['string', 'null'] },
    files: { type: 'object' },
    public: { type: ['boolean', 'string'] },
  },
  required: ['files'],
} as const;

export const updateBody = {
  type: 'object',
  properties: {
    description: { type: ['string', 'null'] },
    files: { type: ['object', 'null'] },
  },
} as const;

export const commentBody = {
  type: 'object',
  properties: { body: { type: 'string' } },
  required: ['body'],
} as const;

/** A create body as its schema admits it (the file map is checked by parseCreate). */
export type CreateBody = FromSchema<typeof createBody>;
/** An update body as its schema admits it (the file map is checked by planUpdate). */
export type UpdateBody = FromSchema<typeof updateBody>;

export interface GistLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxDescription: number;
}

export interface NewFile {
  filename: string;
  content: Buffer;
}

function invalid(field: string, message: string, code = 'invalid'): FieldError {
  return { resource: RESOURCE, field, code, message };
}

function isBlank(s: string): boolean {
  return s.trim() === '';
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

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The next free automatic name: gistfile1.txt, gistfile2.txt, … */
function autoName(taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const name = automaticName(n);
    if (!taken.has(name)) return name;
  }
}

/**
 * The file set of a new revision against rules.ts, the rules `git push` meets too: names new in it (not in `kept`),
 * the number of files, their sizes.
 */
function checkRevision(files: NewFile[], kept: ReadonlySet<string>, limits: GistLimits, errors: FieldError[]): void {
  const facts = files.map((f) => ({ filename: f.filename, size: f.content.length }));
  for (const p of revisionProblems(facts, kept, limits)) errors.push({ resource: RESOURCE, field: 'files', code: p.code, message: p.message });
}

function throwIf(errors: FieldError[]): void {
  if (errors.length) throw new ValidationFailed(errors);
}

export interface CreateInput {
  description: string;
  public: boolean;
  files: NewFile[];
}

/** Checks a create body: files required and non-empty, every file with non-blank content, usable names, limits. */
export function parseCreate(body: CreateBody, limits: GistLimits): CreateInput {
  const errors: FieldError[] = [];
  const descriptionError = descriptionProblem(body.description, limits);
  if (descriptionError) errors.push(descriptionError);
  const isPublic = parsePublic(body.public, errors);
  const entries = Object.entries(body.files);
  if (!entries.length) errors.push({ resource: RESOURCE, field: 'files', code: 'missing_field', message: 'files cannot be empty' });

  const named: NewFile[] = [];
  const unnamed: Buffer[] = [];
  for (const [key, value] of entries) {
    if (!isObject(value)) {
      errors.push(invalid('files', `files.${key} must be an object with a content string`));
      continue;
    }
    if (typeof value.content !== 'string') {
      errors.push({ resource: RESOURCE, field: 'files', code: 'missing_field', message: `files.${key}.content is required and must be a string` });
      continue;
    }
    if (isBlank(value.content)) {
      errors.push({ resource: RESOURCE, field: 'files', code: 'missing_field', message: `contents of ${JSON.stringify(key)} can't be blank` });
      continue;
    }
    const content = Buffer.from(value.content, 'utf8');
    if (isBlank(key)) {
      unnamed.push(content);
      continue;
    }
    named.push({ filename: key, content });
  }
  throwIf(errors);
  const taken = new Set(named.map((f) => f.filename));
  const automatic = new Set<string>();
  for (const content of unnamed) {
    const filename = autoName(taken);
    taken.add(filename);
    automatic.add(filename);
    named.push({ filename, content });
  }
  checkRevision(named, automatic, limits, errors);
  throwIf(errors);
  return { description: typeof body.description === 'string' ? body.description : '', public: isPublic, files: named };
}

export interface UpdatePlan {
  description?: string;
  /** The complete next file set, or undefined when `files` was not sent. */
  files?: NewFile[];
}

/**
 * Applies an update body to the current files: unnamed files stay, `{filename}` renames, `{content}` replaces, `null`
 * (an object with neither, or empty content) deletes, a new name adds. Renaming onto a name that stays is refused.
 */
export function planUpdate(body: UpdateBody, current: Map<string, Buffer>, limits: GistLimits): UpdatePlan {
  const errors: FieldError[] = [];
  const hasDescription = body.description !== undefined;
  const hasFiles = body.files !== undefined && body.files !== null;
  if (!hasDescription && !hasFiles) {
    throw new ValidationFailed([{ resource: RESOURCE, field: 'files', code: 'missing_field', message: 'an update needs a description or files' }]);
  }
  const descriptionError = descriptionProblem(body.description, limits);
  if (descriptionError) errors.push(descriptionError);
  const plan: UpdatePlan = {};
  if (hasDescription) plan.description = body.description ?? '';
  if (!hasFiles) {
    throwIf(errors);
    return plan;
  }

  const removed = new Set<string>();
  const added: { filename: string | null; content: Buffer }[] = [];
  for (const [key, value] of Object.entries(body.files as Record<string, unknown>)) {
    const exists = current.has(key);
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
      if (!exists) errors.push(invalid('files', `${JSON.stringify(key)} is not a file of this gist`, 'missing'));
      else removed.add(key);
      continue;
    }
    if (typeof content === 'string' && isBlank(content)) {
      errors.push({ resource: RESOURCE, field: 'files', code: 'missing_field', message: `contents of ${JSON.stringify(key)} can't be blank` });
      continue;
    }
    const target = typeof rename === 'string' ? rename : key;
    if (!exists && typeof content !== 'string') {
      errors.push(invalid('files', `${JSON.stringify(key)} is not a file of this gist`, 'missing'));
      continue;
    }
    if (exists && target !== key && isBlank(target)) {
      errors.push(invalid('files', `files.${key}.filename cannot be blank`));
      continue;
    }
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : current.get(key)!;
    if (exists) removed.add(key);
    added.push({ filename: isBlank(target) ? null : target, content: bytes });
  }
  throwIf(errors);

  const next = new Map<string, Buffer>();
  for (const [name, bytes] of current) if (!removed.has(name)) next.set(name, bytes);
  for (const a of added) {
    if (a.filename === null) continue;
    if (next.has(a.filename)) {
      errors.push({ resource: RESOURCE, field: 'files', code: 'already_exists', message: `a file named ${JSON.stringify(a.filename)} already exists in this gist` });
      continue;
    }
    next.set(a.filename, a.content);
  }
  throwIf(errors);
  // Names the gist has (and keeps) were accepted before; names given to unnamed files are hublet's own.
  const kept = new Set(current.keys());
  const taken = new Set(next.keys());
  for (const a of added) {
    if (a.filename !== null) continue;
    const name = autoName(taken);
    taken.add(name);
    kept.add(name);
    next.set(name, a.content);
  }
  plan.files = [...next].map(([filename, content]) => ({ filename, content }));
  checkRevision(plan.files, kept, limits, errors);
  throwIf(errors);
  return plan;
}

/** `since` as an ISO timestamp (422 when it is not one). */
export function parseSince(since: string | undefined): string | undefined {
  if (since === undefined) return undefined;
  const ms = parseTimestamp(since);
  if (ms === undefined) {
    throw new ValidationFailed([{ resource: RESOURCE, field: 'since', code: 'invalid', message: 'since must be an ISO 8601 timestamp (YYYY-MM-DDTHH:MM:SSZ)' }]);
  }
  return new Date(ms).toISOString();
}

/** A comment body: non-blank text of at most 65535 characters. */
export function parseCommentBody(body: string): string {
  if (isBlank(body)) throw new ValidationFailed([{ resource: 'GistComment', field: 'body', code: 'missing_field', message: "body can't be blank" }]);
  if (body.length > 65535 || body.includes('\0')) {
    throw new ValidationFailed([{ resource: 'GistComment', field: 'body', code: 'invalid', message: 'body must be at most 65535 characters of text' }]);
  }
  return body;
}
