// Webhook bodies past their schemas (schemas.ts): GitHub's 422 for each field, the checks a schema cannot say (URL,
// secrets, event names) and GitHub's defaults. Every problem of a body is answered at once (resource `Hook`).
import type { FastifySchemaValidationError } from 'fastify';
import { ValidationFailed, type FieldError } from '../core/errors.js';
import type { SignatureFormat } from '../db/tables/webhooks.js';
import { ALL_EVENTS } from './event-names.js';
import { validStandardSecret } from './sign.js';
import type { ConfigPatchBody, CreateHookBody, UpdateHookBody } from './schemas.js';

export interface HookConfigInput {
  url: string;
  contentType: 'json' | 'form';
  insecureSsl: '0' | '1';
  secret: string | null;
  username: string | null;
  password: string | null;
  /** Which signatures deliveries carry (sign.ts): GitHub's by default. */
  signatureFormat: SignatureFormat;
}

export interface CreateHookInput {
  config: HookConfigInput;
  events: string[];
  active: boolean;
}

export interface UpdateHookInput {
  /** A whole new config (the secret is removed when not given again, spec 4.2 rule 1). */
  config?: HookConfigInput;
  events?: string[];
  /** A repository hook's `add_events` and `remove_events`. */
  eventChanges?: { add: string[]; remove: string[] };
  active?: boolean;
}

/** Only the named config properties change. `secret: null` removes it. */
export interface ConfigPatch {
  url?: string;
  contentType?: 'json' | 'form';
  insecureSsl?: '0' | '1';
  secret?: string | null;
  signatureFormat?: SignatureFormat;
}

/**
 * A body as its route received it, with its schema's failures: the route keeps them (`attachValidation`) so that the
 * caller is known to own the hook before anything is said about the body, and the schema's problems and the checks
 * below are answered in one 422. While `schemaErrors` is non-empty the body is not of type T: the checks below look
 * only at values of the type the schema asks for.
 */
export interface Received<T> {
  body: T;
  schemaErrors: readonly FastifySchemaValidationError[] | undefined;
}

const RESOURCE = 'Hook';
const MAX_URL = 2048;
const MAX_SECRET = 1024;

/** Text PostgreSQL can store and a header can carry: no NUL or other control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const cleanText = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

const invalid = (field: string, message: string): FieldError => ({ resource: RESOURCE, code: 'invalid', field, message });
const custom = (field: string, message: string): FieldError => ({ resource: RESOURCE, code: 'custom', field, message });
const missing = (field: string): FieldError => ({ resource: RESOURCE, code: 'missing_field', field });
const secretInvalid = (field: string) => invalid(field, `${field} must be a string of at most ${MAX_SECRET} characters`);

/** GitHub's answer for a field its schema refuses, named by the field alone (`url`, not `config.url`). */
const REFUSED: Record<string, FieldError> = {
  name: invalid('name', 'name must be "web"'),
  config: invalid('config', 'config must be an object'),
  url: invalid('url', 'url must be a string'),
  content_type: invalid('content_type', 'content_type must be json or form'),
  insecure_ssl: invalid('insecure_ssl', 'insecure_ssl must be "0" or "1"'),
  secret: secretInvalid('secret'),
  username: secretInvalid('username'),
  password: secretInvalid('password'),
  signature_format: invalid('signature_format', 'signature_format must be "github", "standard" or "github,standard"'),
  events: invalid('events', 'events must be an array of event names'),
  add_events: invalid('add_events', 'add_events must be an array of event names'),
  remove_events: invalid('remove_events', 'remove_events must be an array of event names'),
  active: invalid('active', 'active must be true or false'),
};
const BLANK_URL = custom('url', 'url cannot be blank');
/** A required field absent, or null (which GitHub reads as absent). */
const MISSING: Record<string, FieldError> = { name: missing('name'), config: missing('config'), url: BLANK_URL };
const NO_EVENTS = custom('events', 'events must name at least one event');

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value at a JSON pointer's segments (the schema's errors name their place this way). */
function valueAt(body: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined), body);
}

/** The schema's failures as GitHub's field errors. */
function schemaProblems({ body, schemaErrors = [] }: Received<unknown>): FieldError[] {
  return schemaErrors.map((e) => {
    if (e.keyword === 'required') {
      const field = String(e.params.missingProperty);
      return MISSING[field] ?? missing(field);
    }
    const path = e.instancePath.split('/').slice(1);
    // An array's item is reported as the array (`events`, not `events.0`).
    const field = path.filter((p) => !/^\d+$/.test(p)).pop() ?? 'body';
    if (e.keyword === 'minItems' && field === 'events') return NO_EVENTS;
    if (valueAt(body, path) === null && MISSING[field]) return MISSING[field];
    return REFUSED[field] ?? invalid(field, `${field} is invalid`);
  });
}

/** A usable http(s) URL (a string the schema let through). */
function urlProblem(url: unknown): FieldError | undefined {
  if (typeof url !== 'string') return undefined;
  if (url === '') return BLANK_URL;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const http = parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname;
  if (!http || Buffer.byteLength(url) > MAX_URL || !cleanText(url) || /\s/.test(url)) {
    return custom('url', `url is not a valid http(s) URL of at most ${MAX_URL} bytes`);
  }
  return undefined;
}

