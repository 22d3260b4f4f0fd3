// Every registered route against every kind of token, generated from the grants the routes declare: denied callers get
// exactly the rule's answer, allowed ones never a refusal; a route that declares no grant cannot be registered.
import type { FastifyInstance } from 'fastify';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC, type Grant } from '../../src/core/grants.js';
import { ARCHIVE_ROUTE } from '../../src/migrations/signing.js';
import { buildApp } from '../../src/server/app.js';
import type { DeclaredRoute } from '../../src/http/auth.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PAT = 'Resource not accessible by personal access token';
const INTEGRATION = 'Resource not accessible by integration';
/** A scope no route accepts. */
const UNRELATED_SCOPE = 'read:gpg_key';
const REPOSITORY_PERMISSIONS = ['metadata', 'contents', 'administration'];
const RANK: Record<string, number> = { read: 1, write: 2, admin: 3 };

type Kind = 'anonymous' | 'classic' | 'oauth' | 'fine_grained' | 'installation' | 'app_user';

/** One caller: a token kind with what it carries (`owner`: alice, a site admin who owns every resource; `bob`: nobody). */
interface Caller {
  name: string;
  kind: Kind;
  scopes?: string[];
  permissions?: Record<string, string>;
  siteAdmin: boolean;
}

/** What a denial looks like; `null`: the caller is let through. */
type Answer = { status: number; message: string | RegExp } | null;

/** GitHub's rule, written out independently of the server's code: what a caller gets from a route declaring `grant`. */
function expected(grant: Grant, caller: Caller): Answer {
  if (caller.kind === 'anonymous') return grant.anonymous ? null : { status: 401, message: 'Requires authentication' };
  if (grant.siteAdmin && !caller.siteAdmin) return { status: 404, message: 'Not Found' };
  const permitted = (perms: Record<string, string>) => {
    const need = grant.fineGrained;
    if (need === undefined) return true;
    if (need === null) return false;
    if (need.permission === 'metadata') return REPOSITORY_PERMISSIONS.some((p) => p in perms);
    return (RANK[perms[need.permission]] ?? 0) >= RANK[need.level];
  };
  switch (caller.kind) {
    case 'classic':
    case 'oauth': {
      const scopes = caller.scopes ?? [];
      const implied = new Set(
        scopes.flatMap((s) => (s === 'repo' ? ['repo', 'public_repo'] : s === 'admin:org' ? ['admin:org', 'write:org', 'read:org'] : [s])),
      );
      if (grant.scopes.length === 0 || grant.scopes.some((s) => implied.has(s))) return null;
      return grant.missingScope === 403 ? { status: 403, message: /OAuth scopes/ } : { status: 404, message: 'Not Found' };
    }
    case 'fine_grained':
      return permitted(caller.permissions ?? {}) ? null : { status: 403, message: PAT };
    case 'installation':
    case 'app_user': {
      const appAllowed = grant.apps === true || (grant.apps === 'user' && caller.kind === 'app_user');
      return appAllowed && permitted(caller.permissions ?? {}) ? null : { status: 403, message: INTEGRATION };
    }
  }
}

/** The callers tried on a route: each kind with and without what the grant asks, and below the level it asks. */
function callersFor(grant: Grant): Caller[] {
  const owner = { siteAdmin: true };
  const scope = grant.scopes[0] ?? UNRELATED_SCOPE;
  const need = grant.fineGrained ?? undefined;
  const withPermission = need ? { [need.permission]: need.level } : { gists: 'write' };
  const callers: Caller[] = [{ name: 'anonymous', kind: 'anonymous', siteAdmin: false }];
  for (const kind of ['classic', 'oauth'] as const) {
    callers.push({ name: `${kind} with ${scope}`, kind, scopes: [scope], ...owner });
    callers.push({ name: `${kind} with ${UNRELATED_SCOPE}`, kind, scopes: [UNRELATED_SCOPE], ...owner });
  }
  for (const kind of ['fine_grained', 'installation', 'app_user'] as const) {
    callers.push({ name: `${kind} with ${JSON.stringify(withPermission)}`, kind, permissions: withPermission, ...owner });
    callers.push({ name: `${kind} without permissions`, kind, permissions: {}, ...owner });
    if (need && need.level !== 'read')
      callers.push({ name: `${kind} with ${need.permission}:read`, kind, permissions: { [need.permission]: 'read' }, ...owner });
    if (need?.permission === 'metadata')
      callers.push({ name: `${kind} with contents:read`, kind, permissions: { contents: 'read' }, ...owner });
  }
  if (grant.siteAdmin)
    callers.push({ name: 'classic of a user who is not a site admin', kind: 'classic', scopes: [scope], siteAdmin: false });
  return callers;
}

