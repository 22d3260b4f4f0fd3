// Request shapes of the webhook routes (organization, repository and global hooks): one JSON schema per body (Fastify validates it, json-schema-to-ts types it); validate.ts checks what a schema cannot say.
import type { FromSchema } from 'json-schema-to-ts';

const text = { type: 'string' } as const;
/** GitHub reads null as "not given" for these two. */
const contentType = { enum: ['json', 'form', null] } as const;
/** "0" or "1"; Octokit's types allow the number too, and GitHub takes it. */
const insecureSsl = { enum: ['0', '1', 0, 1, null] } as const;
/** A secret, user name or password: a string, or null (or "") for none; its length and characters are validate.ts's. */
const secretLike = { type: ['string', 'null'] } as const;
/** Which signatures deliveries carry (sign.ts); null reads as not given. */
const signatureFormat = { enum: ['github', 'standard', 'github,standard', null] } as const;

/** A hook's whole config (a new hook's, or one that replaces a hook's config). Unknown properties are ignored, as GitHub does. */
const config = {
  type: 'object',
  required: ['url'],
  properties: {
    url: text,
    content_type: contentType,
    insecure_ssl: insecureSsl,
    secret: secretLike,
    username: secretLike,
    password: secretLike,
    signature_format: signatureFormat,
  },
} as const;

/** Event names (which ones exist is validate.ts's check, so that one message lists the unknown ones). */
const events = { type: 'array', items: text, minItems: 1 } as const;
const active = { type: 'boolean' } as const;

/** POST /orgs/{org}/hooks */
export const createHookBody = {
  type: 'object',
  required: ['name', 'config'],
  properties: { name: { const: 'web' }, config, events, active },
} as const;

/** POST /repos/{owner}/{repo}/hooks: `name` may be left out there (GitHub: "Default: `web`"). */
export const createRepoHookBody = {
  type: 'object',
  required: ['config'],
  properties: createHookBody.properties,
} as const;

/** PATCH /orgs/{org}/hooks/{hook_id}: a config given replaces the whole config. */
export const updateHookBody = {
  type: 'object',
  properties: { name: { enum: ['web', null] }, config, events, active },
} as const;

/** Event names a repository hook's PATCH adds to or removes from its list (GitHub documents them there only). */
const eventChanges = { type: 'array', items: text } as const;

/** PATCH /repos/{owner}/{repo}/hooks/{hook_id}: also `add_events` and `remove_events`. */
export const updateRepoHookBody = {
  type: 'object',
  properties: { ...updateHookBody.properties, add_events: eventChanges, remove_events: eventChanges },
} as const;

/** PATCH /orgs/{org}/hooks/{hook_id}/config: only the properties given change. */
export const configPatchBody = {
  type: 'object',
  properties: { url: text, content_type: contentType, insecure_ssl: insecureSsl, secret: secretLike, signature_format: signatureFormat },
} as const;

export type CreateHookBody = FromSchema<typeof createHookBody>;
/** The PATCH body of every scope: organization and global hooks' schema has no `add_events`/`remove_events`, so they stay absent there. */
export type UpdateHookBody = FromSchema<typeof updateRepoHookBody>;
export type ConfigPatchBody = FromSchema<typeof configPatchBody>;
