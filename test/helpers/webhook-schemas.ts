// Checks webhook payloads against GitHub's published webhook schemas (components `webhook-<event>[-<action>]` in
// @octokit/openapi-webhooks' api.github.com description; GitHub Enterprise Server's for the events only it sends, the
// global hooks' `user` events), loading only the schemas a checked event references.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

type Schema = Record<string, unknown>;
const require = createRequire(import.meta.url);
const load = (file: string) =>
  (JSON.parse(fs.readFileSync(file, 'utf8')) as { components: { schemas: Record<string, Schema> } }).components.schemas;
/** api.github.com's schemas, and GitHub Enterprise Server's where api.github.com has none of that name. */
const schemas: Record<string, Schema> = {
  ...load(require.resolve('@octokit/openapi-webhooks/generated/ghes-3.19.json')),
  ...load(require.resolve('@octokit/openapi-webhooks/generated/api.github.com.json')),
};

/** Where a component is registered with ajv. */
const idOf = (name: string) => `https://hublet.invalid/webhooks/${name}.json`;

/** OpenAPI 3.0's `nullable: true` and `oneOf` as plain JSON Schema, each `$ref` pointed at its own registered component and collected. */
function convert(node: unknown, refs: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(n, refs));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === 'description' || k === 'example' || k === 'examples' || k.startsWith('x-')) continue;
    if (k === '$ref' && typeof v === 'string') {
      const name = v.split('/').pop()!;
      refs.add(name);
      out[k] = idOf(name);
      continue;
    }
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, s]) => [p, convert(s, refs)]))
        : convert(v, refs);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else return { anyOf: [out, { type: 'null' }] };
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  }
  if (out.oneOf) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  return out;
}

// ajv-formats is a CommonJS module whose default export TypeScript sees one level down under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

const registered = new Set<string>();
function register(name: string): void {
  if (registered.has(name)) return;
  const schema = schemas[name];
  if (!schema) throw new Error(`no schema ${name} in GitHub's description`);
  registered.add(name);
  const refs = new Set<string>();
  ajv.addSchema(convert(schema, refs) as Schema, idOf(name));
  refs.forEach(register);
}

/**
 * Throws unless the payload matches GitHub's schema for the event: `webhook-<event>-<action>` when the payload has an
 * action (`repository` created, `meta` deleted, `organization` member_added…), `webhook-<event>` when it has none
 * (`push`, `ping`, `create`).
 */
export function expectWebhookPayload(event: string, payload: unknown): void {
  const action = (payload as { action?: unknown } | null)?.action;
  // Component names spell actions with hyphens (`member_added`: webhook-organization-member-added).
  const name = typeof action === 'string' ? `webhook-${event}-${action.replaceAll('_', '-')}` : `webhook-${event}`;
  register(name);
  const v = ajv.getSchema(idOf(name))!;
  if (!v(payload)) {
    const errors = (v.errors ?? []).map((e) => `  ${e.instancePath || '(payload)'} ${e.message} ${JSON.stringify(e.params)}`).join('\n');
    throw new Error(`${name}: the payload does not match GitHub's schema:\n${errors}`);
  }
}
