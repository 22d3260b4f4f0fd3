// POST /user/repos and POST /orgs/{org}/repos: the Repository object, auto_init, GitHub's name rules, who may create, events.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { eventsSince, gitOk, lastEventId, tempDir } from './helpers.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
let carol: { login: string; id: number; token: string };
let org: { login: string; id: number };
const tmp = tempDir();

beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  carol = await s.userWithToken('carol');
  org = await s.createOrg('acme', 'alice');
  await s.addMember('acme', 'bob');
});
afterAll(async () => {
  await s?.close();
  tmp.cleanup();
});

/** Every URL-valued field is absolute on this server (git_url and ssh_url name its host). */
function expectAbsoluteUrls(repo: Record<string, unknown>) {
  const host = new URL(s.url).host;
  const hostname = new URL(s.url).hostname;
  for (const [k, v] of Object.entries(repo)) {
    if (!k.endsWith('_url') && k !== 'url') continue;
    if (v === null) continue;
    if (k === 'git_url') expect(v).toBe(`git://${host}/${repo.full_name}.git`);
    else if (k === 'ssh_url') expect(v).toBe(`git@${hostname}:${repo.full_name}.git`);
    else expect(String(v).startsWith(`${s.url}/`), `${k}: ${v}`).toBe(true);
  }
}

