// Every refusal of the migration endpoints: 401, 403 for token kinds migrations do not accept, 404 for what the caller may not see, 422 bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitForState } from './support.js';

let server: TestServer;
let owner: { token: string };
let member: { token: string };
let stranger: { token: string };
let orgMigration: number;
let userMigration: number;

const ORG = '/orgs/octo-org/migrations';

beforeAll(async () => {
  server = await startServer();
  owner = await server.userWithToken('mona', ['repo', 'admin:org', 'user']);
  member = await server.userWithToken('hubot', ['repo', 'admin:org', 'user']);
  stranger = await server.userWithToken('eve', ['repo', 'admin:org', 'user']);
  await server.createOrg('octo-org', 'mona');
  await server.createOrg('other-org', 'eve');
  await server.addMember('octo-org', 'hubot');
  for (const [path, name] of [
    ['/orgs/octo-org/repos', 'alpha'],
    ['/orgs/octo-org/repos', 'beta'],
    ['/orgs/other-org/repos', 'foreign'],
    ['/user/repos', 'own'],
  ] as const) {
    const token = path.includes('other-org') ? stranger.token : owner.token;
    const r = await server.api('POST', path, { token, body: { name, auto_init: true } });
    expect(r.status).toBe(201);
  }
  await server.api('POST', '/user/repos', { token: stranger.token, body: { name: 'eves-own' } });
  orgMigration = (await server.api('POST', ORG, { token: owner.token, body: { repositories: ['alpha'] } })).body.id;
  userMigration = (await server.api('POST', '/user/migrations', { token: owner.token, body: { repositories: ['own'] } })).body.id;
  await waitForState(server, `${ORG}/${orgMigration}`, owner.token);
  await waitForState(server, `/user/migrations/${userMigration}`, owner.token);
});
afterAll(async () => {
  await server?.close();
});

const orgOperations = () => [
  ['GET', ORG],
  ['POST', ORG],
  ['GET', `${ORG}/${orgMigration}`],
  ['GET', `${ORG}/${orgMigration}/archive`],
  ['DELETE', `${ORG}/${orgMigration}/archive`],
  ['DELETE', `${ORG}/${orgMigration}/repos/alpha/lock`],
  ['GET', `${ORG}/${orgMigration}/repositories`],
];
const userOperations = () => [
  ['GET', '/user/migrations'],
  ['POST', '/user/migrations'],
  ['GET', `/user/migrations/${userMigration}`],
  ['GET', `/user/migrations/${userMigration}/archive`],
  ['DELETE', `/user/migrations/${userMigration}/archive`],
  ['DELETE', `/user/migrations/${userMigration}/repos/own/lock`],
  ['GET', `/user/migrations/${userMigration}/repositories`],
];

describe('authentication and token kinds', () => {
  it('asks anonymous callers to sign in (401) on every endpoint', async () => {
    for (const [method, path] of [...orgOperations(), ...userOperations()]) {
      const r = await server.api(method, path, { body: method === 'POST' ? { repositories: ['alpha'] } : undefined });
      expect([method, path, r.status]).toEqual([method, path, 401]);
      expect(r.body).toMatchObject({ message: 'Requires authentication', status: '401' });
    }
  });

  it('refuses fine-grained personal access tokens, installation tokens and app user tokens (403)', async () => {
    const tokens = {
      'personal access token': await server.createToken('mona', {
        kind: 'fine_grained',
        permissions: { administration: 'write', contents: 'write', members: 'write' },
      }),
      integration: await server.createToken('mona', { kind: 'installation', app_id: 7 }),
      'integration ': await server.createToken('mona', { kind: 'app_user', app_id: 7 }),
    };
    for (const [what, token] of Object.entries(tokens)) {
      for (const [method, path] of [...orgOperations(), ...userOperations()]) {
        const r = await server.api(method, path, { token, body: method === 'POST' ? { repositories: ['alpha'] } : undefined });
        expect([method, path, r.status]).toEqual([method, path, 403]);
        expect(r.body.message).toBe(`Resource not accessible by ${what.trim()}`);
      }
    }
  });

  it('needs admin:org on organization migrations (404 without) and repo or user on user migrations (403 without)', async () => {
    const gistOnly = await server.createToken('mona', { scopes: ['gist'] });
    for (const [method, path] of orgOperations()) {
      const r = await server.api(method, path, { token: gistOnly, body: method === 'POST' ? { repositories: ['alpha'] } : undefined });
      expect([method, path, r.status]).toEqual([method, path, 404]);
    }
    for (const [method, path] of userOperations()) {
      const r = await server.api(method, path, { token: gistOnly, body: method === 'POST' ? { repositories: ['own'] } : undefined });
      expect([method, path, r.status]).toEqual([method, path, 403]);
    }
    const listed = await server.api('GET', ORG, { token: owner.token });
    expect(listed.headers.get('x-accepted-oauth-scopes')).toBe('admin:org');
    const user = await server.api('GET', '/user/migrations', { token: await server.createToken('mona', { scopes: ['user'] }) });
    expect(user.status).toBe(200);
  });
});

