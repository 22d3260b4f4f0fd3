// What a migration may export for a token: each repository passes GET /repos's read rule at the start, at download and
// when shown, so a token with only the `user` scope (GitHub: profile only) exports public repositories and no private ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitForState } from './support.js';

let s: TestServer;
let full: string;
let userOnly: string;

beforeAll(async () => {
  s = await startServer();
  await s.createUser('alice');
  full = await s.createToken('alice', { scopes: ['repo', 'user', 'admin:org'] });
  userOnly = await s.createToken('alice', { scopes: ['user'] });
  for (const [path, name, priv] of [
    ['/user/repos', 'pub', false],
    ['/user/repos', 'priv', true],
  ] as const) {
    const r = await s.api('POST', path, { token: full, body: { name, private: priv, auto_init: true } });
    expect(r.status).toBe(201);
  }
  await s.createOrg('acme', 'alice');
  expect((await s.api('POST', '/orgs/acme/repos', { token: full, body: { name: 'vault', private: true, auto_init: true } })).status).toBe(
    201,
  );
});
afterAll(async () => s?.close());

const invalid = (value: string, index: number) =>
  expect.objectContaining({ resource: 'Migration', field: 'repositories', code: 'invalid_value', value, index });

async function archiveStatus(path: string, token: string): Promise<number> {
  const r = await fetch(`${s.url}${path}`, { headers: { authorization: `token ${token}` }, redirect: 'manual' });
  await r.arrayBuffer();
  return r.status;
}

describe('user migrations with a token that cannot read private repositories', () => {
  it('cannot see the private repository to begin with', async () => {
    expect((await s.api('GET', '/repos/alice/priv', { token: userOnly })).status).toBe(404);
    expect((await s.api('GET', '/repos/alice/priv', { token: full })).status).toBe(200);
  });

  it('cannot start a migration naming it: 422, as for a repository that does not exist, and nothing is recorded', async () => {
    for (const repositories of [['priv'], ['pub', 'alice/priv']]) {
      const r = await s.api('POST', '/user/migrations', { token: userOnly, body: { repositories, lock_repositories: true } });
      expect(r.status, repositories.join()).toBe(422);
      expect(r.body.errors).toEqual([invalid(repositories.at(-1)!, repositories.length - 1)]);
    }
    expect((await s.api('GET', '/user/migrations', { token: full })).body).toEqual([]);
    // Not locked either (lock_repositories was asked): a locked repository would refuse this change.
    expect((await s.api('PATCH', '/repos/alice/priv', { token: full, body: { description: 'still mine' } })).status).toBe(200);
  });

  it('exports the public repositories it can read, and downloads that archive', async () => {
    const r = await s.api('POST', '/user/migrations', { token: userOnly, body: { repositories: ['pub'] } });
    expect(r.status).toBe(201);
    expect(r.body.repositories.map((x: { full_name: string }) => x.full_name)).toEqual(['alice/pub']);
    await waitForState(s, `/user/migrations/${r.body.id}`, userOnly);
    expect(await archiveStatus(`/user/migrations/${r.body.id}/archive`, userOnly)).toBe(302);
  });

  it('cannot download an archive holding a private repository, even one it did not start', async () => {
    const r = await s.api('POST', '/user/migrations', { token: full, body: { repositories: ['pub', 'priv'] } });
    expect(r.status).toBe(201);
    await waitForState(s, `/user/migrations/${r.body.id}`, full);
    expect(await archiveStatus(`/user/migrations/${r.body.id}/archive`, full)).toBe(302);
    const refused = await s.api('GET', `/user/migrations/${r.body.id}/archive`, { token: userOnly });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('Not Found');
  });

  it('is not shown the private repositories of a migration either, only the ones GET /repos shows it', async () => {
    const r = await s.api('POST', '/user/migrations', { token: full, body: { repositories: ['priv', 'pub'] } });
    expect(r.status).toBe(201);
    const names = (list: { full_name: string }[]) => list.map((x) => x.full_name);
    expect(names(r.body.repositories)).toEqual(['alice/priv', 'alice/pub']);
    expect(names((await s.api('GET', `/user/migrations/${r.body.id}`, { token: userOnly })).body.repositories)).toEqual(['alice/pub']);
    expect(names((await s.api('GET', `/user/migrations/${r.body.id}/repositories`, { token: userOnly })).body)).toEqual(['alice/pub']);
    const listed = (await s.api('GET', '/user/migrations', { token: userOnly })).body.find((m: { id: number }) => m.id === r.body.id);
    expect(names(listed.repositories)).toEqual(['alice/pub']);
    expect(names((await s.api('GET', `/user/migrations/${r.body.id}/repositories`, { token: full })).body)).toEqual([
      'alice/priv',
      'alice/pub',
    ]);
  });
});

describe('organization migrations', () => {
  it('an owner whose token lacks `repo` cannot export the organization’s private repositories', async () => {
    const orgOnly = await s.createToken('alice', { scopes: ['admin:org'] });
    expect((await s.api('GET', '/repos/acme/vault', { token: orgOnly })).status).toBe(404);
    const r = await s.api('POST', '/orgs/acme/migrations', { token: orgOnly, body: { repositories: ['vault'] } });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([invalid('vault', 0)]);
    expect((await s.api('POST', '/orgs/acme/migrations', { token: full, body: { repositories: ['vault'] } })).status).toBe(201);
  });
});
