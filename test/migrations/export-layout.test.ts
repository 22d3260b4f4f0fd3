// A real exported archive checked against the layout GitHub's importers read (docs/migrations.md, What an export holds):
// every file, every field with its type, and the info/nwo and info/last-sync files in each bare repository.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { downloadArchive, git, listFiles, readJson, repoWithHistory, tar, tempDir, waitForState } from './support.js';

/** A field's JSON type as the description states it; `X|null` allows null. */
type FieldType = 'string' | 'string|null' | 'boolean' | 'null' | 'array' | 'object' | 'object|null';
type Fields = Record<string, FieldType>;

/** Times in records: ISO 8601 with milliseconds and a numeric offset, as GitHub's archives write them. */
const ARCHIVE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;

/** The layout, file by file: what every record of each JSON file holds (docs/migrations.md's table says the same). */
const USER: Fields = {
  type: 'string',
  url: 'string',
  avatar_url: 'string',
  login: 'string',
  name: 'string|null',
  bio: 'string|null',
  company: 'string|null',
  website: 'string|null',
  location: 'string|null',
  emails: 'array',
  billing_plan: 'null',
  created_at: 'string',
};
const EMAIL: Fields = { address: 'string', primary: 'boolean', verified: 'boolean' };
const ORGANIZATION: Fields = {
  type: 'string',
  url: 'string',
  login: 'string',
  name: 'string|null',
  description: 'string|null',
  website: 'string|null',
  location: 'string|null',
  email: 'string|null',
  members: 'array',
  created_at: 'string',
};
const MEMBER: Fields = { user: 'string', role: 'string', state: 'string' };
/** A repository record without metadata (`exclude_metadata`); the metadata fields follow. */
const REPOSITORY: Fields = {
  type: 'string',
  url: 'string',
  owner: 'string',
  name: 'string',
  description: 'string|null',
  website: 'string|null',
  private: 'boolean',
  has_issues: 'boolean',
  has_wiki: 'boolean',
  has_downloads: 'boolean',
  is_archived: 'boolean',
  created_at: 'string',
  git_url: 'string',
  wiki_url: 'null',
  default_branch: 'string',
  page: 'null',
  general_settings: 'object',
};
const REPOSITORY_METADATA: Fields = {
  labels: 'array',
  collaborators: 'array',
  webhooks: 'array',
  public_keys: 'array',
  autolinks: 'array',
  repository_topics: 'array',
};
const GENERAL_SETTINGS: Fields = {
  template: 'boolean',
  allow_forking: 'boolean',
  projects: 'boolean',
  discussions: 'boolean',
  merge_commit: 'boolean',
  squash_merge: 'boolean',
  rebase_merge: 'boolean',
  auto_merge: 'boolean',
  delete_branch_heads: 'boolean',
  update_branch: 'boolean',
};
const TOPIC: Fields = { name: 'string', repository: 'string' };
const URL_TEMPLATES = [
  'user',
  'organization',
  'team',
  'repository',
  'protected_branch',
  'milestone',
  'issue',
  'pull_request',
  'pull_request_review_comment',
  'pull_request_review',
  'commit_comment',
  'issue_comment',
  'issue_event',
  'release',
  'label',
];

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The record holds exactly the described fields (none missing, none undescribed), each of its type. */
function expectShape(record: Record<string, unknown>, fields: Fields, what: string): void {
  expect(Object.keys(record).sort(), `${what}: its fields`).toEqual(Object.keys(fields).sort());
  for (const [name, type] of Object.entries(fields)) {
    expect(type.split('|'), `${what}.${name} is ${JSON.stringify(record[name])}`).toContain(typeOf(record[name]));
  }
}

let server: TestServer;
let mona: { token: string };
let tmp: string;
let started: Date;

