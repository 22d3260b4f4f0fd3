// Extracts the response schemas of the operations hublet serves from @octokit/openapi into test/fixtures/openapi-operations.json.
//
// The fixture is self-contained and small: for each operation ("METHOD /github/path/{template}") it holds
// the application/json response schema per status code (null for a response without a JSON body), and a
// `components.schemas` subset that those schemas reference with `$ref: "#/components/schemas/NAME"`.
// OpenAPI 3.0 quirks are turned into plain JSON Schema here, so the test helper can hand the file to ajv:
// `nullable: true` becomes a type array (or an anyOf with null), `oneOf` + `discriminator.mapping` becomes
// if/then branches keyed on the discriminator property, any other `oneOf` becomes `anyOf` (GitHub's branches overlap),
// and descriptions, examples and x-* extensions are dropped.
// /admin/*, /enterprise/* and the other GitHub Enterprise Server operations in FROM_GHES (GET /meta in its GHES shape)
// come from the newest ghes-X.Y description in the package; their schemas are kept apart from api.github.com's under
// the names `ghes--NAME`.
// API versions: `operations` and `components` describe the default version (2022-11-28); `versions[V]` holds
// only the operations and schemas that GitHub's `x-github-breaking-changes` alter as of version V.
// Where the description is known to disagree with what GitHub answers, CORRECTIONS patch it (listed in the fixture).
//
// Usage: node scripts/extract-openapi.mjs [--out FILE]   (or `make openapi-fixture`)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = path.join(root, 'node_modules', '@octokit', 'openapi');
const outIndex = process.argv.indexOf('--out');
const outFile = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(root, 'test', 'fixtures', 'openapi-operations.json');

/** Every operation hublet serves, as "METHOD /path/template". Marked optional ones may be absent from GitHub's description. */
const OPERATIONS = [
  // gists
  'GET /gists',
  'POST /gists',
  'GET /gists/public',
  'GET /gists/starred',
  'GET /gists/{gist_id}',
  'PATCH /gists/{gist_id}',
  'DELETE /gists/{gist_id}',
  'GET /gists/{gist_id}/commits',
  'GET /gists/{gist_id}/forks',
  'POST /gists/{gist_id}/forks',
  'GET /gists/{gist_id}/star',
  'PUT /gists/{gist_id}/star',
  'DELETE /gists/{gist_id}/star',
  'GET /gists/{gist_id}/{sha}',
  'GET /users/{username}/gists',
  'GET /gists/{gist_id}/comments',
  'POST /gists/{gist_id}/comments',
  'GET /gists/{gist_id}/comments/{comment_id}',
  'PATCH /gists/{gist_id}/comments/{comment_id}',
  'DELETE /gists/{gist_id}/comments/{comment_id}',
  // organization webhooks
  'GET /orgs/{org}/hooks',
  'POST /orgs/{org}/hooks',
  'GET /orgs/{org}/hooks/{hook_id}',
  'PATCH /orgs/{org}/hooks/{hook_id}',
  'DELETE /orgs/{org}/hooks/{hook_id}',
  'GET /orgs/{org}/hooks/{hook_id}/config',
  'PATCH /orgs/{org}/hooks/{hook_id}/config',
  'GET /orgs/{org}/hooks/{hook_id}/deliveries',
  'GET /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}',
  'POST /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}/attempts',
  'POST /orgs/{org}/hooks/{hook_id}/pings',
  // repository webhooks
  'GET /repos/{owner}/{repo}/hooks',
  'POST /repos/{owner}/{repo}/hooks',
  'GET /repos/{owner}/{repo}/hooks/{hook_id}',
  'PATCH /repos/{owner}/{repo}/hooks/{hook_id}',
  'DELETE /repos/{owner}/{repo}/hooks/{hook_id}',
  'GET /repos/{owner}/{repo}/hooks/{hook_id}/config',
  'PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config',
  'GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries',
  'GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}',
  'POST /repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts',
  'POST /repos/{owner}/{repo}/hooks/{hook_id}/pings',
  'POST /repos/{owner}/{repo}/hooks/{hook_id}/tests',
  // migrations
  'GET /orgs/{org}/migrations',
  'POST /orgs/{org}/migrations',
  'GET /orgs/{org}/migrations/{migration_id}',
  'GET /orgs/{org}/migrations/{migration_id}/archive',
  'DELETE /orgs/{org}/migrations/{migration_id}/archive',
  'DELETE /orgs/{org}/migrations/{migration_id}/repos/{repo_name}/lock',
  'GET /orgs/{org}/migrations/{migration_id}/repositories',
  'GET /user/migrations',
  'POST /user/migrations',
  'GET /user/migrations/{migration_id}',
  'GET /user/migrations/{migration_id}/archive',
  'DELETE /user/migrations/{migration_id}/archive',
  'DELETE /user/migrations/{migration_id}/repos/{repo_name}/lock',
  'GET /user/migrations/{migration_id}/repositories',
  // repositories
  'POST /orgs/{org}/repos',
  'POST /user/repos',
  'GET /repos/{owner}/{repo}',
  'PATCH /repos/{owner}/{repo}',
  'DELETE /repos/{owner}/{repo}',
  'GET /orgs/{org}/repos',
  'GET /user/repos',
  'GET /users/{username}/repos',
  'GET /repositories',
  'GET /repos/{owner}/{repo}/topics',
  'PUT /repos/{owner}/{repo}/topics',
  'POST /repos/{owner}/{repo}/transfer',
  'GET /repos/{owner}/{repo}/forks',
  'POST /repos/{owner}/{repo}/forks',
  // accounts and service
  'GET /user',
  'PATCH /user',
  'GET /users/{username}',
  'GET /orgs/{org}',
  'GET /orgs/{org}/memberships/{username}',
  'PUT /orgs/{org}/memberships/{username}',
  'DELETE /orgs/{org}/memberships/{username}',
  'GET /user/orgs',
  'GET /users/{username}/orgs',
  'GET /orgs/{org}/members',
  'GET /orgs/{org}/members/{username}',
  'DELETE /orgs/{org}/members/{username}',
  'GET /user/memberships/orgs',
  'GET /user/memberships/orgs/{org}',
  'PATCH /orgs/{org}',
  'DELETE /orgs/{org}',
  'GET /organizations',
  'GET /users',
  'GET /rate_limit',
  'GET /versions?',
  'GET /meta',
  'GET /zen',
  'GET /octocat',
  'GET /emojis',
  // GitHub Enterprise Server admin API
  'POST /admin/users',
  'DELETE /admin/users/{username}',
  'POST /admin/organizations',
  'POST /admin/users/{username}/authorizations',
  'DELETE /admin/users/{username}/authorizations',
  'PATCH /admin/users/{username}',
  'PATCH /admin/organizations/{org}',
  'PUT /users/{username}/site_admin',
  'DELETE /users/{username}/site_admin',
  'PUT /users/{username}/suspended',
  'DELETE /users/{username}/suspended',
  'GET /enterprise/stats/all',
  'GET /enterprise/stats/repos',
  'GET /enterprise/stats/hooks',
  'GET /enterprise/stats/pages',
  'GET /enterprise/stats/orgs',
  'GET /enterprise/stats/users',
  'GET /enterprise/stats/pulls',
  'GET /enterprise/stats/issues',
  'GET /enterprise/stats/milestones',
  'GET /enterprise/stats/gists',
  'GET /enterprise/stats/comments',
  'GET /admin/hooks',
  'POST /admin/hooks',
  'GET /admin/hooks/{hook_id}',
  'PATCH /admin/hooks/{hook_id}',
  'DELETE /admin/hooks/{hook_id}',
  'POST /admin/hooks/{hook_id}/pings',
];

