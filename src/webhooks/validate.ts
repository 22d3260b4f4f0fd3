// Checks webhook request bodies and answers every problem at once with GitHub's 422 errors (resource `Hook`).
import { ValidationFailed, type FieldError } from '../server/http/errors.js';
import { ALL_EVENTS, HOOK_EVENT_NAMES } from './event-names.js';

export interface HookConfigInput {
  url: string;
  contentType: 'json' | 'form';
  insecureSsl: '0' | '1';
  secret: string | null;
  username: string | null;
  password: string | null;
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
  active?: boolean;
}

/** Only the named config properties change. `secret: null` removes it. */
export interface ConfigPatch {
  url?: string;
  contentType?: 'json' | 'form';
  insecureSsl?: '0' | '1';
  secret?: string | null;
}

const RESOURCE = 'Hook';
const MAX_URL = 2048;
const MAX_SECRET = 1024;

type Body = Record<string, unknown>;

const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Text PostgreSQL can store and a header can carry: no NUL or other control characters. */
const cleanText = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

function invalid(field: string, message: string): FieldError {
  return { resource: RESOURCE, code: 'invalid', field, message };
}

function custom(field: string | undefined, message: string): FieldError {
  return field ? { resource: RESOURCE, code: 'custom', field, message } : { resource: RESOURCE, code: 'custom', message };
}

function checkUrl(value: unknown, errors: FieldError[], required: boolean): string | undefined {
  if (value === undefined || value === null || value === '') {
    if (required) errors.push(custom('url', 'url cannot be blank'));
    return undefined;
  }
  if (typeof value !== 'string') {
    errors.push(invalid('url', 'url must be a string'));
    return undefined;
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname || Buffer.byteLength(value) > MAX_URL || !cleanText(value) || /\s/.test(value)) {
    errors.push(custom('url', `url is not a valid http(s) URL of at most ${MAX_URL} bytes`));
    return undefined;
  }
  return value;
}

function checkContentType(value: unknown, errors: FieldError[]): 'json' | 'form' | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'json' || value === 'form') return value;
  errors.push(invalid('content_type', 'content_type must be json or form'));
  return undefined;
}

function checkInsecureSsl(value: unknown, errors: FieldError[]): '0' | '1' | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === '0' || value === 0) return '0';
  if (value === '1' || value === 1) return '1';
  errors.push(invalid('insecure_ssl', 'insecure_ssl must be "0" or "1"'));
  return undefined;
}

/** undefined: not given; null: given empty (no secret). */
function checkSecretLike(field: string, value: unknown, errors: FieldError[]): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > MAX_SECRET || !cleanText(value)) {
    errors.push(invalid(field, `${field} must be a string of at most ${MAX_SECRET} characters`));
    return undefined;
  }
  return value;
}

function checkConfig(value: unknown, errors: FieldError[]): HookConfigInput | undefined {
  if (value === undefined || value === null) {
    errors.push({ resource: RESOURCE, code: 'missing_field', field: 'config' });
    return undefined;
  }
  if (!isObject(value)) {
    errors.push(invalid('config', 'config must be an object'));
    return undefined;
  }
  const url = checkUrl(value.url, errors, true);
  const contentType = checkContentType(value.content_type, errors) ?? 'form';
  const insecureSsl = checkInsecureSsl(value.insecure_ssl, errors) ?? '0';
  const secret = checkSecretLike('secret', value.secret, errors) ?? null;
  const username = checkSecretLike('username', value.username, errors) ?? null;
  const password = checkSecretLike('password', value.password, errors) ?? null;
  if (url === undefined) return undefined;
  return { url, contentType, insecureSsl, secret, username, password };
}

function checkEvents(value: unknown, errors: FieldError[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((e) => typeof e !== 'string')) {
    errors.push(invalid('events', 'events must be an array of event names'));
    return undefined;
  }
  const events = [...new Set(value as string[])];
  if (events.length === 0) {
    errors.push(custom('events', 'events must name at least one event'));
    return undefined;
  }
  const unknown = events.filter((e) => e !== ALL_EVENTS && !HOOK_EVENT_NAMES.has(e));
  if (unknown.length) {
    const shown = unknown.slice(0, 10).map((e) => JSON.stringify(e.slice(0, 100)));
    errors.push(custom('events', `Invalid event(s): ${shown.join(', ')}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ''}`));
    return undefined;
  }
  return events;
}

function checkActive(value: unknown, errors: FieldError[]): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') {
    errors.push(invalid('active', 'active must be true or false'));
    return undefined;
  }
  return value;
}

function checkName(value: unknown, errors: FieldError[], required: boolean): void {
  if (value === undefined || value === null) {
    if (required) errors.push({ resource: RESOURCE, code: 'missing_field', field: 'name' });
    return;
  }
  if (value !== 'web') errors.push(invalid('name', 'name must be "web"'));
}

function done<T>(errors: FieldError[], value: T | undefined): T {
  if (errors.length || value === undefined) throw new ValidationFailed(errors);
  return value;
}

/** POST /orgs/{org}/hooks */
export function parseCreate(body: unknown): CreateHookInput {
  const b = isObject(body) ? body : {};
  const errors: FieldError[] = [];
  checkName(b.name, errors, true);
  const config = checkConfig(b.config, errors);
  const events = checkEvents(b.events, errors) ?? ['push'];
  const active = checkActive(b.active, errors) ?? true;
  return done(errors, config && { config, events, active });
}

/** PATCH /orgs/{org}/hooks/{hook_id} */
export function parseUpdate(body: unknown): UpdateHookInput {
  const b = isObject(body) ? body : {};
  const errors: FieldError[] = [];
  checkName(b.name, errors, false);
  const config = b.config === undefined ? undefined : checkConfig(b.config, errors);
  const events = checkEvents(b.events, errors);
  const active = checkActive(b.active, errors);
  return done(errors, { config, events, active });
}

/** PATCH /orgs/{org}/hooks/{hook_id}/config */
export function parseConfigPatch(body: unknown): ConfigPatch {
  const b = isObject(body) ? body : {};
  const errors: FieldError[] = [];
  const patch: ConfigPatch = {};
  if (b.url !== undefined) patch.url = checkUrl(b.url, errors, true);
  if (b.content_type !== undefined) patch.contentType = checkContentType(b.content_type, errors);
  if (b.insecure_ssl !== undefined) patch.insecureSsl = checkInsecureSsl(b.insecure_ssl, errors);
  if (b.secret !== undefined) patch.secret = checkSecretLike('secret', b.secret, errors);
  return done(errors, patch);
}
