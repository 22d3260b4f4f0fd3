// The start flags are stored, returned and obeyed: exclude_git_data, exclude_metadata, org_metadata_only, exclude, and 100 records per file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { downloadArchive, listFiles, readJson, repoWithHistory, tar, tempDir, waitForState } from './support.js';

let server: TestServer;
let mona: { token: string };
let tmp: string;
const ORG = '/orgs/octo-org/migrations';

beforeAll(async () => {
  server = await startServer();
  tmp = tempDir();
  mona = await server.userWithToken('mona', ['repo', 'admin:org']);
  await server.createOrg('octo-org', 'mona');
  await repoWithHistory(server, mona.token, { org: 'octo-org' }, 'alpha');
  const extra = await server.api('POST', '/orgs/octo-org/repos', { token: mona.token, body: { name: 'tagged' } });
  expect(extra.status).toBe(201);
  // hublet has no topics endpoint yet: the topic is set in the database.
  await server.db.updateTable('repositories').set({ topics: '["x"]' }).where('id', '=', extra.body.id).execute();
});
afterAll(async () => {
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Starts, waits for the export, downloads and extracts; returns the extracted directory and the migration. */
async function exportAndExtract(name: string, body: Record<string, unknown>): Promise<{ dir: string; migration: any }> {
  const r = await server.api('POST', ORG, { token: mona.token, body });
  expect(r.status).toBe(201);
  const migration = await waitForState(server, `${ORG}/${r.body.id}`, mona.token);
  expect(migration.state).toBe('exported');
  const file = path.join(tmp, `${name}.tar.gz`);
  await downloadArchive(server, `${ORG}/${r.body.id}/archive`, mona.token, file);
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  await tar(['-xzf', file], dir);
  return { dir, migration };
}

describe('start flags', () => {
  it('stores and returns every flag', async () => {
    const flags = {
      lock_repositories: false,
      exclude_metadata: true,
      exclude_git_data: true,
      exclude_attachments: true,
      exclude_releases: true,
      exclude_owner_projects: true,
    };
    const r = await server.api('POST', ORG, { token: mona.token, body: { repositories: ['alpha'], ...flags } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ ...flags, org_metadata_only: false });
    const again = await server.api('GET', `${ORG}/${r.body.id}`, { token: mona.token });
    expect(again.body).toMatchObject({ ...flags, org_metadata_only: false });
    await waitForState(server, `${ORG}/${r.body.id}`, mona.token);
  });

  it('exclude_git_data leaves the repositories directory out but keeps the records', async () => {
    const { dir } = await exportAndExtract('no-git', { repositories: ['alpha'], exclude_git_data: true });
    expect(listFiles(dir)).toEqual([
      'organizations_000001.json',
      'repositories_000001.json',
      'schema.json',
      'urls.json',
      'users_000001.json',
    ]);
    expect(readJson(dir, 'repositories_000001.json')[0]).toMatchObject({
      name: 'alpha',
      git_url: 'tarball://root/repositories/octo-org/alpha.git',
    });
  });

  it('exclude_metadata keeps only the git source and the repository itself; attachments, releases and projects never appear', async () => {
    const { dir } = await exportAndExtract('no-meta', {
      repositories: ['tagged'],
      exclude_metadata: true,
      exclude_attachments: true,
      exclude_releases: true,
      exclude_owner_projects: true,
    });
    const record = readJson(dir, 'repositories_000001.json')[0];
    expect(Object.keys(record).sort()).toEqual([
      'created_at',
      'default_branch',
      'description',
      'general_settings',
      'git_url',
      'has_downloads',
      'has_issues',
      'has_wiki',
      'is_archived',
      'name',
      'owner',
      'page',
      'private',
      'type',
      'url',
      'website',
      'wiki_url',
    ]);
    expect(fs.existsSync(path.join(dir, 'repositories', 'octo-org', 'tagged.git', 'HEAD'))).toBe(true);
    expect(listFiles(dir).filter((f) => /attachments|releases|projects/.test(f))).toEqual([]);
    const { dir: withMeta } = await exportAndExtract('with-meta', { repositories: ['tagged'] });
    expect(readJson(withMeta, 'repositories_000001.json')[0].repository_topics).toEqual([
      { name: 'x', repository: `${server.url}/octo-org/tagged` },
    ]);
  });

  it('org_metadata_only exports the organization and its people only', async () => {
    const { dir, migration } = await exportAndExtract('org-only', { repositories: [], org_metadata_only: true });
    expect(migration.org_metadata_only).toBe(true);
    expect(migration.repositories).toEqual([]);
    expect(listFiles(dir)).toEqual(['organizations_000001.json', 'schema.json', 'urls.json', 'users_000001.json']);
    expect(readJson(dir, 'organizations_000001.json')[0]).toMatchObject({
      login: 'octo-org',
      members: [{ user: `${server.url}/mona`, role: 'admin' }],
    });
  });

  it('writes 100 records per file: the 101st repository goes to repositories_000002.json', async () => {
    const names: string[] = [];
    for (let i = 0; i < 101; i++) {
      const name = `bulk-${String(i).padStart(3, '0')}`;
      expect((await server.api('POST', '/orgs/octo-org/repos', { token: mona.token, body: { name } })).status).toBe(201);
      names.push(name);
    }
    const { dir } = await exportAndExtract('bulk', { repositories: names, exclude_git_data: true });
    const first = readJson(dir, 'repositories_000001.json');
    const second = readJson(dir, 'repositories_000002.json');
    expect(first).toHaveLength(100);
    expect(second.map((r: { name: string }) => r.name)).toEqual(['bulk-100']);
    expect(first[0].name).toBe('bulk-000');
  });
});

describe('exclude: ["repositories"]', () => {
  it('leaves repositories out of the start response when the body asks', async () => {
    const r = await server.api('POST', ORG, { token: mona.token, body: { repositories: ['alpha'], exclude: ['repositories'] } });
    expect(r.status).toBe(201);
    expect(r.body.repositories).toBeUndefined();
    expect(r.body.exclude).toEqual(['repositories']);
    await waitForState(server, `${ORG}/${r.body.id}`, mona.token);
  });

  it('accepts exclude=repositories, exclude[]=repositories and comma lists on get and list', async () => {
    const id = (await server.api('GET', ORG, { token: mona.token })).body[0].id;
    for (const query of [
      'exclude=repositories',
      'exclude[]=repositories',
      'exclude=owner,repositories',
      'exclude[]=owner&exclude[]=repositories',
    ]) {
      const one = await server.api('GET', `${ORG}/${id}?${query}`, { token: mona.token });
      expect([query, one.status, one.body.repositories]).toEqual([query, 200, undefined]);
      const list = await server.api('GET', `${ORG}?${query}`, { token: mona.token });
      expect([query, list.body.every((m: { repositories?: unknown }) => m.repositories === undefined)]).toEqual([query, true]);
    }
    const full = await server.api('GET', `${ORG}/${id}?exclude=owner`, { token: mona.token });
    checkSchema(full, 'GET /orgs/{org}/migrations/{migration_id}');
    expect(full.body.repositories).toHaveLength(1);
  });

  it('pages the list with per_page and Link headers', async () => {
    const total = (await server.api('GET', `${ORG}?per_page=100&exclude=repositories`, { token: mona.token })).body.length;
    expect(total).toBeGreaterThan(3);
    const page = await server.api('GET', `${ORG}?per_page=2&page=2&exclude=repositories`, { token: mona.token });
    expect(page.body).toHaveLength(2);
    const link = page.headers.get('link')!;
    expect(link).toContain(`<${server.url}${ORG}?per_page=2&page=3&exclude=repositories>; rel="next"`);
    expect(link).toContain(`rel="prev"`);
    expect(link).toContain(`page=${Math.ceil(total / 2)}&exclude=repositories>; rel="last"`);
    const octokit = server.octokit(mona.token);
    const all = await octokit.paginate(octokit.rest.migrations.listForOrg, { org: 'octo-org', per_page: 2, exclude: ['repositories'] });
    expect(all).toHaveLength(total);
  });
});