/** Operations described from GitHub Enterprise Server's description besides /admin/* and /enterprise/*. */
const FROM_GHES = new Set([
  'GET /meta',
  'PUT /users/{username}/site_admin',
  'DELETE /users/{username}/site_admin',
  'PUT /users/{username}/suspended',
  'DELETE /users/{username}/suspended',
]);

/**
 * Where GitHub's description disagrees with what api.github.com answers, the answer wins. Each correction is a
 * JSON Merge Patch on one component schema of api.github.com's description, recorded in the fixture with its reason.
 */
const CORRECTIONS = [
  {
    schema: 'organization-full',
    patch: {
      properties: {
        name: { nullable: true },
        company: { nullable: true },
        location: { nullable: true },
        email: { nullable: true },
        blog: { nullable: true, format: null },
      },
    },
    why: 'GitHub answers null for an unset name, company, location, email or blog and "" for an empty blog (github/rest-api-description#2507, #7058)',
  },
  ...['base-gist', 'gist-simple'].map((schema) => ({
    schema,
    patch: { properties: { files: { additionalProperties: { properties: { language: { nullable: true } } } } } },
    why: 'GitHub answers "language": null for a file whose name Linguist does not recognise (e.g. a file without an extension)',
  })),
];

/** Keywords that only annotate; dropped to keep the fixture small. */
const ANNOTATIONS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  'deprecated',
  'readOnly',
  'writeOnly',
  'xml',
]);

const readJson = (file) => JSON.parse(fs.readFileSync(path.join(pkgDir, 'generated', file), 'utf8'));

/** API versions hublet accepts in X-Service-Api-Version (src/http/versioning.ts); the first is the default. */
const API_VERSIONS = ['2022-11-28', '2026-03-10'];

