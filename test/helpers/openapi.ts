// Validates response bodies against GitHub's published OpenAPI description (test/fixtures/openapi-operations.json, from scripts/extract-openapi.mjs).
import fs from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ApiResult } from './server.js';

type Schema = Record<string, unknown>;

interface Operation {
  operationId: string;
  source: string;
  /** status code -> application/json schema, or null when GitHub sends no JSON body. */
  responses: Record<string, Schema | null>;
}

interface Described {
  operations: Record<string, Operation>;
  components: { schemas: Record<string, Schema> };
}

interface Fixture extends Described {
  /** The default API version, which `operations` and `components` describe. */
  apiVersion: string;
  /** Per later API version, only the operations and schemas GitHub's breaking changes alter. */
  versions: Record<string, { operations: Record<string, Operation>; schemas: Record<string, Schema> }>;
}

const fixture = JSON.parse(fs.readFileSync(new URL('../fixtures/openapi-operations.json', import.meta.url), 'utf8')) as Fixture;

// ajv-formats is a CommonJS module whose default export TypeScript sees one level down under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

/** The description as of each API version, registered with ajv under its own $id. */
const described = new Map<string, Described & { $id: string }>();
const register = (version: string, doc: Described) => {
  const entry = { $id: `https://hublet.invalid/openapi/${version}.json`, ...structuredClone(doc) };
  ajv.addSchema(entry as Schema);
  described.set(version, entry);
};
register(fixture.apiVersion, { operations: fixture.operations, components: fixture.components });
for (const [version, delta] of Object.entries(fixture.versions)) {
  register(version, {
    operations: { ...fixture.operations, ...delta.operations },
    components: { schemas: { ...fixture.components.schemas, ...delta.schemas } },
  });
}

/** The API versions the fixture describes; the first is GitHub's default. */
export const apiVersions: readonly string[] = [...described.keys()];

const validators = new Map<string, ValidateFunction>();

/** A JSON pointer segment, escaped for use in a URI fragment. */
const segment = (s: string) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));

function validatorFor(id: string, pointer: string[]): ValidateFunction {
  const ref = `${id}#/${pointer.map(segment).join('/')}`;
  let v = validators.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: ref });
    validators.set(ref, v);
  }
  return v;
}

const templates = Object.keys(fixture.operations).map((key) => {
  const [method, template] = key.split(' ');
  return { key, method, segments: template.split('/').slice(1) };
});

/**
 * The fixture key ("METHOD /template") for an operation given as a GitHub path template
 * ("GET /users/{username}") or a concrete request path ("GET /api/v3/users/octocat?per_page=2").
 * A literal segment wins over a parameter (`/gists/starred` is not `/gists/{gist_id}`).
 */
