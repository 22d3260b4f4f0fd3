// Repository invariants raced over HTTP: names stay unique (422, never 500), one repository's changes take turns, and a
// repository is locked by one migration at a time, whatever order concurrent requests land in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };
beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice', ['repo', 'delete_repo', 'admin:org', 'user']);
});
afterAll(async () => s?.close());

const ROUNDS = 6;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const NAME_TAKEN = { resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' };

async function createRepo(name: string, body: Record<string, unknown> = {}): Promise<void> {
  const r = await s.api('POST', '/user/repos', { token: alice.token, body: { name, ...body } });
  if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${r.text}`);
}

/** A request that does not follow redirects (a rename's old name answers with one). */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; location: string | null; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' };
  const res = await fetch(`${s.url}${path}`, {
    method,
    redirect: 'manual',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, location: res.headers.get('location'), body: text ? JSON.parse(text) : undefined };
}

const rename = (from: string, to: string) => call('PATCH', `/repos/alice/${from}`, { name: to });

describe('PATCH /repos/{owner}/{repo}, at the same moment', () => {
  it('renames one of two repositories onto a name both ask for; the other gets 422 name already exists', async () => {
    for (const i of range(ROUNDS)) {
      await createRepo(`left${i}`);
      await createRepo(`right${i}`);
      const [a, b] = await Promise.all([rename(`left${i}`, `both${i}`), rename(`right${i}`, `both${i}`)]);
      expect([a.status, b.status].sort()).toEqual([200, 422]);
      expect((a.status === 422 ? a : b).body.errors).toEqual([NAME_TAKEN]);
      expect((await s.api('GET', `/repos/alice/both${i}`, { token: alice.token })).status).toBe(200);
    }
  });

  it('gives a name to either a rename or a create asking for it at the same moment; the other gets 422', async () => {
    for (const i of range(ROUNDS)) {
      await createRepo(`mover${i}`);
      const [moved, created] = await Promise.all([
        rename(`mover${i}`, `wanted${i}`),
        s.api('POST', '/user/repos', { token: alice.token, body: { name: `wanted${i}` } }),
      ]);
      expect([
        [200, 422],
        [422, 201],
      ]).toContainEqual([moved.status, created.status]);
      expect((moved.status === 422 ? moved : created).body.errors).toEqual([NAME_TAKEN]);
    }
  });

  it('renames a repository once when two renames of it land together; the later one is redirected (307) to where it went', async () => {
    for (const i of range(ROUNDS)) {
      await createRepo(`twice${i}`);
      const [a, b] = await Promise.all([rename(`twice${i}`, `first${i}`), rename(`twice${i}`, `second${i}`)]);
      expect([a.status, b.status].sort()).toEqual([200, 307]);
      const done = a.status === 200 ? a : b;
      expect((a.status === 307 ? a : b).location).toBe(`${s.url}/repositories/${done.body.id}`);
      const moved = await call('GET', `/repos/alice/twice${i}`);
      expect(moved.status).toBe(301);
      expect(moved.location).toBe(`${s.url}/repositories/${done.body.id}`);
      expect((await s.api('GET', `/repos/alice/${done.body.name}`, { token: alice.token })).status).toBe(200);
    }
  });

  it('answers a change and a delete of one repository at the same moment without a 500 (the change first, or 404)', async () => {
    for (const i of range(ROUNDS)) {
      await createRepo(`doomed${i}`);
      const [patch, del] = await Promise.all([
        call('PATCH', `/repos/alice/doomed${i}`, { description: 'last words' }),
        call('DELETE', `/repos/alice/doomed${i}`),
      ]);
      expect(del.status).toBe(204);
      expect([200, 404]).toContain(patch.status);
      expect((await s.api('GET', `/repos/alice/doomed${i}`, { token: alice.token })).status).toBe(404);
    }
  });
});

describe('POST /user/migrations with lock_repositories, at the same moment', () => {
  it('lets one migration lock a repository; the other is refused with 422 naming the lock', async () => {
    for (const i of range(ROUNDS)) {
      await createRepo(`locked${i}`, { auto_init: true });
      const start = () =>
        s.api('POST', '/user/migrations', {
          token: alice.token,
          body: { repositories: [`locked${i}`], lock_repositories: true, exclude_git_data: true },
        });
      const [a, b] = await Promise.all([start(), start()]);
      expect([a.status, b.status].sort()).toEqual([201, 422]);
      const winner = a.status === 201 ? a : b;
      expect((a.status === 422 ? a : b).body.message).toBe(
        `Repository ${winner.body.repositories[0].id} is already locked by migration ${winner.body.id}`,
      );
    }
  });

  it('starts a migration and deletes one of its repositories at the same moment without a 500', async () => {
    for (const i of range(ROUNDS)) {
      await createRepo(`fleeting${i}`, { auto_init: true });
      const [start, del] = await Promise.all([
        s.api('POST', '/user/migrations', {
          token: alice.token,
          body: { repositories: [`fleeting${i}`], lock_repositories: true, exclude_git_data: true },
        }),
        call('DELETE', `/repos/alice/fleeting${i}`),
      ]);
      expect(del.status).toBe(204);
      // The migration either started first (201) or no longer finds the repository (422 naming it).
      expect([201, 422]).toContain(start.status);
    }
  });
});