/** Runs an export to the end and unpacks its archive into a fresh directory. */
async function exportAndUnpack(startPath: string, body: unknown, name: string): Promise<string> {
  const r = await server.api('POST', startPath, { token: mona.token, body });
  expect(r.status).toBe(201);
  const m = await waitForState(server, `${startPath}/${r.body.id}`, mona.token);
  expect(m.state).toBe('exported');
  const file = path.join(tmp, `${name}.tar.gz`);
  await downloadArchive(server, `${startPath}/${r.body.id}/archive`, mona.token, file);
  const out = path.join(tmp, name);
  fs.mkdirSync(out);
  await tar(['-xzf', file], out);
  return out;
}

beforeAll(async () => {
  server = await startServer();
  tmp = tempDir();
  started = new Date(Math.floor(Date.now() / 1000) * 1000);
  mona = await server.userWithToken('mona', ['repo', 'admin:org', 'user']);
  await server.createUser('hubot', { email: 'hubot@example.com' });
  await server.createOrg('octo-org', 'mona');
  await server.addMember('octo-org', 'hubot');
  await repoWithHistory(server, mona.token, { org: 'octo-org' }, 'alpha');
  await repoWithHistory(server, mona.token, { org: 'octo-org' }, 'beta', { private: true });
  await repoWithHistory(server, mona.token, {}, 'notes');
  const topics = await server.api('PUT', '/repos/octo-org/alpha/topics', { token: mona.token, body: { names: ['tools', 'cli'] } });
  expect(topics.status).toBe(200);
  const edited = await server.api('PATCH', '/repos/octo-org/beta', {
    token: mona.token,
    body: { allow_forking: false, is_template: true, delete_branch_on_merge: true },
  });
  expect(edited.status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('an organization export, against the described layout', () => {
  let out: string;

  beforeAll(async () => {
    out = await exportAndUnpack('/orgs/octo-org/migrations', { repositories: ['alpha', 'beta'] }, 'org');
  });

  it('holds every described file and nothing else', () => {
    const top = fs.readdirSync(out).sort();
    expect(top).toEqual([
      'organizations_000001.json',
      'repositories',
      'repositories_000001.json',
      'schema.json',
      'urls.json',
      'users_000001.json',
    ]);
    expect(fs.readdirSync(path.join(out, 'repositories'))).toEqual(['octo-org']);
    expect(fs.readdirSync(path.join(out, 'repositories', 'octo-org')).sort()).toEqual(['alpha.git', 'beta.git']);
  });

  it('schema.json names GitHub archive version 1.0.1; urls.json has every URL template', () => {
    expect(readJson(out, 'schema.json')).toEqual({ version: '1.0.1' });
    const urls = readJson(out, 'urls.json');
    expect(Object.keys(urls).sort()).toEqual([...URL_TEMPLATES].sort());
    for (const key of URL_TEMPLATES) {
      const value = urls[key];
      const templates: unknown[] = typeof value === 'string' ? [value] : Object.values(value);
      for (const t of templates) expect(t, key).toMatch(/^\{scheme\}:\/\/\{host\}\//);
    }
  });

  it('organizations_000001.json: the organization with its members', () => {
    const [org, ...rest] = readJson(out, 'organizations_000001.json');
    expect(rest).toEqual([]);
    expectShape(org, ORGANIZATION, 'organization');
    expect(org).toMatchObject({ type: 'organization', url: `${server.url}/octo-org`, login: 'octo-org' });
    expect(org.created_at).toMatch(ARCHIVE_TIME);
    for (const m of org.members) expectShape(m, MEMBER, 'member');
    expect(org.members.map((m: { user: string; role: string }) => `${m.user} ${m.role}`).sort()).toEqual([
      `${server.url}/hubot direct_member`,
      `${server.url}/mona admin`,
    ]);
  });

  it('users_000001.json: every member as a user record', () => {
    const users = readJson(out, 'users_000001.json');
    expect(users.map((u: { login: string }) => u.login)).toEqual(['hubot', 'mona']);
    for (const u of users) {
      expectShape(u, USER, `user ${u.login}`);
      expect(u.created_at).toMatch(ARCHIVE_TIME);
      expect(u.url).toBe(`${server.url}/${u.login}`);
      for (const e of u.emails) expectShape(e, EMAIL, `email of ${u.login}`);
    }
    expect(users[0].emails).toEqual([{ address: 'hubot@example.com', primary: true, verified: true }]);
    expect(users[0].avatar_url).toBe(`${server.url}/avatars/hubot`);
  });

  it('repositories_000001.json: the full repository record, wiki_url null rather than absent, settings as stored', () => {
    const repos = readJson(out, 'repositories_000001.json');
    expect(repos.map((r: { name: string }) => r.name)).toEqual(['alpha', 'beta']);
    for (const r of repos) {
      expectShape(r, { ...REPOSITORY, ...REPOSITORY_METADATA }, `repository ${r.name}`);
      expectShape(r.general_settings, GENERAL_SETTINGS, `general_settings of ${r.name}`);
      expect(r.created_at).toMatch(ARCHIVE_TIME);
      expect(r.git_url).toBe(`tarball://root/repositories/octo-org/${r.name}.git`);
      expect(Object.hasOwn(r, 'wiki_url')).toBe(true);
      for (const t of r.repository_topics) expectShape(t, TOPIC, `topic of ${r.name}`);
    }
    expect(repos[0].repository_topics.map((t: { name: string }) => t.name).sort()).toEqual(['cli', 'tools']);
    expect(repos[0].general_settings).toMatchObject({ template: false, allow_forking: true, delete_branch_heads: false });
    expect(repos[1]).toMatchObject({
      private: true,
      general_settings: { template: true, allow_forking: false, delete_branch_heads: true },
    });
  });

  it('each bare repository carries info/nwo (owner/name) and info/last-sync (when it was copied, UTC), and passes git fsck', async () => {
    for (const name of ['alpha', 'beta']) {
      const bare = path.join(out, 'repositories', 'octo-org', `${name}.git`);
      expect(fs.readFileSync(path.join(bare, 'info', 'nwo'), 'utf8')).toBe(`octo-org/${name}\n`);
      const lastSync = fs.readFileSync(path.join(bare, 'info', 'last-sync'), 'utf8');
      expect(lastSync).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      const at = Date.parse(`${lastSync}Z`);
      expect(at).toBeGreaterThanOrEqual(started.getTime());
      expect(at).toBeLessThanOrEqual(Date.now());
      await git(['fsck', '--full', '--no-progress'], bare);
    }
  });
});

describe('a user export, against the described layout', () => {
  it('has no organizations file; the user, the repository record and its info files as described', async () => {
    const out = await exportAndUnpack('/user/migrations', { repositories: ['notes'] }, 'user');
    expect(listFiles(out).filter((f) => !f.startsWith('repositories/'))).toEqual([
      'repositories_000001.json',
      'schema.json',
      'urls.json',
      'users_000001.json',
    ]);
    const [user] = readJson(out, 'users_000001.json');
    expectShape(user, USER, 'user');
    expect(user).toMatchObject({ login: 'mona', billing_plan: null, emails: [] });
    const [repo] = readJson(out, 'repositories_000001.json');
    expectShape(repo, { ...REPOSITORY, ...REPOSITORY_METADATA }, 'repository');
    expect(repo).toMatchObject({
      owner: `${server.url}/mona`,
      git_url: 'tarball://root/repositories/mona/notes.git',
      wiki_url: null,
      page: null,
    });
    expect(fs.readFileSync(path.join(out, 'repositories', 'mona', 'notes.git', 'info', 'nwo'), 'utf8')).toBe('mona/notes\n');
  });

  it('exclude_metadata leaves out exactly the metadata fields', async () => {
    const out = await exportAndUnpack('/user/migrations', { repositories: ['notes'], exclude_metadata: true }, 'user-plain');
    const [repo] = readJson(out, 'repositories_000001.json');
    expectShape(repo, REPOSITORY, 'repository without metadata');
  });
});