describe('POST /user/repos', () => {
  it('creates an empty public repository in the caller’s account, with GitHub’s full Repository object', async () => {
    const before = await lastEventId(s);
    const r = await s.api('POST', '/user/repos', {
      token: alice.token,
      body: { name: 'empty', description: 'Nothing yet', homepage: 'https://example.com' },
    });
    expect(r.status).toBe(201);
    const repo = checkSchema(r, 'POST /user/repos');
    expect(r.headers.get('location')).toBe(`${s.url}/repos/alice/empty`);
    expect(repo).toMatchObject({
      name: 'empty',
      full_name: 'alice/empty',
      private: false,
      visibility: 'public',
      description: 'Nothing yet',
      homepage: 'https://example.com',
      default_branch: 'main',
      fork: false,
      archived: false,
      has_issues: true,
      has_wiki: true,
      has_projects: true,
      has_downloads: true,
      is_template: false,
      language: null,
      topics: [],
      owner: { login: 'alice', id: alice.id, type: 'User' },
      permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
      clone_url: `${s.url}/alice/empty.git`,
      html_url: `${s.url}/alice/empty`,
      url: `${s.url}/repos/alice/empty`,
      allow_squash_merge: true,
      allow_merge_commit: true,
      allow_rebase_merge: true,
    });
    expect(repo.pushed_at).toBe(repo.created_at);
    expect(repo.organization).toBeUndefined();
    expectAbsoluteUrls(repo);
    // The bare repository exists on disk, empty, keyed by the repository id.
    const dir = path.join(s.dataDir, 'git', 'repos', `${repo.id}.git`);
    expect(fs.existsSync(path.join(dir, 'HEAD'))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'HEAD'), 'utf8').trim()).toBe('ref: refs/heads/main');
    expect(await gitOk(['--git-dir', dir, 'for-each-ref'], tmp.dir)).toBe('');

    const events = await eventsSince(s, before);
    expect(events.map((e) => [e.name, e.action])).toEqual([['repository', 'created']]);
    const [created] = events;
    expect(created).toMatchObject({ repository_id: repo.id, sender_id: alice.id, org_id: null });
    expect(created.payload).toMatchObject({
      action: 'created',
      repository: { id: repo.id, full_name: 'alice/empty', private: false },
      sender: { login: 'alice' },
    });
    expect(created.payload.organization).toBeUndefined();
    expectWebhookPayload('repository', created.payload);
  });

  it('auto_init writes GitHub’s initial commit (README.md on main) and records created, then create and push', async () => {
    const before = await lastEventId(s);
    const r = await s.api('POST', '/user/repos', {
      token: alice.token,
      body: { name: 'started', description: 'A fine start', auto_init: true },
    });
    expect(r.status).toBe(201);
    const repo = checkSchema(r, 'POST /user/repos');
    expect(repo.default_branch).toBe('main');
    expect(repo.size).toBeGreaterThanOrEqual(0);
    // README.md is prose: it gives the repository no language (GitHub counts programming and markup only).
    expect(repo.language).toBeNull();

    const dir = path.join(s.dataDir, 'git', 'repos', `${repo.id}.git`);
    const head = (await gitOk(['--git-dir', dir, 'rev-parse', 'refs/heads/main'], tmp.dir)).trim();
    expect(await gitOk(['--git-dir', dir, 'show', 'main:README.md'], tmp.dir)).toBe('# started\nA fine start\n');
    expect((await gitOk(['--git-dir', dir, 'log', '--format=%s|%an', 'main'], tmp.dir)).trim()).toBe('Initial commit|alice');
    expect(await gitOk(['--git-dir', dir, 'fsck', '--strict'], tmp.dir)).toBe('');

    const events = await eventsSince(s, before);
    expect(events.map((e) => [e.name, e.action])).toEqual([
      ['repository', 'created'],
      ['create', null],
      ['push', null],
    ]);
    expect(events[1].payload).toMatchObject({
      ref: 'main',
      ref_type: 'branch',
      master_branch: 'main',
      description: 'A fine start',
      pusher_type: 'user',
    });
    expectWebhookPayload('create', events[1].payload);
    const push = events[2].payload;
    expectWebhookPayload('push', push);
    expect(push).toMatchObject({
      ref: 'refs/heads/main',
      before: '0'.repeat(40),
      after: head,
      created: true,
      deleted: false,
      forced: false,
      base_ref: null,
      compare: `${s.url}/alice/started/commit/${head}`,
      pusher: { name: 'alice' },
      sender: { login: 'alice' },
      commits: [
        {
          id: head,
          message: 'Initial commit',
          distinct: true,
          added: ['README.md'],
          removed: [],
          modified: [],
          author: { name: 'alice', username: 'alice' },
        },
      ],
      head_commit: { id: head },
      repository: {
        full_name: 'alice/started',
        url: `${s.url}/alice/started`,
        master_branch: 'main',
        owner: { login: 'alice', name: 'alice' },
      },
    });
    expect(typeof push.repository.created_at).toBe('number');
    expect(typeof push.repository.pushed_at).toBe('number');
  });

  it('creates a private repository from `private` or from `visibility`', async () => {
    const a = await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'secret-a', private: true } });
    const b = await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'secret-b', visibility: 'private' } });
    for (const r of [a, b]) {
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ private: true, visibility: 'private' });
    }
  });

  it('derives the name as GitHub does: other characters become -, a .git suffix is dropped', async () => {
    const cases: [string, string][] = [
      ['hello world', 'hello-world'],
      ['café', 'caf-'],
      ['tools.git', 'tools'],
      ['dots.and_under-scores', 'dots.and_under-scores'],
    ];
    for (const [requested, expected] of cases) {
      const r = await s.api('POST', '/user/repos', { token: bob.token, body: { name: requested } });
      expect(r.status, requested).toBe(201);
      expect(r.body.name).toBe(expected);
    }
  });

  it('refuses names GitHub refuses with 422', async () => {
    const cases: [unknown, string][] = [
      ['', 'missing_field'],
      ['.', 'custom'],
      ['..', 'custom'],
      ['.git', 'custom'],
      ['x'.repeat(101), 'custom'],
      ['notes.wiki', 'custom'],
      [42, 'invalid'],
    ];
    for (const [name, code] of cases) {
      const r = await s.api('POST', '/user/repos', { token: bob.token, body: { name } });
      expect(r.status, String(name)).toBe(422);
      checkSchema(r, 'POST /user/repos');
      expect(r.body.errors[0]).toMatchObject({ resource: 'Repository', field: 'name', code });
    }
    const missing = await s.api('POST', '/user/repos', { token: bob.token, body: { private: true } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ resource: 'Repository', field: 'name', code: 'missing_field' }]);
    const longest = await s.api('POST', '/user/repos', { token: bob.token, body: { name: 'y'.repeat(100) } });
    expect(longest.status).toBe(201);
  });

  it('refuses a name the account already has, whatever its case; another account may use it', async () => {
    const r = await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'EMPTY' } });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      { resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' },
    ]);
    const other = await s.api('POST', '/user/repos', { token: carol.token, body: { name: 'empty' } });
    expect(other.status).toBe(201);
  });

  it('refuses other bad fields with 422 and creates nothing', async () => {
    const bodies = [
      { name: 'v1', visibility: 'internal' },
      { name: 'v2', visibility: 'secret' },
      { name: 'v3', description: 'd'.repeat(351) },
      { name: 'v4', homepage: 'nul\0byte' },
      { name: 'v5', gitignore_template: 'Node' },
      { name: 'v6', private: 'yes' },
      { name: 'v7', auto_init: 1 },
    ];
    for (const body of bodies) {
      const r = await s.api('POST', '/user/repos', { token: carol.token, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.message).toBe('Validation Failed');
    }
    const list = await s.api('GET', '/users/carol/repos');
    expect(list.body.map((x: { name: string }) => x.name)).toEqual(['empty']);
  });

  it('needs a token with repo or public_repo (private: repo); fine-grained tokens need administration write', async () => {
    const anonymous = await s.api('POST', '/user/repos', { body: { name: 'anon' } });
    expect(anonymous.status).toBe(401);
    const noScope = await s.createToken('carol', { scopes: ['gist'] });
    expect((await s.api('POST', '/user/repos', { token: noScope, body: { name: 'n1' } })).status).toBe(404);
    const publicOnly = await s.createToken('carol', { scopes: ['public_repo'] });
    expect((await s.api('POST', '/user/repos', { token: publicOnly, body: { name: 'n2' } })).status).toBe(201);
    expect((await s.api('POST', '/user/repos', { token: publicOnly, body: { name: 'n3', private: true } })).status).toBe(404);
    const fineRead = await s.createToken('carol', { kind: 'fine_grained', permissions: { administration: 'read' } });
    const denied = await s.api('POST', '/user/repos', { token: fineRead, body: { name: 'n4' } });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('x-accepted-service-permissions')).toBe('administration=write');
    const fineWrite = await s.createToken('carol', { kind: 'fine_grained', permissions: { administration: 'write' } });
    expect((await s.api('POST', '/user/repos', { token: fineWrite, body: { name: 'n5', private: true } })).status).toBe(201);
    // An installation acts as its app, which has no account of its own to create in.
    const installation = await s.createToken('carol', { kind: 'installation' });
    expect((await s.api('POST', '/user/repos', { token: installation, body: { name: 'n6' } })).status).toBe(403);
  });

  it('answers in the 2026-03-10 shape when that version is asked for (no has_downloads)', async () => {
    const r = await s.api('POST', '/user/repos', {
      token: carol.token,
      body: { name: 'versioned' },
      headers: { 'x-service-api-version': '2026-03-10' },
    });
    expect(r.status).toBe(201);
    checkSchema(r, 'POST /user/repos');
    expect(r.body).not.toHaveProperty('has_downloads');
  });
});