let s: TestServer;
let marked: FastifyInstance;
let markedUrl: string;
let receiver: Receiver;
/** Another host with an image, for the image proxy's route (`/camo/:digest/:address`, a URL only a page can sign). */
let images: http.Server;
/** Values for every path parameter, naming resources that exist and that alice may reach. */
const values: Record<string, string> = { owner: 'alice', repo: 'pub', org: 'acme', username: 'alice', enterprise: 'hublet' };
let userMigration: number;
let orgMigration: number;
let archivePath: string;

async function ok(r: { status: number; text: string }, status: number, what: string) {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
}

async function waitExported(path: string, token: string) {
  for (let i = 0; i < 600; i++) {
    const r = await s.api('GET', path, { token });
    if (r.body.state === 'exported') return;
    if (r.body.state === 'failed') throw new Error(`${path} failed: ${r.body.failure_reason}`);
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`${path} never exported`);
}

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 1_000_000, rateLimitAuthenticated: 1_000_000 } });
  receiver = await startReceiver();
  await s.createUser('alice', { siteAdmin: true });
  await s.createUser('bob');
  const full = await s.createToken('alice', { scopes: ['repo', 'gist', 'admin:org', 'admin:org_hook', 'user', 'site_admin'] });
  await s.createOrg('acme', 'alice');
  const pub = await s.api('POST', '/user/repos', { token: full, body: { name: 'pub', auto_init: true } });
  await ok(pub, 201, 'repository');
  values.id = String(pub.body.id);
  await ok(await s.api('POST', '/orgs/acme/repos', { token: full, body: { name: 'orepo', auto_init: true } }), 201, 'org repository');
  const gist = await s.api('POST', '/gists', { token: full, body: { public: true, files: { 'a.txt': { content: 'a\n' } } } });
  await ok(gist, 201, 'gist');
  values.gist_id = gist.body.id;
  values.filename = 'a.txt';
  values.client_id = 'hublet-cli';
  values.sha = gist.body.history[0].version;
  const comment = await s.api('POST', `/gists/${gist.body.id}/comments`, { token: full, body: { body: 'hi' } });
  await ok(comment, 201, 'comment');
  values.comment_id = String(comment.body.id);
  await ok(await s.api('PUT', `/gists/${gist.body.id}/star`, { token: full }), 204, 'star');
  const hook = await s.api('POST', '/orgs/acme/hooks', { token: full, body: { name: 'web', config: { url: `${receiver.url}/h` } } });
  await ok(hook, 201, 'hook');
  values.hook_id = String(hook.body.id);
  await ok(await s.api('POST', `/orgs/acme/hooks/${hook.body.id}/pings`, { token: full }), 204, 'ping');
  for (let i = 0; !values.delivery_id; i++) {
    const d = await s.api('GET', `/orgs/acme/hooks/${hook.body.id}/deliveries`, { token: full });
    if (d.body.length) values.delivery_id = String(d.body[0].id);
    else if (i > 600) throw new Error('no delivery');
    else await new Promise((res) => setTimeout(res, 50));
  }
  // A repository's and the site's hooks have ids of their own (and a delivery, for the repository's).
  const repoHook = await s.api('POST', '/repos/alice/pub/hooks', {
    token: full,
    body: { name: 'web', config: { url: `${receiver.url}/r` } },
  });
  await ok(repoHook, 201, 'repository hook');
  values.repo_hook_id = String(repoHook.body.id);
  const siteHook = await s.api('POST', '/admin/hooks', {
    token: full,
    body: { name: 'web', active: false, config: { url: `${receiver.url}/g` } },
  });
  await ok(siteHook, 201, 'global hook');
  values.global_hook_id = String(siteHook.body.id);
  for (let i = 0; !values.repo_delivery_id; i++) {
    const d = await s.api('GET', `/repos/alice/pub/hooks/${repoHook.body.id}/deliveries`, { token: full });
    if (d.body.length) values.repo_delivery_id = String(d.body[0].id);
    else if (i > 600) throw new Error('no repository hook delivery');
    else await new Promise((res) => setTimeout(res, 50));
  }
  const um = await s.api('POST', '/user/migrations', { token: full, body: { repositories: ['pub'] } });
  await ok(um, 201, 'user migration');
  userMigration = um.body.id;
  const om = await s.api('POST', '/orgs/acme/migrations', { token: full, body: { repositories: ['orepo'] } });
  await ok(om, 201, 'org migration');
  orgMigration = om.body.id;
  await waitExported(`/user/migrations/${userMigration}`, full);
  await waitExported(`/orgs/acme/migrations/${orgMigration}`, full);
  const archive = await fetch(`${s.url}/user/migrations/${userMigration}/archive`, {
    headers: { authorization: `token ${full}` },
    redirect: 'manual',
  });
  expect(archive.status).toBe(302);
  const location = new URL(archive.headers.get('location')!);
  archivePath = location.pathname + location.search;

  // A signed image-proxy URL, as a gist page that shows another host's image names it.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  images = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  const badge = `http://127.0.0.1:${(images.address() as AddressInfo).port}/badge.png`;
  const shown = await s.api('POST', '/gists', {
    token: full,
    body: { public: true, files: { 'README.md': { content: `![badge](${badge})\n` } } },
  });
  await ok(shown, 201, 'gist with an image');
  const [, digest, hex] = /\/camo\/([0-9a-f]+)\/([0-9a-f]+)/.exec(await (await fetch(`${s.url}/gist/${shown.body.id}`)).text()) ?? [];
  Object.assign(values, { digest, address: hex });

  // The same routes on the same database, stopped once a request passes its grant: every method is tried, nothing changes.
  marked = await buildApp({ config: s.app.hublet.config, db: s.db });
  marked.addHook('preHandler', async (_request, reply) => reply.code(299).send({ reached: true }));
  await marked.listen({ host: '127.0.0.1', port: 0 });
  const address = marked.server.address();
  markedUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  images?.close();
  await marked?.close();
  await receiver?.close();
  await s?.close();
});