function newestGhes() {
  const versions = fs
    .readdirSync(path.join(pkgDir, 'generated'))
    .map((f) => /^ghes-(\d+)\.(\d+)\.json$/.exec(f))
    .filter(Boolean)
    .sort((a, b) => Number(a[1]) - Number(b[1]) || Number(a[2]) - Number(b[2]));
  if (!versions.length) throw new Error('no ghes-X.Y.json in @octokit/openapi');
  return versions.at(-1)[0];
}

/**
 * One source description read as of one API version: `x-github-breaking-changes` up to that version are
 * applied to operations and component schemas; schemas it references are copied into `out`.
 */
class Source {
  constructor(doc, label, apiVersion, out, prefix) {
    this.doc = doc;
    this.label = label;
    this.apiVersion = apiVersion;
    this.out = out;
    this.prefix = prefix;
    this.names = new Map(); // source schema name -> fixture name
  }

  /** `node` with the breaking changes of versions up to ours applied. */
  atVersion(node, where) {
    const changes = node?.['x-github-breaking-changes'];
    if (!Array.isArray(changes)) return node;
    let patched = structuredClone(node);
    delete patched['x-github-breaking-changes'];
    for (const change of [...changes].sort((a, b) => a.version.localeCompare(b.version))) {
      if (change.version > this.apiVersion) continue;
      patched = Array.isArray(change.patch) ? jsonPatch(patched, change.patch, where) : mergePatch(patched, change.patch);
    }
    return patched;
  }

  /** Resolves a `#/components/<kind>/<name>` pointer in this description. */
  deref(ref) {
    const m = /^#\/components\/(\w+)\/(.+)$/.exec(ref);
    if (!m) throw new Error(`${this.label}: unsupported $ref ${ref}`);
    let target = this.doc.components[m[1]]?.[m[2]];
    if (!target) throw new Error(`${this.label}: dangling $ref ${ref}`);
    target = this.atVersion(target, ref);
    if (!this.prefix && m[1] === 'schemas') {
      for (const c of CORRECTIONS) if (c.schema === m[2]) target = mergePatch(target, c.patch);
    }
    return target;
  }

  /** The fixture name for component schema `name`, copying it (and what it references) on first use. */
  schemaRef(name) {
    const known = this.names.get(name);
    if (known) return known;
    const fixtureName = `${this.prefix}${name}`;
    this.names.set(name, fixtureName);
    this.out[fixtureName] = null; // reserved while converting, for recursive schemas
    this.out[fixtureName] = this.convert(this.deref(`#/components/schemas/${name}`));
    return fixtureName;
  }

  /** OpenAPI 3.0 schema -> JSON Schema with refs pointing into the fixture. */
  convert(schema) {
    if (Array.isArray(schema)) return schema.map((s) => this.convert(s));
    if (schema === null || typeof schema !== 'object') return schema;
    if (typeof schema.$ref === 'string') {
      const m = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref);
      if (!m) return this.convert(this.deref(schema.$ref));
      return { $ref: `#/components/schemas/${this.schemaRef(m[1])}` };
    }
    if (schema['x-github-breaking-changes'] !== undefined)
      throw new Error(`${this.label}: breaking changes inside a schema are not handled`);
    const out = {};
    for (const [key, value] of Object.entries(schema)) {
      if (ANNOTATIONS.has(key) || key.startsWith('x-') || key === 'nullable' || key === 'discriminator') continue;
      if (key === 'properties' || key === 'patternProperties') {
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.convert(v)]));
      } else if (key === 'enum' || key === 'required' || key === 'const' || key === 'default' || key === 'type') {
        out[key] = value;
      } else if (key === 'oneOf') {
        // GitHub's oneOf branches overlap (e.g. a null `value` matches both string|null and integer|null): read it as anyOf.
        out.anyOf = this.convert(value);
      } else {
        out[key] = this.convert(value);
      }
    }
    if (schema.discriminator?.mapping && Array.isArray(schema.oneOf)) {
      // ajv's discriminator keyword does not support `mapping`: select the branch by the property's value instead.
      // (if/then rather than anyOf, so a failure reports only the branch the value selects).
      const prop = schema.discriminator.propertyName;
      const mapping = Object.entries(schema.discriminator.mapping);
      delete out.anyOf;
      Object.assign(out, {
        type: 'object',
        required: [prop],
        properties: { [prop]: { enum: mapping.map(([value]) => value) } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords, not a thenable
        allOf: mapping.map(([value, ref]) => ({ if: { properties: { [prop]: { const: value } } }, then: this.convert({ $ref: ref }) })),
      });
    }
    if (schema.nullable === true) return nullable(out);
    return out;
  }

  /** `{operationId, source, responses: {status: schema | null}}`, or null when the description lacks it. */
  operation(method, template) {
    const raw = this.doc.paths[template]?.[method.toLowerCase()];
    if (!raw) return null;
    const op = this.atVersion(raw, `${method} ${template}`);
    const responses = {};
    for (const [status, r] of Object.entries(op.responses ?? {})) {
      const response = r.$ref ? this.deref(r.$ref) : r;
      const schema = response.content?.['application/json']?.schema;
      responses[status] = schema ? this.convert(schema) : null;
    }
    return { operationId: op.operationId, source: this.label, responses };
  }
}

