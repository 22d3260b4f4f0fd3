// GET and PUT /repos/{owner}/{repo}/topics (GitHub's names rule, who may read and replace them) and GET /repositories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockRepositories, unlockRepository } from '../../src/repos/locks.js';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { eventsSince, lastEventId } from './helpers.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
let carol: { login: string; id: number; token: string };

const INVALID = 'Topics must start with a lowercase letter or number, consist of 50 characters or less, and can include hyphens.';
const TOO_MANY = 'A repository cannot have more than 20 topics.';

const put = (path: string, names: unknown, token: string | undefined = alice.token) =>
  s.api('PUT', `${path}/topics`, { token, body: { names } });
const topics = async (path: string, token?: string) => (await s.api('GET', `${path}/topics`, { token })).body.names;

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000, rateLimitAuthenticated: 100_000 } });
  alice = await s.userWithToken('alice', ['repo', 'admin:org']);
  bob = await s.userWithToken('bob', ['repo']);
  carol = await s.userWithToken('carol', ['repo']);
  await s.createOrg('acme', 'alice');
  await s.addMember('acme', 'bob');
  for (const [p, body] of [
    ['/user/repos', { name: 'open' }],
    ['/user/repos', { name: 'hidden', private: true }],
    ['/user/repos', { name: 'shelf' }],
    ['/orgs/acme/repos', { name: 'tools' }],
  ] as const) {
    const r = await s.api('POST', p, { token: alice.token, body });
    if (r.status !== 201) throw new Error(`setup ${body.name}: ${r.status} ${r.text}`);
  }
});
afterAll(async () => s?.close());

describe('GET /repos/{owner}/{repo}/topics', () => {
  it('answers a repository without topics with an empty list, to anyone for a public repository', async () => {
    const r = await s.api('GET', '/repos/alice/shelf/topics');
    expect(r.status).toBe(200);
    expect(checkSchema(r, 'GET /repos/{owner}/{repo}/topics')).toEqual({ names: [] });
  });

  it('hides a private repository’s topics (404) from anyone who cannot read it', async () => {
    expect((await put('/repos/alice/hidden', ['secret'])).status).toBe(200);
    for (const token of [undefined, carol.token, bob.token]) {
      const r = await s.api('GET', '/repos/alice/hidden/topics', { token });
      expect(r.status, String(token)).toBe(404);
      checkSchema(r, 'GET /repos/{owner}/{repo}/topics');
    }
    const publicOnly = await s.createToken('alice', { scopes: ['public_repo'] });
    expect((await s.api('GET', '/repos/alice/hidden/topics', { token: publicOnly })).status).toBe(404);
    expect(await topics('/repos/alice/hidden', alice.token)).toEqual(['secret']);
    expect((await s.api('GET', '/repos/alice/no-such-repo/topics', { token: alice.token })).status).toBe(404);
  });
});

