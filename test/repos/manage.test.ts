// GET, PATCH and DELETE /repos/{owner}/{repo}: private visibility, renames and their redirects, settings, events, locks.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockRepositories, unlockRepository } from '../../src/repos/locks.js';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { eventsSince, lastEventId } from './helpers.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
let carol: { login: string; id: number; token: string };

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  alice = await s.userWithToken('alice', ['repo', 'delete_repo', 'admin:org']);
  bob = await s.userWithToken('bob', ['repo']);
  carol = await s.userWithToken('carol', ['repo']);
  await s.createOrg('acme', 'alice');
  await s.addMember('acme', 'bob');
  for (const [token, p, body] of [
    [alice.token, '/user/repos', { name: 'open', auto_init: true }],
    [alice.token, '/user/repos', { name: 'hidden', private: true }],
    [alice.token, '/orgs/acme/repos', { name: 'tools' }],
    [alice.token, '/orgs/acme/repos', { name: 'vault', private: true }],
  ] as const) {
    const r = await s.api('POST', p, { token, body });
    if (r.status !== 201) throw new Error(`setup ${body.name}: ${r.status} ${r.text}`);
  }
});
afterAll(async () => s?.close());

describe('GET /repos/{owner}/{repo}', () => {
  it('shows a public repository to anyone, without permissions for anonymous callers', async () => {
    const r = await s.api('GET', '/repos/alice/open');
    expect(r.status).toBe(200);
    const repo = checkSchema(r, 'GET /repos/{owner}/{repo}');
    expect(repo).toMatchObject({ full_name: 'alice/open', private: false, default_branch: 'main' });
    expect(repo.permissions).toBeUndefined();
    expect(r.headers.get('last-modified')).toBeTruthy();
    const again = await s.api('GET', '/repos/alice/open', { headers: { 'if-none-match': r.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const other = await s.api('GET', '/repos/alice/open', { token: carol.token });
    expect(other.body.permissions).toEqual({ admin: false, maintain: false, push: false, triage: false, pull: true });
  });

  it('finds names regardless of case and answers at /api/v3 and /repositories/{id} too', async () => {
    const r = await s.api('GET', '/api/v3/repos/ALICE/OPEN');
    expect(r.status).toBe(200);
    expect(r.body.full_name).toBe('alice/open');
    const byId = await s.api('GET', `/repositories/${r.body.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.full_name).toBe('alice/open');
    for (const bad of ['/repositories/0', '/repositories/abc', '/repositories/99999999999999999999'])
      expect((await s.api('GET', bad)).status).toBe(404);
  });

  it('hides private repositories (404) from anyone without access, and from tokens without the repo scope', async () => {
    for (const [p, token] of [
      ['/repos/alice/hidden', undefined],
      ['/repos/alice/hidden', carol.token],
      ['/repos/alice/hidden', bob.token],
      ['/repos/acme/vault', undefined],
      ['/repos/acme/vault', carol.token],
    ] as const) {
      const r = await s.api('GET', p, { token });
      expect(r.status, `${p} ${token}`).toBe(404);
      checkSchema(r, 'GET /repos/{owner}/{repo}');
    }
    expect((await s.api('GET', '/repos/alice/hidden', { token: alice.token })).status).toBe(200);
    const publicOnly = await s.createToken('alice', { scopes: ['public_repo'] });
    expect((await s.api('GET', '/repos/alice/hidden', { token: publicOnly })).status).toBe(404);
    expect((await s.api('GET', '/repos/alice/open', { token: publicOnly })).status).toBe(200);
  });

  it('gives organization owners admin and members read and write on the organization’s repositories', async () => {
    const owner = await s.api('GET', '/repos/acme/vault', { token: alice.token });
    expect(owner.body.permissions).toEqual({ admin: true, maintain: true, push: true, triage: true, pull: true });
    expect(owner.body.organization).toMatchObject({ login: 'acme' });
    const member = await s.api('GET', '/repos/acme/vault', { token: bob.token });
    expect(member.status).toBe(200);
    expect(member.body.permissions).toEqual({ admin: false, maintain: false, push: true, triage: true, pull: true });
    // Settings that only people with push access see.
    expect(member.body.allow_squash_merge).toBe(true);
    const outsider = await s.api('GET', '/repos/acme/tools', { token: carol.token });
    expect(outsider.body.allow_squash_merge).toBeUndefined();
  });

  it('asks fine-grained tokens for metadata read, which any repository permission implies (as on GitHub)', async () => {
    const none = await s.createToken('alice', { kind: 'fine_grained', permissions: { gists: 'write' } });
    const refused = await s.api('GET', '/repos/alice/open', { token: none });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Resource not accessible by personal access token');
    expect((await s.api('GET', '/user/repos', { token: none })).status).toBe(403);
    const meta = await s.createToken('alice', { kind: 'fine_grained', permissions: { metadata: 'read' } });
    expect((await s.api('GET', '/repos/alice/hidden', { token: meta })).status).toBe(200);
    const contents = await s.createToken('alice', { kind: 'fine_grained', permissions: { contents: 'write' } });
    expect((await s.api('GET', '/repos/alice/hidden', { token: contents })).status).toBe(200);
    expect((await s.api('GET', '/user/repos', { token: contents })).status).toBe(200);
  });

  it('answers hostile names with 404', async () => {
    for (const p of [
      `/repos/alice/${'x'.repeat(2000)}`,
      '/repos/alice/a%00b',
      '/repos/alice/..',
      `/repos/${'u'.repeat(500)}/x`,
      '/repos/alice/%2e%2e%2fetc',
    ]) {
      const r = await s.api('GET', p);
      expect(r.status, p.slice(0, 40)).toBe(404);
      expect(r.body.message).toBe('Not Found');
    }
  });
});

describe('PATCH /repos/{owner}/{repo}', () => {
  it('renames a repository; the old name redirects (301 for reads, 307 otherwise) and a renamed event is recorded', async () => {
    await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'before' } });
    const id = (await s.api('GET', '/repos/alice/before')).body.id;
    const mark = await lastEventId(s);
    const r = await s.api('PATCH', '/repos/alice/before', { token: alice.token, body: { name: 'after' } });
    expect(r.status).toBe(200);
    checkSchema(r, 'PATCH /repos/{owner}/{repo}');
    expect(r.body).toMatchObject({ id, name: 'after', full_name: 'alice/after', clone_url: `${s.url}/alice/after.git` });
    const [renamed] = await eventsSince(s, mark);
    expect(renamed).toMatchObject({ name: 'repository', action: 'renamed', repository_id: id });
    expect(renamed.payload.changes).toEqual({ repository: { name: { from: 'before' } } });
    expect(renamed.payload.repository.name).toBe('after');
    expectWebhookPayload('repository', renamed.payload);

    const moved = await fetch(`${s.url}/repos/alice/before`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`${s.url}/repositories/${id}`);
    expect(await moved.json()).toMatchObject({ message: 'Moved Permanently', url: `${s.url}/repositories/${id}` });
    // Clients that follow redirects land on the repository.
    const { data } = await s.octokit().rest.repos.get({ owner: 'alice', repo: 'before' });
    expect(data.full_name).toBe('alice/after');
    const patchOld = await fetch(`${s.url}/repos/alice/before`, {
      method: 'PATCH',
      redirect: 'manual',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'x' }),
    });
    expect(patchOld.status).toBe(307);
    // The data stayed where it was: directories are keyed by id.
    expect(fs.existsSync(path.join(s.dataDir, 'git', 'repos', `${id}.git`, 'HEAD'))).toBe(true);
    // A new repository may take the old name back; the redirect then ends.
    expect((await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'before' } })).status).toBe(201);
    const fresh = await s.api('GET', '/repos/alice/before');
    expect(fresh.status).toBe(200);
    expect(fresh.body.id).not.toBe(id);
  });

  it('does not reveal where a private repository went', async () => {
    await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'p-old', private: true } });
    await s.api('PATCH', '/repos/alice/p-old', { token: alice.token, body: { name: 'p-new' } });
    const r = await fetch(`${s.url}/repos/alice/p-old`, { redirect: 'manual', headers: { authorization: `Bearer ${carol.token}` } });
    expect(r.status).toBe(404);
  });

  it('records edited with the previous values, and nothing for a change that changes nothing', async () => {
    const mark = await lastEventId(s);
    const r = await s
      .octokit(alice.token)
      .rest.repos.update({ owner: 'alice', repo: 'open', description: 'Now described', homepage: 'https://h.example', has_issues: false });
    expect(r.data).toMatchObject({ description: 'Now described', homepage: 'https://h.example', has_issues: false });
    const again = await s.api('PATCH', '/repos/alice/open', { token: alice.token, body: { description: 'Now described' } });
    expect(again.status).toBe(200);
    const events = await eventsSince(s, mark);
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({ action: 'edited', changes: { description: { from: null }, homepage: { from: null } } });
    expectWebhookPayload('repository', events[0].payload);
    const noBody = await s.api('PATCH', '/repos/alice/open', { token: alice.token });
    expect(noBody.status).toBe(200);
  });

  it('changes visibility with privatized and publicized events (and public); the repository hides and shows accordingly', async () => {
    const mark = await lastEventId(s);
    expect((await s.api('PATCH', '/repos/acme/tools', { token: alice.token, body: { private: true } })).body.visibility).toBe('private');
    expect((await s.api('GET', '/repos/acme/tools')).status).toBe(404);
    expect((await s.api('PATCH', '/repos/acme/tools', { token: alice.token, body: { visibility: 'public' } })).body.private).toBe(false);
    expect((await s.api('GET', '/repos/acme/tools')).status).toBe(200);
    const events = await eventsSince(s, mark);
    expect(events.map((e) => [e.name, e.action])).toEqual([
      ['repository', 'privatized'],
      ['repository', 'publicized'],
      ['public', null],
    ]);
    for (const e of events) {
      expect(e.payload.organization).toMatchObject({ login: 'acme' });
      expectWebhookPayload(e.name, e.payload);
    }
  });

  it('archives: an archived repository refuses changes until unarchived', async () => {
    const mark = await lastEventId(s);
    expect((await s.api('PATCH', '/repos/acme/tools', { token: alice.token, body: { archived: true } })).body.archived).toBe(true);
    const refused = await s.api('PATCH', '/repos/acme/tools', { token: alice.token, body: { description: 'nope' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Repository was archived so is read-only.');
    expect((await s.api('PATCH', '/repos/acme/tools', { token: alice.token, body: { archived: false } })).body.archived).toBe(false);
    const events = await eventsSince(s, mark);
    expect(events.map((e) => e.action)).toEqual(['archived', 'unarchived']);
    for (const e of events) expectWebhookPayload('repository', e.payload);
  });

  it('checks default_branch against the repository’s branches', async () => {
    const empty = await s.api('PATCH', '/repos/alice/hidden', { token: alice.token, body: { default_branch: 'dev' } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]).toMatchObject({ resource: 'Repository', field: 'default_branch', code: 'invalid' });
    const missing = await s.api('PATCH', '/repos/alice/open', { token: alice.token, body: { default_branch: 'nope' } });
    expect(missing.status).toBe(422);
    const bad = await s.api('PATCH', '/repos/alice/open', { token: alice.token, body: { default_branch: '../../etc' } });
    expect(bad.status).toBe(422);
    const same = await s.api('PATCH', '/repos/alice/open', { token: alice.token, body: { default_branch: 'main' } });
    expect(same.status).toBe(200);
  });

  it('refuses non-admins (403 for those who see it, 404 otherwise), taken and invalid names (422)', async () => {
    const member = await s.api('PATCH', '/repos/acme/vault', { token: bob.token, body: { description: 'x' } });
    expect(member.status).toBe(403);
    expect(member.body.message).toBe('Must have admin rights to Repository.');
    expect((await s.api('PATCH', '/repos/acme/vault', { token: carol.token, body: { description: 'x' } })).status).toBe(404);
    expect((await s.api('PATCH', '/repos/alice/open', { token: carol.token, body: { description: 'x' } })).status).toBe(403);
    const taken = await s.api('PATCH', '/repos/alice/open', { token: alice.token, body: { name: 'HIDDEN' } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors[0]).toMatchObject({ field: 'name', message: 'name already exists on this account' });
    expect((await s.api('PATCH', '/repos/alice/open', { token: alice.token, body: { name: '..' } })).status).toBe(422);
    expect((await s.api('PATCH', '/repos/alice/open', { token: alice.token, body: { has_wiki: 'no' } })).status).toBe(422);
    expect((await s.api('PATCH', '/repos/alice/open', { token: alice.token, body: { visibility: 'internal' } })).status).toBe(422);
    // A case-only rename is a rename.
    const recased = await s.api('PATCH', '/repos/alice/open', { token: alice.token, body: { name: 'Open' } });
    expect(recased.body.full_name).toBe('alice/Open');
  });

  it('refuses changes to a repository locked for a migration, and serves it again once unlocked', async () => {
    const id = (await s.api('GET', '/repos/acme/vault', { token: alice.token })).body.id;
    await s.db.transaction().execute((trx) => lockRepositories(trx, [id], 4242));
    try {
      const r = await s.api('PATCH', '/repos/acme/vault', { token: alice.token, body: { description: 'locked?' } });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('Repository is locked for migration');
      expect((await s.api('GET', '/repos/acme/vault', { token: alice.token })).status).toBe(200);
      // Another migration cannot take the lock.
      await expect(s.db.transaction().execute((trx) => lockRepositories(trx, [id], 99))).rejects.toThrow(/already locked/);
    } finally {
      expect(await s.db.transaction().execute((trx) => unlockRepository(trx, id, 4242))).toBe(true);
    }
    expect((await s.api('PATCH', '/repos/acme/vault', { token: alice.token, body: { description: 'unlocked' } })).status).toBe(200);
  });
});

describe('DELETE /repos/{owner}/{repo}', () => {
  it('needs admin rights and the delete_repo scope', async () => {
    await s.api('POST', '/orgs/acme/repos', { token: alice.token, body: { name: 'doomed' } });
    const member = await s.api('DELETE', '/repos/acme/doomed', { token: await s.createToken('bob', { scopes: ['repo', 'delete_repo'] }) });
    expect(member.status).toBe(403);
    checkSchema(member, 'DELETE /repos/{owner}/{repo}');
    const noScope = await s.api('DELETE', '/repos/acme/doomed', { token: await s.createToken('alice', { scopes: ['repo'] }) });
    expect(noScope.status).toBe(403);
    expect((await s.api('DELETE', '/repos/acme/doomed')).status).toBe(401);
    expect((await s.api('DELETE', '/repos/acme/nothing-here', { token: alice.token })).status).toBe(404);
  });

  it('deletes the repository and its git data, records deleted, and frees the name', async () => {
    const id = (await s.api('GET', '/repos/acme/doomed')).body.id;
    const dir = path.join(s.dataDir, 'git', 'repos', `${id}.git`);
    expect(fs.existsSync(dir)).toBe(true);
    const mark = await lastEventId(s);
    const r = await s.octokit(alice.token).rest.repos.delete({ owner: 'acme', repo: 'doomed' });
    expect(r.status).toBe(204);
    expect(fs.existsSync(dir)).toBe(false);
    expect((await s.api('GET', '/repos/acme/doomed')).status).toBe(404);
    const [deleted] = await eventsSince(s, mark);
    expect(deleted).toMatchObject({ name: 'repository', action: 'deleted', repository_id: id });
    expect(deleted.payload.repository.full_name).toBe('acme/doomed');
    expectWebhookPayload('repository', deleted.payload);
    expect((await s.api('POST', '/orgs/acme/repos', { token: alice.token, body: { name: 'doomed' } })).status).toBe(201);
  });

  it('deletes a locked repository (a migrated source is deleted, not unlocked)', async () => {
    const { body } = await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'migrated' } });
    await s.db.transaction().execute((trx) => lockRepositories(trx, [body.id], 7));
    expect((await s.api('DELETE', '/repos/alice/migrated', { token: alice.token })).status).toBe(204);
    const locks = await s.db.selectFrom('repository_locks').selectAll().where('repository_id', '=', body.id).execute();
    expect(locks).toEqual([]);
  });
});
