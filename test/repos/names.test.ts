// Repository names at creation, rename and import: `.git` suffixes go, and nothing that normalises to ``, `.`, `..` or `.git` is accepted.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { tempDir, workingCopy } from './helpers.js';

vi.setConfig({ testTimeout: 120_000 });

let s: TestServer;
let alice: { login: string; id: number; token: string };
let source: string;
const tmp = tempDir();

beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice', ['repo', 'delete_repo', 'admin:org']);
  await s.createOrg('acme', 'alice');
  source = await workingCopy(path.join(tmp.dir, 'source'), [{ message: 'one', files: { 'README.md': '# source\n' } }]);
});
afterAll(async () => {
  await s?.close();
  tmp.cleanup();
});

/** Names that are nothing once normalised: each is a 422 naming the field, wherever a name is given. */
const refused = ['.git', '.git.git', '.GIT.git', '.git.git.git', '..git', '...git', '.', '..', '..git.git'];

function expectRefused(r: { status: number; body: any; text: string }, name: string) {
  expect(r.status, `${name}: ${r.text}`).toBe(422);
  expect(r.body).toMatchObject({ message: 'Validation Failed', documentation_url: expect.any(String), status: '422' });
  expect(r.body.errors[0]).toMatchObject({ resource: 'Repository', field: 'name', code: 'custom' });
}

describe('POST /user/repos and /orgs/{org}/repos', () => {
  it('refuses names that normalise to nothing, to . or .., or to .git', async () => {
    for (const name of refused) {
      expectRefused(await s.api('POST', '/user/repos', { token: alice.token, body: { name } }), name);
      expectRefused(await s.api('POST', '/orgs/acme/repos', { token: alice.token, body: { name } }), name);
    }
    const listed = await s.api('GET', '/user/repos', { token: alice.token });
    expect(listed.body).toEqual([]);
  });

  it('drops every .git suffix, so no stored name ends with .git', async () => {
    for (const [requested, expected] of [
      ['tools.git.git', 'tools'],
      ['a.GIT.git', 'a'],
      ['.github.git', '.github'],
      ['x.git-y.git', 'x.git-y'],
    ]) {
      const r = await s.api('POST', '/user/repos', { token: alice.token, body: { name: requested } });
      expect(r.status, requested).toBe(201);
      expect(r.body.name, requested).toBe(expected);
      expect(r.body.clone_url).toBe(`${s.url}/alice/${expected}.git`);
    }
  });
});

describe('PATCH /repos/{owner}/{repo} name', () => {
  it('refuses a rename to a name that normalises to nothing, . or .., or .git, and keeps the old name', async () => {
    expect((await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'keep' } })).status).toBe(201);
    for (const name of refused) expectRefused(await s.api('PATCH', '/repos/alice/keep', { token: alice.token, body: { name } }), name);
    const r = await s.api('GET', '/repos/alice/keep', { token: alice.token });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('keep');
  });

  it('renames to the normalised name', async () => {
    const r = await s.api('PATCH', '/repos/alice/keep', { token: alice.token, body: { name: 'kept.git.git' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.full_name).toBe('alice/kept');
  });
});

describe('POST /admin/repos/import name', () => {
  it('refuses an import under a name that normalises to nothing, . or .., or .git', async () => {
    for (const name of ['.git.git', '..', '.git']) {
      expectRefused(
        await s.api('POST', '/admin/repos/import', { token: s.adminToken, body: { owner: 'alice', name, path: source } }),
        name,
      );
    }
    expect((await s.api('GET', '/repos/alice/.git', { token: alice.token })).status).toBe(404);
  });

  it('imports under the normalised name', async () => {
    const r = await s.api('POST', '/admin/repos/import', {
      token: s.adminToken,
      body: { owner: 'alice', name: 'copy.git.git', path: source },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.full_name).toBe('alice/copy');
  });
});
