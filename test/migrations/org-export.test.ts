// An organization migration from start to download: the archive's layout, every JSON record, and each repository cloned back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { downloadArchive, git, readJson, repoWithHistory, tar, tempDir, waitForState } from './support.js';

let server: TestServer;
let mona: { login: string; token: string };
let tmp: string;
const refs: Record<string, Record<string, string>> = {};
const OFFSET_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

beforeAll(async () => {
  server = await startServer();
  tmp = tempDir();
  mona = await server.userWithToken('mona', ['repo', 'admin:org']);
  await server.createUser('hubot', { email: 'hubot@example.com' });
  await server.createOrg('octo-org', 'mona');
  await server.addMember('octo-org', 'hubot');
  for (const [name, priv] of [
    ['alpha', false],
    ['beta', true],
    ['gamma', false],
  ] as const) {
    refs[name] = (await repoWithHistory(server, mona.token, { org: 'octo-org' }, name, { private: priv })).refs;
  }
});
afterAll(async () => {
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('POST /orgs/{org}/migrations → archive', () => {
  let id: number;
  let guid: string;

  it('starts an export: 201, state pending, a guid and the full Repository objects', async () => {
    const octokit = server.octokit(mona.token);
    const res = await octokit.rest.migrations.startForOrg({ org: 'octo-org', repositories: ['alpha', 'octo-org/beta'] });
    expect(res.status).toBe(201);
    const m = res.data;
    expect(m.state).toBe('pending');
    expect(m.guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(m.repositories.map((r) => r.full_name)).toEqual(['octo-org/alpha', 'octo-org/beta']);
    expect(m.repositories[1]).toMatchObject({ private: true, owner: { login: 'octo-org' }, permissions: { admin: true } });
    expect(m.owner).toMatchObject({ login: 'octo-org', type: 'Organization', url: `${server.url}/orgs/octo-org` });
    expect(m).toMatchObject({ lock_repositories: false, exclude_git_data: false, exclude_metadata: false, org_metadata_only: false });
    expect(m.url).toBe(`${server.url}/orgs/octo-org/migrations/${m.id}`);
    expect(m.created_at).toMatch(OFFSET_TIME);
    expect(m.updated_at).toMatch(OFFSET_TIME);
    id = m.id;
    guid = m.guid;
  });

  it('moves to exported, with a downloadable archive', async () => {
    const m = await waitForState(server, `/orgs/octo-org/migrations/${id}`, mona.token);
    expect(m.state).toBe('exported');
    const r = await server.api('GET', `/orgs/octo-org/migrations/${id}`, { token: mona.token });
    checkSchema(r, 'GET /orgs/{org}/migrations/{migration_id}');
    expect(r.body.archive_url).toBe(`${server.url}/orgs/octo-org/migrations/${id}/archive`);
  });

  it('answers the archive with 302 to a signed URL that serves a gzipped tar GNU tar reads', async () => {
    const file = path.join(tmp, 'org.tar.gz');
    const { location, bytes } = await downloadArchive(server, `/orgs/octo-org/migrations/${id}/archive`, mona.token, file);
    expect(location).toMatch(new RegExp(`^${server.url}/storage/migrations/${guid}\\.tar\\.gz\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const listing = (await tar(['-tzf', file], tmp)).trim().split('\n');
    expect(listing.slice(0, 5)).toEqual([
      'schema.json',
      'urls.json',
      'organizations_000001.json',
      'users_000001.json',
      'repositories_000001.json',
    ]);
    expect(listing).toContain('repositories/octo-org/alpha.git/HEAD');
    expect(listing).toContain('repositories/octo-org/beta.git/config');
    const out = path.join(tmp, 'org');
    fs.mkdirSync(out);
    await tar(['-xzf', file], out);
    expect(fs.readdirSync(out).sort()).toEqual([
      'organizations_000001.json',
      'repositories',
      'repositories_000001.json',
      'schema.json',
      'urls.json',
      'users_000001.json',
    ]);
  });

  it('writes schema.json and urls.json as GitHub does', () => {
    const out = path.join(tmp, 'org');
    expect(readJson(out, 'schema.json')).toEqual({ version: '1.0.1' });
    const urls = readJson(out, 'urls.json');
    expect(urls).toMatchObject({
      user: '{scheme}://{host}/{user}',
      organization: '{scheme}://{host}/{organization}',
      repository: '{scheme}://{host}/{owner}/{repository}',
      issue: '{scheme}://{host}/{owner}/{repository}/issues/{issue}',
      issue_comment: { issue: '{scheme}://{host}/{owner}/{repository}/issues/{number}#issuecomment-{issue_comment}' },
    });
  });

  it('records the organization with its members, and every member as a user', () => {
    const out = path.join(tmp, 'org');
    const orgs = readJson(out, 'organizations_000001.json');
    expect(orgs).toHaveLength(1);
    expect(orgs[0]).toMatchObject({
      type: 'organization',
      url: `${server.url}/octo-org`,
      login: 'octo-org',
      members: [
        { user: `${server.url}/hubot`, role: 'direct_member', state: 'active' },
        { user: `${server.url}/mona`, role: 'admin', state: 'active' },
      ],
    });
    expect(orgs[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    const users = readJson(out, 'users_000001.json');
    expect(users.map((u: { login: string }) => u.login)).toEqual(['hubot', 'mona']);
    expect(users[0]).toMatchObject({
      type: 'user',
      url: `${server.url}/hubot`,
      login: 'hubot',
      emails: [{ address: 'hubot@example.com', primary: true }],
    });
  });

  it('records each repository with its git_url into the archive', () => {
    const out = path.join(tmp, 'org');
    const repos = readJson(out, 'repositories_000001.json');
    expect(repos).toHaveLength(2);
    expect(repos[0]).toEqual({
      type: 'repository',
      url: `${server.url}/octo-org/alpha`,
      owner: `${server.url}/octo-org`,
      name: 'alpha',
      description: 'the alpha repository',
      website: null,
      private: false,
      has_issues: true,
      has_wiki: true,
      has_downloads: true,
      is_archived: false,
      created_at: expect.stringMatching(/\+00:00$/),
      git_url: 'tarball://root/repositories/octo-org/alpha.git',
      wiki_url: null,
      default_branch: 'main',
      page: null,
      general_settings: expect.objectContaining({ template: false, allow_forking: true }),
      labels: [],
      collaborators: [],
      webhooks: [],
      public_keys: [],
      autolinks: [],
      repository_topics: [],
    });
    expect(repos[1]).toMatchObject({ name: 'beta', private: true, git_url: 'tarball://root/repositories/octo-org/beta.git' });
  });

  it('holds complete bare repositories that git clones with every branch and tag', async () => {
    for (const name of ['alpha', 'beta']) {
      const bare = path.join(tmp, 'org', 'repositories', 'octo-org', `${name}.git`);
      await git(['fsck', '--full', '--no-progress'], bare);
      expect(await git(['config', '--get-regexp', '^remote\\.'], bare).catch(() => '')).toBe('');
      const clone = path.join(tmp, `clone-${name}`);
      await git(['clone', '-q', bare, clone], tmp);
      expect(fs.readFileSync(path.join(clone, 'src', 'main.ts'), 'utf8')).toBe(`export const name = ${JSON.stringify(name)};\n`);
      const shown: Record<string, string> = {};
      for (const line of (await git(['show-ref'], bare)).trim().split('\n')) {
        const [sha, ref] = line.split(' ');
        shown[ref] = sha;
      }
      expect(shown).toEqual(refs[name]);
      expect((await git(['symbolic-ref', 'HEAD'], bare)).trim()).toBe('refs/heads/main');
    }
    expect(fs.existsSync(path.join(tmp, 'org', 'repositories', 'octo-org', 'gamma.git'))).toBe(false);
  });

  it('lists the migration with repositories, and the migration repositories', async () => {
    const list = await server.api('GET', '/orgs/octo-org/migrations', { token: mona.token });
    checkSchema(list, 'GET /orgs/{org}/migrations');
    expect(list.body.map((m: { id: number }) => m.id)).toEqual([id]);
    expect(list.body[0].repositories.map((r: { name: string }) => r.name)).toEqual(['alpha', 'beta']);
    const repos = await server.api('GET', `/orgs/octo-org/migrations/${id}/repositories`, { token: mona.token });
    checkSchema(repos, 'GET /orgs/{org}/migrations/{migration_id}/repositories');
    expect(repos.body.map((r: { full_name: string }) => r.full_name)).toEqual(['octo-org/alpha', 'octo-org/beta']);
    expect(repos.body[0].has_downloads).toBe(true);
    // As of API version 2026-03-10 repositories no longer carry has_downloads.
    const v2 = await server.api('GET', `/orgs/octo-org/migrations/${id}/repositories`, {
      token: mona.token,
      headers: { 'x-service-api-version': '2026-03-10' },
    });
    checkSchema(v2, 'GET /orgs/{org}/migrations/{migration_id}/repositories');
    expect(v2.body[0]).not.toHaveProperty('has_downloads');
  });
});