describe('PUT /repos/{owner}/{repo}/topics', () => {
  it('replaces all topics, saved lowercase and each once; the repository JSON shows them', async () => {
    const r = await put('/repos/alice/open', ['Octocat', 'api', 'octocat', 'web-3', '0day']);
    expect(r.status).toBe(200);
    expect(checkSchema(r, 'PUT /repos/{owner}/{repo}/topics')).toEqual({ names: ['octocat', 'api', 'web-3', '0day'] });
    expect(await topics('/repos/alice/open')).toEqual(['octocat', 'api', 'web-3', '0day']);
    const repo = checkSchema(await s.api('GET', '/repos/alice/open'), 'GET /repos/{owner}/{repo}');
    expect(repo.topics).toEqual(['octocat', 'api', 'web-3', '0day']);
    const listed = checkSchema(await s.api('GET', '/users/alice/repos'), 'GET /users/{username}/repos');
    expect(listed.find((x: { name: string }) => x.name === 'open').topics).toEqual(['octocat', 'api', 'web-3', '0day']);

    const again = await put('/repos/alice/open', ['api']);
    expect(again.body).toEqual({ names: ['api'] });
    expect(await topics('/repos/alice/open')).toEqual(['api']);
    const cleared = await put('/repos/alice/open', [], alice.token);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ names: [] });
    expect((await s.api('GET', '/repos/alice/open')).body.topics).toEqual([]);
  });

  it('records a repository edited event with the previous topics, only when they change', async () => {
    await put('/repos/acme/tools', ['before']);
    const since = await lastEventId(s);
    await put('/repos/acme/tools', ['after', 'more']);
    await put('/repos/acme/tools', ['AFTER', 'more']);
    const events = await eventsSince(s, since, 'repository');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'edited', org_id: expect.any(Number), sender_id: alice.id });
    expect(events[0].payload).toMatchObject({
      action: 'edited',
      changes: { topics: { from: ['before'] } },
      repository: { full_name: 'acme/tools', topics: ['after', 'more'] },
      organization: { login: 'acme' },
      sender: { login: 'alice' },
    });
    expectWebhookPayload('repository', events[0].payload);
  });

  it('moves updated_at when the topics change, and only then', async () => {
    const before = (await s.api('GET', '/repos/alice/shelf')).body.updated_at;
    await new Promise((r) => setTimeout(r, 1100));
    await put('/repos/alice/shelf', ['books']);
    const changed = (await s.api('GET', '/repos/alice/shelf')).body.updated_at;
    expect(changed > before).toBe(true);
    await new Promise((r) => setTimeout(r, 1100));
    await put('/repos/alice/shelf', ['BOOKS']);
    expect((await s.api('GET', '/repos/alice/shelf')).body.updated_at).toBe(changed);
  });

  it('takes up to 20 topics of up to 50 characters, and refuses more with GitHub’s 422, changing nothing', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    expect((await put('/repos/alice/open', twenty)).body.names).toEqual(twenty);
    const long = `a${'-'.repeat(48)}z`;
    expect((await put('/repos/alice/open', [long])).body.names).toEqual([long]);

    const many = await put('/repos/alice/open', [...twenty, 't20']);
    expect(many.status).toBe(422);
    expect(checkSchema(many, 'PUT /repos/{owner}/{repo}/topics')).toMatchObject({ message: 'Validation Failed', errors: [TOO_MANY] });
    // Repeats count once: twenty distinct names written in two cases are twenty topics.
    expect((await put('/repos/alice/open', [...twenty, ...twenty.map((t) => t.toUpperCase())])).status).toBe(200);

    for (const bad of ['has space', '-leading', 'a'.repeat(51), 'ünïcode', 'dot.ted', 'under_score', '']) {
      const r = await put('/repos/alice/open', ['fine', bad]);
      expect(r.status, JSON.stringify(bad)).toBe(422);
      expect(checkSchema(r, 'PUT /repos/{owner}/{repo}/topics')).toMatchObject({ message: 'Validation Failed', errors: [INVALID] });
    }
    const both = await put('/repos/alice/open', [...twenty, 'Bad Name']);
    expect(both.body.errors).toEqual([INVALID, TOO_MANY]);
    expect(await topics('/repos/alice/open')).toEqual(twenty);
  });

  it('refuses a body without a list of strings (422)', async () => {
    for (const body of [{}, { names: 'api' }, { names: [1, 2] }, { names: null }]) {
      const r = await s.api('PUT', '/repos/alice/open/topics', { token: alice.token, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.message).toBe('Validation Failed');
    }
  });

  it('is for admins: 404 to those who cannot read the repository, 403 to those who can, 401 anonymously', async () => {
    expect((await s.api('PUT', '/repos/alice/open/topics', { body: { names: ['x'] } })).status).toBe(401);
    const hidden = await put('/repos/alice/hidden', ['x'], carol.token);
    expect(hidden.status).toBe(404);
    checkSchema(hidden, 'PUT /repos/{owner}/{repo}/topics');
    const reader = await put('/repos/alice/open', ['x'], carol.token);
    expect(reader.status).toBe(403);
    expect(reader.body.message).toBe('Must have admin rights to Repository.');
    // An organization member writes to its repositories but does not administer them.
    expect((await put('/repos/acme/tools', ['x'], bob.token)).status).toBe(403);
    expect((await put('/repos/acme/tools', ['org-topic'])).body.names).toEqual(['org-topic']);
    expect(await topics('/repos/acme/tools', bob.token)).toEqual(['org-topic']);
    expect(await topics('/repos/alice/hidden', alice.token)).toEqual(['secret']);
  });

  it('needs repo or public_repo of a classic token, administration write of a fine-grained one', async () => {
    const gistOnly = await s.createToken('alice', { scopes: ['gist'] });
    expect((await put('/repos/alice/shelf', ['x'], gistOnly)).status).toBe(404);
    const publicRepo = await s.createToken('alice', { scopes: ['public_repo'] });
    expect((await put('/repos/alice/shelf', ['classic'], publicRepo)).status).toBe(200);

    const metadata = await s.createToken('alice', { kind: 'fine_grained', permissions: { metadata: 'read' } });
    const denied = await put('/repos/alice/shelf', ['x'], metadata);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('Resource not accessible by personal access token');
    expect(await topics('/repos/alice/shelf', metadata)).toEqual(['classic']);
    const contents = await s.createToken('alice', { kind: 'fine_grained', permissions: { contents: 'read' } });
    expect(await topics('/repos/alice/hidden', contents)).toEqual(['secret']);
    const admin = await s.createToken('alice', { kind: 'fine_grained', permissions: { administration: 'write' } });
    expect((await put('/repos/alice/shelf', ['fine-grained'], admin)).body.names).toEqual(['fine-grained']);
  });

  it('refuses changes to an archived repository (403) and keeps reading its topics', async () => {
    await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'attic' } });
    expect((await put('/repos/alice/attic', ['old'])).status).toBe(200);
    expect((await s.api('PATCH', '/repos/alice/attic', { token: alice.token, body: { archived: true } })).status).toBe(200);
    const r = await put('/repos/alice/attic', ['new']);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Repository was archived so is read-only.');
    expect(await topics('/repos/alice/attic')).toEqual(['old']);
  });

  it('refuses changes to a repository locked for a migration (403), and takes them again once unlocked', async () => {
    const id = (await s.api('GET', '/repos/alice/shelf')).body.id;
    await s.db.transaction().execute((trx) => lockRepositories(trx, [id], 4242));
    try {
      const r = await put('/repos/alice/shelf', ['moving']);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('Repository is locked for migration');
      expect(await topics('/repos/alice/shelf')).toEqual(['fine-grained']);
    } finally {
      await s.db.transaction().execute((trx) => unlockRepository(trx, id, 4242));
    }
    expect((await put('/repos/alice/shelf', ['moved'])).body.names).toEqual(['moved']);
  });
});

