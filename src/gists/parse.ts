// What a gist body asks for, past its schema (schemas.ts): the schema's failures as GitHub's 422s (the tables below),
// and the checks a schema cannot say (the configured description length, blank contents, the files the gist has, a
// rename to a blank name), in the body's order, one 422 for all. plan.ts turns the result into a change of files (and
// meets rules.ts there); nothing here reads the database.
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
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

export function throwIf(errors: FieldError[]): void {
  if (errors.length) throw new ValidationFailed(errors);
}

type SchemaError = FastifySchemaValidationError;

/**
 * A body as its route received it, with its schema's failures: the route keeps them (`attachValidation`) so that they
 * are answered with the checks below in one 422. While `schemaErrors` is non-empty the body is not of type T: the
 * checks below read only the places where the schema found nothing wrong.
 */
export interface Received<T> {
  body: T;
  schemaErrors: readonly SchemaError[];
}

const NONE: readonly SchemaError[] = [];

/**
 * A field of the body missing or of a type its schema does not take (`files` not an object, `description` a number):
 * the body is not the route's at all, and is refused with that alone, before anything else is looked at (the gist, an
 * import's source), in the words of every route's schema check (http/error-handler.ts), naming the route's resource.
 */
function misshapen(e: SchemaError, resource: string): FieldError | undefined {
  if (e.schemaPath === '#/required') return { resource, field: String(e.params.missingProperty), code: 'missing_field' };
  if (!/^#\/properties\/[^/]+\/type$/.test(e.schemaPath)) return undefined;
  const field = e.instancePath.slice(1);
  return { resource, field, code: 'invalid', message: `${field} must be ${String(e.params.type)}` };
}

function refuseMisshapen(schemaErrors: readonly SchemaError[], resource: string): void {
  const problems = schemaErrors.flatMap((e) => misshapen(e, resource) ?? []);
  if (problems.length) throw new ValidationFailed(problems);
}

/**
 * The body of a gist write route (its schema's verdict kept: `attachValidation`), refused at once when misshapen; the
 * schema's other failures are answered by parseCreate/parseUpdate with the checks that need the gist.
 */
export function received<T>(request: FastifyRequest & { body: T }): Received<T> {
  const failed = request.validationError;
  if (failed && failed.validationContext !== 'body') throw failed;
  const schemaErrors: readonly SchemaError[] = failed?.validation ?? NONE;
  refuseMisshapen(schemaErrors, request.routeOptions.config.resource ?? RESOURCE);
  return { body: request.body, schemaErrors };
}

/** GitHub's answer for each failure of a body's schema inside a field of the right type, by the schema's place. */
const REFUSED: Record<string, FieldError> = {
  '#/anyOf': missingFile('an update needs a description or files'),
  '#/properties/description/pattern': invalid('description', 'description cannot contain NUL characters'),
  '#/properties/public/enum': invalid('public', 'public must be true or false'),
  '#/properties/files/minProperties': missingFile('files cannot be empty'),
};

const FILE_SCHEMA = '#/properties/files/additionalProperties/';

/** The answer for an entry of the file map its schema refuses, by the place in the entry's schema (after FILE_SCHEMA). */
type FileRefusals = Record<string, (key: string) => FieldError>;

const noContent = (key: string) => missingFile(`files.${key}.content is required and must be a string`);
/** An entry of a create body's file map (schemas.ts `sentFile`). */
const SENT_FILE_REFUSED: FileRefusals = {
  type: (key) => invalid('files', `files.${key} must be an object with a content string`),
  required: noContent,
  'properties/content/type': noContent,
};
/** An entry of an update body's file map (schemas.ts `fileEdit`). */
const FILE_EDIT_REFUSED: FileRefusals = {
  type: (key) => invalid('files', `files.${key} must be an object or null`),
  'properties/content/type': (key) => invalid('files', `files.${key}.content must be a string`),
  'properties/filename/type': (key) => invalid('files', `files.${key}.filename must be a string or null`),
};

/** A JSON pointer's segment as the key it names. */
const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The schema's failures past the body's shape, each place's first: the body's fields, and the file map's entries by key. */
interface Verdict {
  /** By the field refused, `body` for the body as a whole (an update that changes nothing). */
  fields: Map<string, FieldError>;
  files: Map<string, FieldError>;
}

function verdictOf(schemaErrors: readonly SchemaError[], refusals: FileRefusals): Verdict | undefined {
  if (!schemaErrors.length) return undefined;
  refuseMisshapen(schemaErrors, RESOURCE);
  const verdict: Verdict = { fields: new Map(), files: new Map() };
  for (const e of schemaErrors) {
    // A branch of `anyOf` failing is said by the anyOf's own failure.
    if (e.schemaPath.startsWith('#/anyOf/')) continue;
    if (e.schemaPath.startsWith(FILE_SCHEMA)) {
      const key = unescapePointer(e.instancePath.split('/')[2]);
      if (!verdict.files.has(key)) verdict.files.set(key, (refusals[e.schemaPath.slice(FILE_SCHEMA.length)] ?? refusals.type)(key));
      continue;
    }
    const field = e.instancePath.slice(1) || 'body';
    if (!verdict.fields.has(field))
      verdict.fields.set(field, REFUSED[e.schemaPath] ?? invalid(field, `${field} ${e.message ?? 'is invalid'}`));
  }
  return verdict;
}

/** Too long for the configured limit (the schema refuses other types and NUL). */
function descriptionProblem(description: string | null | undefined, limits: GistLimits): FieldError | undefined {
  if (typeof description === 'string' && description.length > limits.maxDescription) {
    return invalid('description', `description is too long (maximum is ${limits.maxDescription} characters)`);
  }
  return undefined;
}

const blankContent = (key: string) => missingFile(`contents of ${JSON.stringify(key)} can't be blank`);
const notAFile = (key: string) => invalid('files', `${JSON.stringify(key)} is not a file of this gist`, 'missing');

/**
 * A create body: a description, `public` (a boolean or "true"/"false", secret when absent), and files (at least one,
 * every one with non-blank content); the files with a name first, those without after them, each in the body's order.
 */
export function parseCreate(
  { body, schemaErrors }: Received<CreateBody>,
  limits: GistLimits,
): { description: string; public: boolean; files: SentFile[] } {
  const verdict = verdictOf(schemaErrors, SENT_FILE_REFUSED);
  const errors = [
    verdict?.fields.get('description') ?? descriptionProblem(body.description, limits),
    verdict?.fields.get('public'),
    verdict?.fields.get('files'), // no file at all
  ].filter((e) => e !== undefined);

  const named: SentFile[] = [];
  const unnamed: SentFile[] = [];
  for (const [key, value] of Object.entries(body.files)) {
    const refused = verdict?.files.get(key);
    if (refused) {
      errors.push(refused);
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
  return { description: body.description ?? '', public: body.public === true || body.public === 'true', files: [...named, ...unnamed] };
}

/**
 * An update body: the description sent (null reads as empty) and the file map's entries as edits, or undefined for
 * what was not sent. `null` (or an object with neither content nor filename, or empty content) deletes, `{filename}`
 * renames, `{content}` replaces, a name the gist does not have adds (with content). Its schema refuses a body that
 * sends neither.
 */
export function parseUpdate(
  { body, schemaErrors }: Received<UpdateBody>,
  has: (name: string) => boolean,
  limits: GistLimits,
): { description?: string; edits?: FileEdit[] } {
  const verdict = verdictOf(schemaErrors, FILE_EDIT_REFUSED);
  const nothing = verdict?.fields.get('body');
  if (nothing) throw new ValidationFailed([nothing]);
  const errors: FieldError[] = [];
  const descriptionError = verdict?.fields.get('description') ?? descriptionProblem(body.description, limits);
  if (descriptionError) errors.push(descriptionError);
  const description = body.description === undefined ? undefined : (body.description ?? '');
  if (!body.files) {
    throwIf(errors);
    return { description };
  }

  const edits: FileEdit[] = [];
  for (const [key, value] of Object.entries(body.files)) {
    const refused = verdict?.files.get(key);
    if (refused) {
      errors.push(refused);
      continue;
    }
    const exists = has(key);
    const content = value?.content ?? null;
    const rename = value?.filename ?? null;
    const deletes = value === null || (content === null && rename === null) || content === '';
    if (deletes) {
      if (!exists) errors.push(notAFile(key));
      else edits.push({ key, deletes: true });
      continue;
    }
    if (content !== null && isBlank(content)) {
      errors.push(blankContent(key));
      continue;
    }
    const target = rename ?? key;
    if (!exists && content === null) {
      errors.push(notAFile(key));
      continue;
    }
    if (exists && target !== key && isBlank(target)) {
      errors.push(invalid('files', `files.${key}.filename cannot be blank`));
      continue;
    }
    edits.push({
      key,
      deletes: false,
      target: isBlank(target) ? null : target,
      content: content === null ? null : Buffer.from(content, 'utf8'),
    });
  }
  throwIf(errors);
  return { description, edits };
}