describe('what the caller may not see (404)', () => {
  it('hides organization migrations from members, strangers and unknown organizations', async () => {
    for (const token of [member.token, stranger.token]) {
      for (const [method, path] of orgOperations()) {
        const r = await server.api(method, path, { token, body: method === 'POST' ? { repositories: ['alpha'] } : undefined });
        expect([method, path, r.status]).toEqual([method, path, 404]);
        checkSchema(r, `${method} ${path}`);
      }
    }
    expect((await server.api('GET', '/orgs/no-such-org/migrations', { token: owner.token })).status).toBe(404);
    // A member's invalid body is still a 404: nobody learns about the body of a request they may not make.
    expect((await server.api('POST', ORG, { token: member.token, body: { repositories: 'nope' } })).status).toBe(404);
  });

  it("answers 404 for another user's migration, an organization migration under /user, and bad ids", async () => {
    for (const path of [
      `/user/migrations/${userMigration}`,
      `/user/migrations/${userMigration}/repositories`,
      `/user/migrations/${userMigration}/archive`,
    ]) {
      expect((await server.api('GET', path, { token: stranger.token })).status).toBe(404);
    }
    expect((await server.api('DELETE', `/user/migrations/${userMigration}/archive`, { token: stranger.token })).status).toBe(404);
    expect((await server.api('GET', `/user/migrations/${orgMigration}`, { token: owner.token })).status).toBe(404);
    expect((await server.api('GET', `${ORG}/${userMigration}`, { token: owner.token })).status).toBe(404);
    expect((await server.api('GET', `/orgs/other-org/migrations/${orgMigration}`, { token: stranger.token })).status).toBe(404);
    for (const id of ['0', '-1', 'abc', '99999', '1e3', '9'.repeat(40)]) {
      const r = await server.api('GET', `${ORG}/${id}`, { token: owner.token });
      expect([id, r.status]).toEqual([id, 404]);
      expect(r.body).toMatchObject({ message: 'Not Found' });
    }
  });

  it('unlock is 404 when the repository is not locked, not in the migration, or unknown', async () => {
    for (const name of ['alpha', 'beta', 'nope', 'a'.repeat(300)]) {
      const r = await server.api('DELETE', `${ORG}/${orgMigration}/repos/${name}/lock`, { token: owner.token });
      expect([name, r.status]).toEqual([name, 404]);
    }
    expect((await server.api('DELETE', `/user/migrations/${userMigration}/repos/own/lock`, { token: owner.token })).status).toBe(404);
  });

  it('the archive is 404 before the export finishes', async () => {
    const { server: s, token } = await freshOwner();
    try {
      // No worker runs on this server: the migration stays pending.
      await s.app.hublet.jobs.stop();
      const m = (await s.api('POST', '/user/migrations', { token, body: { repositories: ['r'] } })).body;
      expect(m.state).toBe('pending');
      for (const method of ['GET', 'DELETE']) {
        const r = await s.api(method, `/user/migrations/${m.id}/archive`, { token });
        expect([method, r.status]).toEqual([method, 404]);
      }
    } finally {
      await s.close();
    }
  });
});

async function freshOwner(config = {}) {
  const s = await startServer({ config });
  const u = await s.userWithToken('solo', ['repo', 'user']);
  expect((await s.api('POST', '/user/repos', { token: u.token, body: { name: 'r' } })).status).toBe(201);
  return { server: s, token: u.token };
}