const WHSEC_INVALID = invalid(
  'secret',
  'a secret starting with whsec_ must be the base64 of its bytes after the prefix (Standard Webhooks)',
);

function secretProblem(field: 'secret' | 'username' | 'password', value: unknown): FieldError | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length > MAX_SECRET || !cleanText(value)) return REFUSED[field];
  return field === 'secret' && !validStandardSecret(value) ? WHSEC_INVALID : undefined;
}

function configProblems(config: unknown): (FieldError | undefined)[] {
  if (!isObject(config)) return [];
  return [
    urlProblem(config.url),
    secretProblem('secret', config.secret),
    secretProblem('username', config.username),
    secretProblem('password', config.password),
  ];
}

/** The event names a hook may subscribe to (its scope's: global hooks have their own), and its default subscription. */
interface EventChoice {
  eventNames: ReadonlySet<string>;
  defaultEvents: readonly string[];
}

/** Names no event of the hook's scope has; one message lists (the first ten of) them. */
function eventsProblem(events: unknown, names: ReadonlySet<string>, field = 'events'): FieldError | undefined {
  if (!Array.isArray(events)) return undefined;
  const unknown = [...new Set(events)].filter((e): e is string => typeof e === 'string' && e !== ALL_EVENTS && !names.has(e));
  if (!unknown.length) return undefined;
  const shown = unknown.slice(0, 10).map((e) => JSON.stringify(e.slice(0, 100)));
  return custom(field, `Invalid event(s): ${shown.join(', ')}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ''}`);
}

/** Fields in the order a body lists them (REFUSED's), the order of the errors answered. */
const ORDER = new Map(Object.keys(REFUSED).map((field, i) => [field, i]));

/** One 422 for every field with a problem, in the body's order (a field's first problem: the schema's before the checks above). */
function throwIfAny(problems: (FieldError | undefined)[]): void {
  const byField = new Map<string | undefined, FieldError>();
  for (const p of problems) if (p && !byField.has(p.field)) byField.set(p.field, p);
  const rank = (e: FieldError) => ORDER.get(e.field ?? '') ?? ORDER.size;
  if (byField.size) throw new ValidationFailed([...byField.values()].sort((a, b) => rank(a) - rank(b)));
}

const sslOf = (v: '0' | '1' | 0 | 1 | null | undefined) => (v === undefined || v === null ? undefined : v === 1 || v === '1' ? '1' : '0');
/** undefined: not given; null: given empty (none). */
const secretOf = (v: string | null | undefined) => (v === undefined ? undefined : v || null);

/** A config with GitHub's defaults: form content, certificates verified, no secret. */
function configInput(c: CreateHookBody['config']): HookConfigInput {
  return {
    url: c.url,
    contentType: c.content_type ?? 'form',
    insecureSsl: sslOf(c.insecure_ssl) ?? '0',
    secret: secretOf(c.secret) ?? null,
    username: secretOf(c.username) ?? null,
    password: secretOf(c.password) ?? null,
    signatureFormat: c.signature_format ?? 'github',
  };
}

/** POST …/hooks: the scope's default events (`push`) and active unless said otherwise. */
export function parseCreate(received: Received<CreateHookBody>, choice: EventChoice): CreateHookInput {
  const { body } = received;
  throwIfAny([...schemaProblems(received), ...configProblems(body.config), eventsProblem(body.events, choice.eventNames)]);
  return { config: configInput(body.config), events: [...new Set(body.events ?? choice.defaultEvents)], active: body.active ?? true };
}

/**
 * PATCH …/hooks/{hook_id}. A repository hook's body may also name `add_events` and `remove_events`: applied to `events`
 * when given, else to the hook's current list (the service's), additions first, then removals.
 */
export function parseUpdate(received: Received<UpdateHookBody>, choice: EventChoice): UpdateHookInput {
  const { body } = received;
  throwIfAny([
    ...schemaProblems(received),
    ...configProblems(body.config),
    eventsProblem(body.events, choice.eventNames),
    eventsProblem(body.add_events, choice.eventNames, 'add_events'),
  ]);
  const changes =
    body.add_events?.length || body.remove_events?.length ? { add: body.add_events ?? [], remove: body.remove_events ?? [] } : undefined;
  return {
    config: body.config && configInput(body.config),
    events: body.events && [...new Set(body.events)],
    eventChanges: changes,
    active: body.active,
  };
}

/** A hook's events after a PATCH: `events` (or the current list), with `add_events` added and `remove_events` taken out. */
export function changedEvents(current: string[], input: Pick<UpdateHookInput, 'events' | 'eventChanges'>): string[] {
  const base = input.events ?? current;
  if (!input.eventChanges) return base;
  const removed = new Set(input.eventChanges.remove);
  return [...new Set([...base, ...input.eventChanges.add])].filter((e) => !removed.has(e));
}

/** PATCH /orgs/{org}/hooks/{hook_id}/config */
export function parseConfigPatch(received: Received<ConfigPatchBody>): ConfigPatch {
  const { body } = received;
  throwIfAny([...schemaProblems(received), urlProblem(body.url), secretProblem('secret', body.secret)]);
  return {
    url: body.url,
    contentType: body.content_type ?? undefined,
    insecureSsl: sslOf(body.insecure_ssl),
    secret: secretOf(body.secret),
    signatureFormat: body.signature_format ?? undefined,
  };
}