export function findOperation(method: string, pathOrTemplate: string): string {
  const m = method.toUpperCase();
  if (fixture.operations[`${m} ${pathOrTemplate}`]) return `${m} ${pathOrTemplate}`;
  const concrete = pathOrTemplate
    .split(/[?#]/)[0]
    .replace(/^\/api\/v3(?=\/)/, '')
    .replace(/\/+$/, '');
  const parts = concrete.split('/').slice(1);
  const candidates = templates.filter(
    (t) =>
      t.method === m &&
      t.segments.length === parts.length &&
      t.segments.every((s, i) => (s.startsWith('{') ? parts[i] !== '' : s === parts[i])),
  );
  if (!candidates.length) throw new Error(`no operation in GitHub's OpenAPI description matches ${m} ${pathOrTemplate}`);
  const rank = (t: (typeof templates)[number]) => t.segments.map((s) => (s.startsWith('{') ? '1' : '0')).join('');
  candidates.sort((a, b) => rank(a).localeCompare(rank(b)));
  return candidates[0].key;
}

function describe(errors: ErrorObject[] | null | undefined, body: unknown): string {
  const lines = new Set<string>();
  for (const e of errors ?? []) {
    if (e.keyword === 'if') continue; // the failing `then` branch's own errors say what is wrong
    let detail = e.message ?? e.keyword;
    if (e.keyword === 'additionalProperties')
      detail += `: ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`;
    if (e.keyword === 'required')
      detail = `missing required property ${JSON.stringify((e.params as { missingProperty: string }).missingProperty)}`;
    if (e.keyword === 'const' || e.keyword === 'enum') detail += ` ${JSON.stringify(e.params)}`;
    if (e.keyword === 'type' || e.keyword === 'format') detail += ` (got ${JSON.stringify(valueAt(body, e.instancePath))})`;
    const where = decodeURIComponent(e.schemaPath.replace(/^https:\/\/hublet\.invalid\/openapi\/[^#]*/, ''))
      .replace(/~1/g, '/')
      .replace(/~0/g, '~');
    lines.add(`  ${e.instancePath || '(body)'}: ${detail}   [${where}]`);
  }
  return [...lines].join('\n');
}

function valueAt(body: unknown, instancePath: string): unknown {
  let v: unknown = body;
  for (const raw of instancePath.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  }
  return v;
}

export interface SchemaOptions {
  /** The API version whose description applies (X-Service-Api-Version); GitHub's default when absent. */
  apiVersion?: string;
}

/**
 * Throws unless `body` matches the response schema GitHub documents for the operation and status.
 * `pathOrTemplate` is a GitHub path template or a concrete request path. A status GitHub documents
 * without a JSON body (204, 304, 302) requires an empty body. An error status (4xx/5xx) the description
 * leaves out is checked against GitHub's common error shape (basic-error; validation-error for 422).
 * A success status the description leaves out is an error.
 */
export function expectResponseMatchesSchema(
  method: string,
  pathOrTemplate: string,
  status: number,
  body: unknown,
  options: SchemaOptions = {},
): void {
  const version = options.apiVersion ?? fixture.apiVersion;
  const doc = described.get(version);
  if (!doc) throw new Error(`no OpenAPI description for API version ${version} (have ${apiVersions.join(', ')})`);
  const key = findOperation(method, pathOrTemplate);
  const op = doc.operations[key];
  const documented = Object.hasOwn(op.responses, String(status));
  let pointer: string[];
  if (documented) {
    if (op.responses[String(status)] === null) {
      if (body !== undefined && body !== null && body !== '') {
        throw new Error(`${key} ${status}: GitHub sends no JSON body, got ${JSON.stringify(body).slice(0, 200)}`);
      }
      return;
    }
    pointer = ['operations', key, 'responses', String(status)];
  } else if (status >= 400) {
    pointer = ['components', 'schemas', status === 422 ? 'validation-error' : 'basic-error'];
  } else {
    throw new Error(`${key}: GitHub's description has no ${status} response (documented: ${Object.keys(op.responses).join(', ')})`);
  }
  const validate = validatorFor(doc.$id, pointer);
  if (!validate(body)) {
    throw new Error(
      `${key} ${status} (API version ${version}): the body does not match GitHub's schema (${op.source} ${op.operationId}):\n` +
        `${describe(validate.errors, body)}\nbody: ${JSON.stringify(body).slice(0, 1500)}`,
    );
  }
}

/**
 * Checks an `api()` result against GitHub's schema for `operation` ("GET /users/{username}" or
 * "GET /users/octocat"), as of the API version the server says it selected; a JSON body must also
 * come with a JSON content type. Returns the body.
 */
export function checkSchema<T = any>(result: ApiResult, operation: string): T {
  const space = operation.indexOf(' ');
  if (space < 0) throw new Error(`operation must be "METHOD /path", got ${JSON.stringify(operation)}`);
  const method = operation.slice(0, space);
  const target = operation.slice(space + 1);
  if (result.text !== '' && !/^application\/(?:[\w.+-]+\+)?json\b/.test(result.headers.get('content-type') ?? '')) {
    throw new Error(
      `${operation} ${result.status}: expected a JSON content type, got ${result.headers.get('content-type')}: ${result.text.slice(0, 200)}`,
    );
  }
  const apiVersion = result.headers.get('x-service-api-version-selected') ?? undefined;
  expectResponseMatchesSchema(method, target, result.status, result.text === '' ? undefined : result.body, { apiVersion });
  return result.body as T;
}

/** The operations the fixture describes, as "METHOD /template" (for tests that check coverage). */
export const describedOperations: readonly string[] = Object.keys(fixture.operations);
