// Request shapes of the gist routes (JSON schemas for Fastify), a gist body's file map included (each value's type, at
// least one file to create, something to change), and the two checks of a query and a comment body a schema cannot say.
// What a schema cannot say of a gist body (configured limits, blank contents, the files the gist has, names) is
// checked by parse.ts and plan.ts (with rules.ts); parse.ts also turns the schema's failures into GitHub's 422s.
import type { FromSchema } from 'json-schema-to-ts';
import { ValidationFailed } from '../core/errors.js';
import { pagingQuery } from '../http/pagination.js';
import { pathParams } from '../http/route-params.js';
import { parseTimestamp } from '../core/timestamps.js';

const RESOURCE = 'Gist';

/** `/gists/{gist_id}…` */
export const gistParams = pathParams('gist_id');
/** `/gists/{gist_id}/{sha}` */
export const revisionParams = pathParams('gist_id', 'sha');
/** `/gists/{gist_id}/comments/{comment_id}` */
export const commentParams = pathParams('gist_id', 'comment_id');
/** `/users/{username}/gists`: the routes' shared declaration. */
export { userParams } from '../http/route-params.js';

export const listQuery = {
  type: 'object',
  properties: { ...pagingQuery, since: { type: 'string' } },
} as const;

export const pagedQuery = { type: 'object', properties: { ...pagingQuery } } as const;

/** A gist's description: text without NUL (null: none; its configured length is checked by parse.ts). */
const description = { type: ['string', 'null'], pattern: '^[^\\u0000]*$' } as const;

/** A file of a create body, its name the key: its content (a `filename` beside it is not read). */
const sentFile = { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] } as const;

/** An entry of an update body's file map: null deletes; else new content, a new name, or both (null: not sent). */
const fileEdit = {
  type: ['object', 'null'],
  properties: { content: { type: ['string', 'null'] }, filename: { type: ['string', 'null'] } },
} as const;

export const createBody = {
  type: 'object',
  properties: {
    description,
    files: { type: 'object', minProperties: 1, additionalProperties: sentFile },
    // Another type is refused by `type` (answered alone, parse.ts), another string by `enum`.
    public: { type: ['boolean', 'string'], enum: [true, false, 'true', 'false'] },
  },
  required: ['files'],
} as const;

export const updateBody = {
  type: 'object',
  properties: {
    description,
    files: { type: ['object', 'null'], additionalProperties: fileEdit },
  },
  // Something to change: a description (null empties it), or a file map.
  anyOf: [{ required: ['description'] }, { required: ['files'], properties: { files: { type: 'object' } } }],
} as const;

export const commentBody = {
  type: 'object',
  properties: { body: { type: 'string' } },
  required: ['body'],
} as const;

/** A create body as its schema admits it (what the schema cannot say is checked by parse.ts). */
export type CreateBody = FromSchema<typeof createBody>;
/** An update body as its schema admits it (what the schema cannot say is checked by parse.ts). */
export type UpdateBody = FromSchema<typeof updateBody>;

/** `since` as an ISO timestamp (422 when it is not one). */
export function parseSince(since: string | undefined): string | undefined {
  if (since === undefined) return undefined;
  const ms = parseTimestamp(since);
  if (ms === undefined) {
    throw new ValidationFailed([
      { resource: RESOURCE, field: 'since', code: 'invalid', message: 'since must be an ISO 8601 timestamp (YYYY-MM-DDTHH:MM:SSZ)' },
    ]);
  }
  return new Date(ms).toISOString();
}

/** A comment body: non-blank text of at most 65535 characters. */
export function parseCommentBody(body: string): string {
  if (body.trim() === '')
    throw new ValidationFailed([{ resource: 'GistComment', field: 'body', code: 'missing_field', message: "body can't be blank" }]);
  if (body.length > 65535 || body.includes('\0')) {
    throw new ValidationFailed([
      { resource: 'GistComment', field: 'body', code: 'invalid', message: 'body must be at most 65535 characters of text' },
    ]);
  }
  return body;
}
