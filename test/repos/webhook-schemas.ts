// Checks event payloads against GitHub's published webhook schemas (components `webhook-push`, `webhook-repository-*`
// in @octokit/openapi's api.github.com description), loading only the schemas those reference.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

type Schema = Record<string, unknown>;
const require = createRequire(import.meta.url);
const file = require.resolve('@octokit/openapi/generated/api.github.com.json');
const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { components: { schemas: Record<string, Schema> } };

/** OpenAPI 3.0's `nullable: true` as plain JSON Schema, and every `$ref` collected. */
function convert(node: unknown, refs: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(n, refs));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === 'description' || k === 'example' || k === 'examples' || k.startsWith('x-')) continue;
    if (k === '$ref' && typeof v === 'string') refs.add(v.split('/').pop()!);
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, s]) => [p, convert(s, refs)])) : convert(v, refs);
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

const ajv = new Ajv({ strict: false, allErrors: true });
((addFormatsModule as unknown as { default?: (a: Ajv) => Ajv }).default ?? (addFormatsModule as unknown as (a: Ajv) => Ajv))(ajv);

const components: Record<string, unknown> = {};
function load(name: string): void {
  if (name in components) return;
  const refs = new Set<string>();
  components[name] = convert(doc.components.schemas[name], refs);
  for (const r of refs) load(r);
}
const NAMES = ['webhook-push', ...['created', 'deleted', 'edited', 'renamed', 'privatized', 'publicized', 'archived', 'unarchived'].map((a) => `webhook-repository-${a}`)];
NAMES.forEach(load);
ajv.addSchema({ $id: 'https://hublet.invalid/webhooks.json', components: { schemas: components } });
const validators = new Map<string, ValidateFunction>();

/** Throws unless the payload matches GitHub's schema for the event (`push`, or `repository` with its action). */
export function expectWebhookPayload(event: string, payload: Record<string, unknown>): void {
  const name = event === 'push' ? 'webhook-push' : `webhook-${event}-${String(payload.action)}`;
  if (!NAMES.includes(name)) throw new Error(`no schema loaded for ${name}`);
  let v = validators.get(name);
  if (!v) {
    v = ajv.compile({ $ref: `https://hublet.invalid/webhooks.json#/components/schemas/${name}` });
    validators.set(name, v);
  }
  if (!v(payload)) {
    const errors = (v.errors ?? []).map((e) => `  ${e.instancePath || '(payload)'} ${e.message} ${JSON.stringify(e.params)}`).join('\n');
    throw new Error(`${name}: the payload does not match GitHub's schema:\n${errors}`);
  }
}