/** RFC 7386 JSON Merge Patch: null deletes, objects merge, anything else replaces. */
function mergePatch(target, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const out = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** RFC 6902 JSON Patch, the add/remove/replace operations GitHub's breaking changes use. */
function jsonPatch(target, ops, where) {
  const doc = structuredClone(target);
  for (const op of ops) {
    const keys = op.path
      .split('/')
      .slice(1)
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop();
    let parent = doc;
    for (const k of keys) parent = parent?.[k];
    if (parent === undefined || parent === null) throw new Error(`${where}: breaking-change path ${op.path} not found`);
    if (op.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (op.op === 'add' || op.op === 'replace') {
      if (Array.isArray(parent) && op.op === 'add') parent.splice(last === '-' ? parent.length : Number(last), 0, op.value);
      else parent[last] = op.value;
    } else {
      throw new Error(`${where}: unsupported JSON Patch op ${op.op}`);
    }
  }
  return doc;
}

/** `nullable: true` as JSON Schema. */
function nullable(schema) {
  if (typeof schema.type === 'string') {
    const out = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  return { anyOf: [{ type: 'null' }, schema] };
}

/** All operations and the schemas they reference, as of one API version. */
function extract(docs, apiVersion) {
  const schemas = {};
  const dotcom = new Source(docs.dotcom.doc, docs.dotcom.label, apiVersion, schemas, '');
  const ghes = new Source(docs.ghes.doc, docs.ghes.label, apiVersion, schemas, 'ghes--');
  const operations = {};
  const missing = [];
  for (const entry of OPERATIONS) {
    const optional = entry.endsWith('?');
    const key = optional ? entry.slice(0, -1) : entry;
    const [method, template] = key.split(' ');
    const source = template.startsWith('/admin/') || template.startsWith('/enterprise/') || FROM_GHES.has(key) ? ghes : dotcom;
    const op = source.operation(method, template);
    if (op) operations[key] = op;
    else if (!optional) missing.push(`${key} (in ${source.label})`);
  }
  if (missing.length) throw new Error(`operations not found in GitHub's description:\n  ${missing.join('\n  ')}`);
  return {
    operations,
    schemas: Object.fromEntries(
      Object.keys(schemas)
        .sort()
        .map((k) => [k, schemas[k]]),
    ),
  };
}

/** The entries of `later` that are new or differ from `base`. */
function changed(base, later) {
  return Object.fromEntries(Object.entries(later).filter(([k, v]) => !isDeepStrictEqual(base[k], v)));
}

function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const ghesFile = newestGhes();
  const docs = {
    dotcom: { doc: readJson('api.github.com.json'), label: 'api.github.com' },
    ghes: { doc: readJson(ghesFile), label: ghesFile.replace(/\.json$/, '') },
  };
  const [defaultVersion, ...laterVersions] = API_VERSIONS;
  const base = extract(docs, defaultVersion);
  const versions = {};
  for (const v of laterVersions) {
    const later = extract(docs, v);
    versions[v] = { operations: changed(base.operations, later.operations), schemas: changed(base.schemas, later.schemas) };
  }
  const fixture = {
    $comment: 'Generated by scripts/extract-openapi.mjs (make openapi-fixture) from @octokit/openapi; do not edit by hand.',
    package: { name: pkg.name, version: pkg.version, sources: [docs.dotcom.label, docs.ghes.label] },
    corrections: CORRECTIONS.map(({ schema, why }) => ({ schema, why })),
    apiVersion: defaultVersion,
    operations: base.operations,
    components: { schemas: base.schemas },
    versions,
  };
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const text = `${JSON.stringify(fixture, null, 1)}\n`;
  fs.writeFileSync(outFile, text);
  const overrides = laterVersions.map(
    (v) => `${v}: ${Object.keys(versions[v].operations).length} operations and ${Object.keys(versions[v].schemas).length} schemas differ`,
  );
  console.log(
    `${path.relative(root, outFile)}: ${Object.keys(base.operations).length} operations, ${Object.keys(base.schemas).length} schemas (${overrides.join('; ')}), ${(text.length / 1024).toFixed(0)} KiB`,
  );
}

main();
