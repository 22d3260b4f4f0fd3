// GitHub's published schemas for the payloads hooks send about themselves (`webhook-ping`, `webhook-meta-deleted` in
// @octokit/openapi's api.github.com description), with OpenAPI 3.0's `nullable` turned into plain JSON Schema.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

type Schema = Record<string, unknown>;
const require = createRequire(import.meta.url);
const doc = JSON.parse(fs.readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8')) as { components: { schemas: Record<string, Schema> } };

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
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

const components: Record<string, unknown> = {};
function load(name: string): void {
  if (name in components) return;
  const refs = new Set<string>();
  components[name] = convert(doc.components.schemas[name], refs);
  refs.forEach(load);
}
['webhook-ping', 'webhook-meta-deleted'].forEach(load);
const ajv = new Ajv({ strict: false, allErrors: true });
((addFormatsModule as unknown as { default?: (a: Ajv) => Ajv }).default ?? (addFormatsModule as unknown as (a: Ajv) => Ajv))(ajv);
ajv.addSchema({ $id: 'https://hublet.invalid/hook-payloads.json', components: { schemas: components } });

/** Throws unless the payload matches GitHub's schema for `ping` or `meta` (deleted). */
export function expectHookPayload(event: 'ping' | 'meta', payload: unknown): void {
  const name = event === 'ping' ? 'webhook-ping' : 'webhook-meta-deleted';
  const v = ajv.getSchema(`https://hublet.invalid/hook-payloads.json#/components/schemas/${name}`)!;
  if (!v(payload)) throw new Error(`${name}: ${JSON.stringify(v.errors, null, 1).slice(0, 2000)}`);
}