describe('POST /orgs/{org}/repos', () => {
  it('lets an owner create one through Octokit; the organization is in the object and the event', async () => {
    const before = await lastEventId(s);
    const { data, status } = await s
      .octokit(alice.token)
      .rest.repos.createInOrg({ org: 'acme', name: 'Widgets', private: true, has_wiki: false });
    expect(status).toBe(201);
    expect(data).toMatchObject({
      full_name: 'acme/Widgets',
      private: true,
      has_wiki: false,
      owner: { login: 'acme', type: 'Organization' },
    });
    expect(data.organization).toMatchObject({ login: 'acme', id: org.id, type: 'Organization' });
    expect(data.permissions).toMatchObject({ admin: true, push: true, pull: true });
    const [created] = await eventsSince(s, before);
    expect(created).toMatchObject({ name: 'repository', action: 'created', org_id: org.id, sender_id: alice.id });
    expect(created.payload.organization).toMatchObject({ login: 'acme', id: org.id });
    expectWebhookPayload('repository', created.payload);
  });

  it('lets members create while the organization allows it, and says why not when it does not', async () => {
    const r = await s.api('POST', '/orgs/acme/repos', { token: bob.token, body: { name: 'by-member' } });
    expect(r.status).toBe(201);
    expect(r.body.permissions).toMatchObject({ admin: false, push: true, pull: true });
    await s.db.updateTable('users').set({ members_can_create_repositories: 0 }).where('id', '=', org.id).execute();
    try {
      const refused = await s.api('POST', '/orgs/acme/repos', { token: bob.token, body: { name: 'by-member-2' } });
      expect(refused.status).toBe(403);
      checkSchema(refused, 'POST /orgs/{org}/repos');
      expect(refused.body.message).toBe('You need admin access to the organization before adding a repository to it.');
      expect((await s.api('POST', '/orgs/acme/repos', { token: alice.token, body: { name: 'by-owner' } })).status).toBe(201);
    } finally {
      await s.db.updateTable('users').set({ members_can_create_repositories: 1 }).where('id', '=', org.id).execute();
    }
  });

  it('hides the organization from non-members and unknown names (404)', async () => {
    expect((await s.api('POST', '/orgs/acme/repos', { token: carol.token, body: { name: 'intruder' } })).status).toBe(404);
    expect((await s.api('POST', '/orgs/no-such-org/repos', { token: carol.token, body: { name: 'x' } })).status).toBe(404);
    // A user is not an organization.
    expect((await s.api('POST', '/orgs/carol/repos', { token: carol.token, body: { name: 'x' } })).status).toBe(404);
  });

  it('accepts an installation token of an owner (apps may create organization repositories)', async () => {
    const installation = await s.createToken('alice', { kind: 'installation', permissions: { administration: 'write' } });
    const r = await s.api('POST', '/orgs/acme/repos', { token: installation, body: { name: 'from-app' } });
    expect(r.status).toBe(201);
  });
});
