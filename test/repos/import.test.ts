// POST /admin/repos/import: a site admin imports an existing git repository from a path on the server, with all its refs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { authUrl, commitFiles, eventsSince, gitOk, lastEventId, tempDir, workingCopy } from './helpers.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';

// Real git processes: a loaded two-core machine needs more than the default per-test time.
vi.setConfig({ testTimeout: 120_000 });

let s: TestServer;
let alice: { login: string; id: number; token: string };
let source: string;
const tmp = tempDir();

/** Branches and tags with what they point at, as `git ls-remote` or `for-each-ref` print them. */
async function refsOf(gitDirOrUrl: string, remote: boolean): Promise<string[]> {
  const out = remote
    ? await gitOk(['ls-remote', '--refs', gitDirOrUrl], tmp.dir)
    : await gitOk(['--git-dir', gitDirOrUrl, 'for-each-ref', '--format=%(objectname)\t%(refname)', 'refs/heads', 'refs/tags'], tmp.dir);
  return out.trim().split('\n').sort();
}

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  alice = await s.userWithToken('alice');
  await s.createOrg('acme', 'alice');
  // A working copy whose HEAD is `dev`, with another branch, a lightweight and an annotated tag, and a remote-tracking ref.
  source = path.join(tmp.dir, 'source');
  await workingCopy(source, [
    { message: 'one', files: { 'main.go': 'package main\n\nfunc main() {}\n' } },
    { message: 'two', files: { 'README.md': '# source\n' } },
  ]);
  await gitOk(['tag', 'v1.0'], source);
  await gitOk(['tag', '-a', 'v1.1', '-m', 'annotated'], source);
  await gitOk(['checkout', '-q', '-b', 'dev'], source);
  await commitFiles(source, 'three', { 'util.go': 'package main\n' });
  await gitOk(['update-ref', 'refs/remotes/origin/elsewhere', 'main'], source);
});
afterAll(async () => {
  await s?.close();
  tmp.cleanup();
});

const importBody = (body: Record<string, unknown>, token = s.adminToken) => s.api('POST', '/admin/repos/import', { token, body });

describe('POST /admin/repos/import', () => {
  it('imports every branch and tag, keeps the source’s HEAD branch as the default, and records created and a create per ref (no push)', async () => {
    const mark = await lastEventId(s);
    const r = await importBody({ owner: 'alice', name: 'imported', path: source, description: 'from disk' });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.url}/repos/alice/imported`);
    expect(r.body).toMatchObject({
      full_name: 'alice/imported',
      default_branch: 'dev',
      description: 'from disk',
      private: false,
      language: 'Go',
    });
    expect(r.body.size).toBeGreaterThan(0);

    const dir = path.join(s.dataDir, 'git', 'repos', `${r.body.id}.git`);
    const expected = await refsOf(path.join(source, '.git'), false);
    expect(await refsOf(dir, false)).toEqual(expected);
    expect(await refsOf(`${s.url}/alice/imported.git`, true)).toEqual(expected);
    expect(expected.some((l) => l.endsWith('refs/tags/v1.1'))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'HEAD'), 'utf8').trim()).toBe('ref: refs/heads/dev');
    // The source's remote-tracking refs are not the repository's branches, and its remote setup does not travel.
    expect(await gitOk(['--git-dir', dir, 'for-each-ref', 'refs/remotes'], tmp.dir)).toBe('');
    expect(fs.readFileSync(path.join(dir, 'config'), 'utf8')).not.toContain(source);

    const clone = path.join(tmp.dir, 'imported-clone');
    await gitOk(['clone', '-q', `${s.url}/alice/imported.git`, clone], tmp.dir);
    expect(fs.readFileSync(path.join(clone, 'util.go'), 'utf8')).toBe('package main\n');

    const events = await eventsSince(s, mark);
    expect(events.map((e) => [e.name, e.action ?? e.payload.ref])).toEqual([
      ['repository', 'created'],
      ['create', 'dev'],
      ['create', 'main'],
      ['create', 'v1.0'],
      ['create', 'v1.1'],
    ]);
    expect(events[0].payload.sender.login).toBe('admin');
    expectWebhookPayload('repository', events[0].payload);
    expect(events.slice(1).map((e) => e.payload.ref_type)).toEqual(['branch', 'branch', 'tag', 'tag']);
    for (const e of events.slice(1)) {
      expect(e.payload).toMatchObject({ master_branch: 'dev', description: 'from disk', pusher_type: 'user', sender: { login: 'admin' } });
      expectWebhookPayload('create', e.payload);
    }

    // The owner works with it as with any other repository.
    const work = path.join(tmp.dir, 'imported-work');
    await gitOk(['clone', '-q', authUrl(s.url, 'alice', alice.token, '/alice/imported.git'), work], tmp.dir);
    await commitFiles(work, 'four', { 'x.go': 'package main\n' });
    await gitOk(['push', '-q', 'origin', 'dev'], work);
  });

  it('imports a bare repository into an organization, private', async () => {
    const bare = path.join(tmp.dir, 'bare.git');
    await gitOk(['clone', '-q', '--bare', source, bare], tmp.dir);
    const r = await importBody({ owner: 'acme', name: 'from-bare', path: bare, private: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ full_name: 'acme/from-bare', private: true, owner: { login: 'acme' } });
    expect((await s.api('GET', '/repos/acme/from-bare')).status).toBe(404);
    expect((await s.api('GET', '/repos/acme/from-bare', { token: alice.token })).status).toBe(200);
  });

  it('is for site admins only', async () => {
    const r = await importBody({ owner: 'alice', name: 'sneaky', path: source }, alice.token);
    expect(r.status).toBe(404);
    const noScope = await s.createToken('admin', { scopes: ['repo'] });
    expect((await importBody({ owner: 'alice', name: 'sneaky', path: source }, noScope)).status).toBe(403);
    expect((await s.api('POST', '/admin/repos/import', { body: { owner: 'alice', name: 'sneaky', path: source } })).status).toBe(401);
  });

  it('refuses what it cannot import with 422 and leaves nothing behind', async () => {
    const empty = path.join(tmp.dir, 'empty-dir');
    fs.mkdirSync(empty);
    const file = path.join(tmp.dir, 'a-file');
    fs.writeFileSync(file, 'x');
    const cases: [Record<string, unknown>, string][] = [
      [{ owner: 'alice', name: 'x1', path: 'relative/path' }, 'path'],
      [{ owner: 'alice', name: 'x2', path: path.join(tmp.dir, 'missing') }, 'path'],
      [{ owner: 'alice', name: 'x3', path: empty }, 'path'],
      [{ owner: 'alice', name: 'x4', path: file }, 'path'],
      [{ owner: 'alice', name: 'x5', path: `${source}\0` }, 'path'],
      [{ owner: 'nobody', name: 'x6', path: source }, 'owner'],
      [{ owner: 'alice', name: 'imported', path: source }, 'name'],
      [{ owner: 'alice', name: '..', path: source }, 'name'],
      [{ owner: 'alice', path: source }, 'name'],
    ];
    for (const [body, field] of cases) {
      const r = await importBody(body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.errors[0].field).toBe(field);
    }
    const left = fs.readdirSync(path.join(s.dataDir, 'git', 'repos')).filter((n) => n.startsWith('.import-'));
    expect(left).toEqual([]);
    expect((await s.api('GET', '/users/alice/repos')).body.map((x: { name: string }) => x.name)).toEqual(['imported']);
  });
});