describe('POST …/migrations: 422', () => {
  const start = (body: unknown, token = owner.token, path = ORG) => server.api('POST', path, { token, body });

  it('requires repositories', async () => {
    for (const body of [{}, undefined, { lock_repositories: true }]) {
      const r = await server.api('POST', ORG, { token: owner.token, body });
      expect(r.status).toBe(422);
      checkSchema(r, 'POST /orgs/{org}/migrations');
      expect(r.body.errors).toEqual([{ resource: 'Migration', field: 'repositories', code: 'missing_field' }]);
    }
  });

  it('refuses an empty list unless org_metadata_only, and names with org_metadata_only', async () => {
    const empty = await start({ repositories: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([expect.objectContaining({ resource: 'Migration', field: 'repositories', code: 'missing_field' })]);
    const both = await start({ repositories: ['alpha'], org_metadata_only: true });
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual([expect.objectContaining({ resource: 'Migration', field: 'repositories', code: 'invalid' })]);
  });

  it('names each unknown or foreign repository with its index (invalid_value)', async () => {
    const r = await start({ repositories: ['alpha', 'nope', 'other-org/foreign', 'octo-org/beta', 'mona/own', '', 'a/b/c', 'x\u0000y'] });
    expect(r.status).toBe(422);
    checkSchema(r, 'POST /orgs/{org}/migrations');
    expect(r.body.message).toBe('Validation Failed');
    expect(r.body.errors.map((e: { index: number }) => e.index)).toEqual([1, 2, 4, 5, 6, 7]);
    expect(r.body.errors[0]).toEqual({
      resource: 'Migration',
      field: 'repositories',
      code: 'invalid_value',
      value: 'nope',
      index: 1,
      message: 'nope is not a repository of octo-org',
    });
    const user = await start({ repositories: ['own', 'eve/eves-own', 'octo-org/alpha'] }, owner.token, '/user/migrations');
    expect(user.status).toBe(422);
    expect(user.body.errors.map((e: { index: number; code: string }) => [e.index, e.code])).toEqual([
      [1, 'invalid_value'],
      [2, 'invalid_value'],
    ]);
    const list = await server.api('GET', ORG, { token: owner.token });
    expect(list.body).toHaveLength(1);
  });

  it('checks types: strings in repositories, booleans for flags, exclude values', async () => {
    const cases: [unknown, string][] = [
      [{ repositories: 'alpha' }, 'repositories'],
      [{ repositories: [1] }, 'repositories.0'],
      [{ repositories: ['alpha'], lock_repositories: 'yes' }, 'lock_repositories'],
      [{ repositories: ['alpha'], exclude_git_data: 1 }, 'exclude_git_data'],
      [{ repositories: ['alpha'], org_metadata_only: null }, 'org_metadata_only'],
      [{ repositories: ['alpha'], exclude: ['bogus'] }, 'exclude.0'],
      [{ repositories: ['alpha'], exclude: 'repositories' }, 'exclude'],
      [{ repositories: Array(1001).fill('alpha') }, 'repositories'],
    ];
    for (const [body, field] of cases) {
      const r = await start(body);
      expect([field, r.status]).toEqual([field, 422]);
      expect(r.body.errors[0]).toMatchObject({ resource: 'Migration', field, code: 'invalid' });
    }
    expect((await server.api('POST', ORG, { token: owner.token, body: '[1,2]' })).status).toBe(400);
    expect((await server.api('POST', ORG, { token: owner.token, body: '{"repositories":' })).status).toBe(400);
  });

  it('refuses to start without archive storage, with a clear message', async () => {
    const { server: s, token } = await freshOwner({ archiveStorage: 'none' });
    try {
      const r = await s.api('POST', '/user/migrations', { token, body: { repositories: ['r'] } });
      expect(r.status).toBe(422);
      checkSchema(r, 'POST /user/migrations');
      expect(r.body.message).toMatch(/archive storage.*HUBLET_ARCHIVE_STORAGE/);
      expect((await s.api('GET', '/user/migrations', { token })).body).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('signed archive URLs', () => {
  it('refuse a tampered signature or expiry (403) and an unknown archive (404)', async () => {
    const redirect = await fetch(`${server.url}${ORG}/${orgMigration}/archive`, {
      headers: { authorization: `Bearer ${owner.token}` },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    const url = new URL(redirect.headers.get('location')!);
    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 1));
    const badSig = new URL(url);
    badSig.searchParams.set('signature', '0'.repeat(64));
    for (const u of [tampered, badSig, new URL(url.pathname, url)]) {
      const r = await fetch(u);
      expect(r.status).toBe(403);
      expect(await r.json()).toMatchObject({ message: 'Request signature does not match' });
    }
    const other = new URL(url);
    other.pathname = '/storage/migrations/00000000-0000-4000-8000-000000000000.tar.gz';
    expect((await fetch(other)).status).toBe(404);
    expect((await fetch(new URL('/storage/migrations/../../etc/passwd', url))).status).toBe(404);
    expect((await fetch(url)).status).toBe(200);
  });
});