/** Tokens by what they carry, issued once. */
const tokens = new Map<string, string>();
async function tokenFor(caller: Caller): Promise<string | undefined> {
  if (caller.kind === 'anonymous') return undefined;
  const login = caller.siteAdmin ? 'alice' : 'bob';
  const body = {
    kind: caller.kind,
    scopes: caller.scopes,
    permissions: caller.permissions,
    app_id: caller.kind === 'classic' || caller.kind === 'fine_grained' ? undefined : 5,
  };
  const key = JSON.stringify([login, body]);
  let token = tokens.get(key);
  if (!token) {
    token = await s.createToken(login, body);
    tokens.set(key, token);
  }
  return token;
}

/** The route's URL with every parameter naming an existing resource. */
function pathOf(route: DeclaredRoute): string {
  if (route.url === ARCHIVE_ROUTE) return archivePath;
  const migration = route.url.startsWith('/orgs/') ? orgMigration : userMigration;
  const filled = route.url.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    if (name === 'migration_id') return String(migration);
    if (name === 'repo_name') return route.url.startsWith('/orgs/') ? 'orepo' : 'pub';
    if (name === 'hook_id' && route.url.startsWith('/repos/')) return values.repo_hook_id;
    if (name === 'hook_id' && route.url.startsWith('/admin/')) return values.global_hook_id;
    if (name === 'delivery_id' && route.url.startsWith('/repos/')) return values.repo_delivery_id;
    const value = values[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${route.url}`);
    return value;
  });
  if (filled.endsWith('/info/refs')) return `${filled}?service=git-upload-pack`;
  // Gist search answers a query (none is GitHub's 422 for a search without `q`).
  if (filled === '/search/gists') return `${filled}?q=gist`;
  // The web's repository views take `<ref>/<path>` as their wildcard: the repository's README on its default branch.
  return filled.endsWith('/*') ? `${filled.slice(0, -1)}main/README.md` : filled;
}

async function call(base: string, method: string, path: string, token: string | undefined) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `token ${token}`;
  const res = await fetch(base + path, { method, headers, redirect: 'manual' });
  const text = await res.text();
  let message: string | undefined;
  try {
    message = (JSON.parse(text) as { message?: string }).message;
  } catch {
    message = undefined;
  }
  return { status: res.status, message };
}

function isRefusal(r: { status: number; message?: string }): boolean {
  if (r.status === 401) return true;
  if (r.status === 403 && (r.message === PAT || r.message === INTEGRATION || /OAuth scopes/.test(r.message ?? ''))) return true;
  return false;
}

function matches(r: { status: number; message?: string }, answer: NonNullable<Answer>): boolean {
  if (r.status !== answer.status) return false;
  return typeof answer.message === 'string' ? r.message === answer.message : answer.message.test(r.message ?? '');
}

const routesOf = (app: FastifyInstance) => app.routeGrants.filter((r) => r.method !== 'HEAD');

describe('the grant matrix', () => {
  it('covers a route list that is the app’s, with every kind of grant', () => {
    const routes = routesOf(s.app);
    expect(routes.length).toBeGreaterThan(60);
    const names = routes.map((r) => `${r.method} ${r.url}`);
    for (const known of [
      'GET /gists/:gist_id',
      'PATCH /repos/:owner/:repo',
      'DELETE /repos/:owner/:repo',
      'POST /user/repos',
      'GET /gists',
      'POST /orgs/:org/migrations',
    ]) {
      expect(names).toContain(known);
    }
    expect(routes.some((r) => r.grant.siteAdmin)).toBe(true);
    expect(routes.some((r) => r.grant.apps === 'user')).toBe(true);
    expect(routes.some((r) => r.grant.fineGrained === null)).toBe(true);
    expect(routes.some((r) => r.grant === PUBLIC)).toBe(true);
    expect(routesOf(marked).map((r) => `${r.method} ${r.url}`)).toEqual(names);
  });

  it('every method of every route: a denied caller gets exactly the rule’s answer, an allowed one gets past the grant', async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const route of routesOf(marked)) {
      const path = pathOf(route);
      for (const caller of callersFor(route.grant)) {
        const want = expected(route.grant, caller);
        // GraphQL words the same 401 as GitHub's GraphQL endpoint does.
        if (want && caller.kind === 'anonymous' && route.url.endsWith('graphql'))
          want.message = 'This endpoint requires you to be authenticated.';
        const r = await call(markedUrl, route.method, path, await tokenFor(caller));
        calls++;
        const what = `${route.method} ${route.url} as ${caller.name}: got ${r.status} ${r.message ?? ''}`;
        if (want && !matches(r, want)) failures.push(`${what}, expected ${want.status} ${want.message}`);
        // Past the grant: the marker, the body's validation (which runs after the grant and before the handler), or a web
        // form's authenticity check (csrf.ts; after the grant too, and a call without a form's token never passes it).
        const formCheck = r.status === 403 && /^This form has expired/.test(r.message ?? '');
        if (!want && ![299, 400, 415, 422].includes(r.status) && !formCheck) failures.push(`${what}, expected to get past the grant`);
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(500);
  });

  it('every GET route, handlers included: allowed callers read the existing resource, denied ones get the rule’s answer', async () => {
    const failures: string[] = [];
    for (const route of routesOf(s.app).filter((r) => r.method === 'GET')) {
      const path = pathOf(route);
      for (const caller of callersFor(route.grant)) {
        const want = expected(route.grant, caller);
        const r = await call(s.url, 'GET', path, await tokenFor(caller));
        const what = `GET ${path} as ${caller.name}: got ${r.status} ${r.message ?? ''}`;
        if (want && !matches(r, want)) failures.push(`${what}, expected ${want.status} ${want.message}`);
        if (!want && isRefusal(r)) failures.push(`${what}, a refusal for a caller the grant allows`);
        // Two 404s are answers, not refusals: anonymous callers have starred nothing, and an OAuth app sees only the
        // hooks it created (this one was created by a person).
        const notStarred = caller.kind === 'anonymous' && route.url === '/gists/:gist_id/star';
        const anotherAppsHook = caller.kind === 'oauth' && /^\/(orgs\/:org|repos\/:owner\/:repo|admin)\/hooks\/:hook_id/.test(route.url);
        // And web pages that this server's settings leave out (sign-up is off, no single sign-on is set up), that
        // name no app (the OAuth consent page without client_id), or that are a signed-in person's own (their starred
        // gists: a token makes no one a web viewer) are not-found pages for everyone here.
        const notHere = /^\/(signup|login\/oidc(\/callback)?|login\/oauth\/authorize|gist\/:gist_id\/starred)$/.test(route.url);
        if (!want && r.status >= 400 && !notStarred && !anotherAppsHook && !notHere) failures.push(`${what}, expected the resource`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('declaring grants', () => {
  it('refuses to register a route that declares no grant', async () => {
    const app = await buildApp({ config: s.app.hublet.config, db: s.db });
    try {
      expect(() => app.get('/forgotten', async () => ({}))).toThrow(/GET \/forgotten declares no grant/);
      expect(() => app.post('/forgotten', { config: { resource: 'X' } }, async () => ({}))).toThrow(/declares no grant/);
      app.get('/declared', { config: { grant: PUBLIC } }, async () => ({ ok: true }));
      expect((await app.inject('/declared')).json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });
});