describe('GET /repositories', () => {
  it('lists public repositories only, oldest first, in GitHub’s minimal shape', async () => {
    const r = await s.api('GET', '/repositories', { token: alice.token });
    expect(r.status).toBe(200);
    const list = checkSchema(r, 'GET /repositories');
    const names = list.map((x: { full_name: string }) => x.full_name);
    expect(names).toEqual(expect.arrayContaining(['alice/open', 'alice/shelf', 'acme/tools']));
    expect(names).not.toContain('alice/hidden');
    const ids = list.map((x: { id: number }) => x.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const open = list.find((x: { full_name: string }) => x.full_name === 'alice/open');
    expect(open).toMatchObject({ name: 'open', private: false, fork: false, owner: { login: 'alice' }, url: `${s.url}/repos/alice/open` });
    expect(Object.keys(open).at(-1)).toBe('deployments_url');
    expect(open).not.toHaveProperty('created_at');
    expect(open).not.toHaveProperty('permissions');
    expect(r.headers.get('link')).toBeNull();
    checkSchema(await s.api('GET', '/repositories', { headers: { 'x-service-api-version': '2026-03-10' } }), 'GET /repositories');
  });

  it('pages by id with since, 100 at a time, linking the next page', async () => {
    const first = (await s.api('GET', '/repositories')).body;
    const after = await s.api('GET', `/repositories?since=${first[0].id}`);
    expect(after.body.map((x: { id: number }) => x.id)).toEqual(first.slice(1).map((x: { id: number }) => x.id));
    expect((await s.api('GET', '/repositories?since=2147483647')).body).toEqual([]);
    expect((await s.api('GET', `/repositories?since=${'9'.repeat(30)}`)).body).toEqual([]);
    const bad = await s.api('GET', '/repositories?since=yesterday');
    expect(bad.status).toBe(422);
    checkSchema(bad, 'GET /repositories');

    // Rows are enough for a list that never reads git data: 120 more public repositories.
    const now = new Date().toISOString();
    await s.db
      .insertInto('repositories')
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          owner_id: carol.id,
          name: `bulk-${i}`,
          name_lower: `bulk-${i}`,
          description: null,
          homepage: null,
          visibility: 'public' as const,
          default_branch: 'main',
          pushed_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const page1 = await s.api('GET', '/repositories');
    expect(page1.body).toHaveLength(100);
    const lastId = page1.body[99].id;
    expect(page1.headers.get('link')).toBe(`<${s.url}/repositories?since=${lastId}>; rel="next"`);
    const page2 = await s.api('GET', `/repositories?since=${lastId}`);
    expect(page2.body[0].id).toBeGreaterThan(lastId);
    expect(page2.headers.get('link')).toBeNull();
    const total = first.length + 120;
    expect(page2.body).toHaveLength(total - 100);
  });
});
