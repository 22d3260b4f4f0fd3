// A user migration from start to download through Octokit: the user's archive, its records and its repositories cloned back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { git, listFiles, readJson, repoWithHistory, tar, tempDir, waitForState } from './support.js';

let server: TestServer;
let octocat: { login: string; token: string };
let tmp: string;
const refs: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  server = await startServer();
  tmp = tempDir();
  const user = await server.createUser('octocat', { email: 'octocat@example.com' });
  octocat = { login: user.login, token: await server.createToken('octocat', { scopes: ['repo'] }) };
  refs.hello = (await repoWithHistory(server, octocat.token, {}, 'Hello-World')).refs;
  refs.secret = (await repoWithHistory(server, octocat.token, {}, 'secret', { private: true })).refs;
});
afterAll(async () => {
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('POST /user/migrations → archive', () => {
  let id: number;

  it('starts (201 pending) with the repositories named by name or owner/name', async () => {
    const r = await server.api('POST', '/user/migrations', {
      token: octocat.token,
      body: { repositories: ['Hello-World', 'octocat/secret'], exclude_attachments: true },
    });
    expect(r.status).toBe(201);
    checkSchema(r, 'POST /user/migrations');
    expect(r.body).toMatchObject({ state: 'pending', exclude_attachments: true, owner: { login: 'octocat', type: 'User' } });
    expect(r.body.url).toBe(`${server.url}/user/migrations/${r.body.id}`);
    expect(r.body.repositories.map((x: { full_name: string }) => x.full_name)).toEqual(['octocat/Hello-World', 'octocat/secret']);
    id = r.body.id;
  });

  it('reports its state through Octokit until exported', async () => {
    await waitForState(server, `/user/migrations/${id}`, octocat.token);
    const { data } = await server.octokit(octocat.token).rest.migrations.getStatusForAuthenticatedUser({ migration_id: id });
    expect(data.state).toBe('exported');
    const list = await server.octokit(octocat.token).rest.migrations.listForAuthenticatedUser();
    expect(list.data.map((m) => m.id)).toEqual([id]);
    const repos = await server.octokit(octocat.token).rest.migrations.listReposForAuthenticatedUser({ migration_id: id });
    expect(repos.data.map((r) => r.name)).toEqual(['Hello-World', 'secret']);
  });

  it('downloads through Octokit (which follows the redirect) a tar.gz with the user and their repositories', async () => {
    const res = await server.octokit(octocat.token).rest.migrations.getArchiveForAuthenticatedUser({ migration_id: id });
    expect(res.status).toBe(200);
    const file = path.join(tmp, 'user.tar.gz');
    fs.writeFileSync(file, Buffer.from(res.data as unknown as ArrayBuffer));
    const out = path.join(tmp, 'user');
    fs.mkdirSync(out);
    await tar(['-xzf', file], out);
    const files = listFiles(out);
    expect(files.filter((f) => !f.startsWith('repositories/'))).toEqual([
      'repositories_000001.json',
      'schema.json',
      'urls.json',
      'users_000001.json',
    ]);
    expect(readJson(out, 'users_000001.json')).toEqual([
      {
        type: 'user',
        url: `${server.url}/octocat`,
        avatar_url: `${server.url}/avatars/octocat`,
        login: 'octocat',
        name: null,
        bio: null,
        company: null,
        website: null,
        location: null,
        emails: [{ address: 'octocat@example.com', primary: true, verified: true }],
        billing_plan: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
      },
    ]);
    const repos = readJson(out, 'repositories_000001.json');
    expect(repos.map((r: { git_url: string }) => r.git_url)).toEqual([
      'tarball://root/repositories/octocat/Hello-World.git',
      'tarball://root/repositories/octocat/secret.git',
    ]);
    expect(repos.map((r: { owner: string }) => r.owner)).toEqual([`${server.url}/octocat`, `${server.url}/octocat`]);
    for (const [name, key] of [
      ['Hello-World', 'hello'],
      ['secret', 'secret'],
    ]) {
      const clone = path.join(tmp, `clone-${name}`);
      await git(['clone', '-q', '--mirror', path.join(out, 'repositories', 'octocat', `${name}.git`), clone], tmp);
      const shown = Object.fromEntries(
        (await git(['show-ref'], clone))
          .trim()
          .split('\n')
          .map((l) => l.split(' ').reverse()),
      );
      expect(shown).toEqual(refs[key]);
    }
  });
});
