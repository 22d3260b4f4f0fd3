// POST and GET /repos/{owner}/{repo}/forks: the fork's Repository object (fork, parent, source), GitHub's rules (an
// existing fork answered again, a taken name, an organization, private repositories), the parent's forks_count, the
// `fork` webhook a receiver gets, the fork's git data cloned with stock git, and a fork outliving its parent.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { startReceiver, type Received, type Receiver } from '../webhooks/receiver.js';
import { authUrl, commitFiles, eventsSince, gitOk, lastEventId, tempDir } from './helpers.js';

type User = { login: string; id: number; token: string };
let s: TestServer;
let rcv: Receiver;
let alice: User;
let bob: User;
let carol: User;
let dave: User;
const tmp = tempDir('hublet-forks-');
/** What the parent acme/widget holds: its branches and tags, as `git ls-remote` prints them. */
let parentRefs: string;

const isFork = (r: Received) => r.headers['x-service-event'] === 'fork';

/** `git ls-remote` of a repository over HTTP, as `user` (HEAD and every branch and tag). */
const lsRemote = (repo: string, user: User) => gitOk(['ls-remote', authUrl(s.url, user.login, user.token, `/${repo}.git`)], tmp.dir);

beforeAll(async () => {
  s = await startServer();
  rcv = await startReceiver();
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  carol = await s.userWithToken('carol');
  dave = await s.userWithToken('dave');
  await s.createOrg('acme', 'alice');
  await s.addMember('acme', 'bob');
  await s.createOrg('forkers', 'bob');

  // acme/widget: the README commit, a second commit on main, a branch and a tag.
  expect(
    (await s.api('POST', '/orgs/acme/repos', { token: alice.token, body: { name: 'widget', description: 'A widget', auto_init: true } }))
      .status,
  ).toBe(201);
  const work = path.join(tmp.dir, 'widget-work');
  await gitOk(['clone', '-q', authUrl(s.url, 'alice', alice.token, '/acme/widget.git'), work], tmp.dir);
  await commitFiles(work, 'Add code', { 'src/main.c': 'int main(void) { return 0; }\n' });
  await gitOk(['branch', 'feature'], work);
  await commitFiles(work, 'More code', { 'src/more.c': 'int more;\n' });
  await gitOk(['tag', '-a', 'v1', '-m', 'one'], work);
  await gitOk(['push', '-q', 'origin', 'main', 'feature', 'v1'], work);
  parentRefs = await lsRemote('acme/widget', alice);

  for (const [p, body] of [
    ['/repos/acme/widget/hooks', { name: 'web', events: ['fork'], config: { url: `${rcv.url}/repo`, content_type: 'json' } }],
    ['/orgs/acme/hooks', { name: 'web', events: ['fork'], config: { url: `${rcv.url}/org`, content_type: 'json' } }],
  ] as const)
    expect((await s.api('POST', p, { token: alice.token, body })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
  tmp.cleanup();
});

describe('POST /repos/{owner}/{repo}/forks', () => {
  let fork: any;

  it('forks into the caller’s account: 202 with the full repository, fork true, parent and source', async () => {
    const before = await lastEventId(s);
    const r = await s.api('POST', '/repos/acme/widget/forks', { token: bob.token });
    expect(r.status).toBe(202);
    fork = checkSchema(r, 'POST /repos/{owner}/{repo}/forks');
    expect(fork).toMatchObject({
      name: 'widget',
      full_name: 'bob/widget',
      owner: { login: 'bob' },
      fork: true,
      private: false,
      description: 'A widget',
      default_branch: 'main',
      forks_count: 0,
      permissions: { admin: true, push: true, pull: true },
      parent: { full_name: 'acme/widget', fork: false, forks_count: 1 },
      source: { full_name: 'acme/widget' },
      network_count: 1,
    });
    expect(fork.id).not.toBe(fork.parent.id);
    // The events: the new repository's `created`, and `fork` about the parent (to its hooks and its organization's).
    const events = await eventsSince(s, before);
    expect(events.map((e) => [e.name, e.action, e.repository_id])).toEqual([
      ['repository', 'created', fork.id],
      ['fork', null, fork.parent.id],
    ]);
  });

  it('sends the `fork` event to the parent’s hooks and its organization’s hooks, in GitHub’s shape', async () => {
    const got = await rcv.waitFor(2, isFork);
    expect(got.map((g) => g.path).sort()).toEqual(['/org', '/repo']);
    for (const g of got) {
      expectWebhookPayload('fork', g.payload);
      expect(g.payload).toMatchObject({
        forkee: { full_name: 'bob/widget', fork: true, public: true, owner: { login: 'bob' } },
        repository: { full_name: 'acme/widget', fork: false, forks_count: 1 },
        organization: { login: 'acme' },
        sender: { login: 'bob' },
      });
      expect(g.payload).not.toHaveProperty('installation');
    }
  });

  it('the fork’s git data is the parent’s: every branch and tag, cloned with stock git over HTTP', async () => {
    expect(await lsRemote('bob/widget', bob)).toBe(parentRefs);
    const dir = path.join(tmp.dir, 'fork-clone');
    await gitOk(['clone', '-q', authUrl(s.url, 'bob', bob.token, '/bob/widget.git'), dir], tmp.dir);
    expect(await gitOk(['log', '--format=%s', 'origin/feature'], dir)).toBe('Add code\nInitial commit\n');
    expect(await gitOk(['log', '--format=%s'], dir)).toBe('More code\nAdd code\nInitial commit\n');
    await gitOk(['fsck', '--strict'], dir);
  });

  it('the parent counts its fork: forks_count and forks; a repository that is no fork has no parent', async () => {
    const parent = await s.api('GET', '/repos/acme/widget', { token: alice.token });
    expect(checkSchema(parent, 'GET /repos/{owner}/{repo}')).toMatchObject({ fork: false, forks_count: 1, forks: 1, network_count: 1 });
    expect(parent.body).not.toHaveProperty('parent');
    expect(parent.body).not.toHaveProperty('source');
    const got = await s.api('GET', '/repos/bob/widget');
    expect(checkSchema(got, 'GET /repos/{owner}/{repo}')).toMatchObject({
      fork: true,
      parent: { full_name: 'acme/widget', id: fork.parent.id },
      source: { full_name: 'acme/widget' },
    });
    // Lists show `fork` and the counts, without parent or source.
    const listed = await s.api('GET', '/users/bob/repos');
    expect(listed.body.map((r: any) => [r.full_name, r.fork, 'parent' in r])).toEqual([['bob/widget', true, false]]);
  });

  it('GraphQL: isFork, parent and forkCount (what gh reads of a repository’s network)', async () => {
    const query =
      '{ a: repository(owner: "bob", name: "widget") { isFork forkCount parent { nameWithOwner isFork } } b: repository(owner: "acme", name: "widget") { isFork forkCount parent { nameWithOwner } } }';
    const r = await s.api('POST', '/graphql', { token: bob.token, body: { query } });
    expect(r.body).toEqual({
      data: {
        a: { isFork: true, forkCount: 0, parent: { nameWithOwner: 'acme/widget', isFork: false } },
        b: { isFork: false, forkCount: 1, parent: null },
      },
    });
  });

  it('forking again answers with the fork already there (202, no new repository, no event)', async () => {
    const before = await lastEventId(s);
    const again = await s.api('POST', '/repos/acme/widget/forks', { token: bob.token, body: { name: 'another' } });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: fork.id, full_name: 'bob/widget' });
    expect(await eventsSince(s, before)).toEqual([]);
    expect((await s.api('GET', '/repos/acme/widget')).body.forks_count).toBe(1);
  });

  it('a taken name gets GitHub’s -1, -2…; `name` names the fork', async () => {
    for (const name of ['widget', 'widget-1'])
      expect((await s.api('POST', '/user/repos', { token: carol.token, body: { name } })).status).toBe(201);
    const r = await s.api('POST', '/repos/acme/widget/forks', { token: carol.token });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ full_name: 'carol/widget-2', fork: true, parent: { full_name: 'acme/widget' } });
    const named = await s.api('POST', '/repos/acme/widget/forks', { token: dave.token, body: { name: 'gizmo' } });
    expect(named.status).toBe(202);
    expect(named.body).toMatchObject({ full_name: 'dave/gizmo', name: 'gizmo' });
  });

  it('into an organization where the caller may create repositories; default_branch_only keeps the default branch alone', async () => {
    const r = await s.api('POST', '/repos/acme/widget/forks', {
      token: bob.token,
      body: { organization: 'forkers', name: 'gadget', default_branch_only: true },
    });
    expect(r.status).toBe(202);
    expect(checkSchema(r, 'POST /repos/{owner}/{repo}/forks')).toMatchObject({
      full_name: 'forkers/gadget',
      owner: { login: 'forkers', type: 'Organization' },
      organization: { login: 'forkers' },
      fork: true,
    });
    const main = parentRefs.split('\n').find((l) => l.endsWith('\trefs/heads/main'))!;
    const head = parentRefs.split('\n').find((l) => l.endsWith('\tHEAD'))!;
    expect(await lsRemote('forkers/gadget', bob)).toBe(`${head}\n${main}\n`);
    // Not a member of the organization: 404, as for creating a repository there.
    expect((await s.api('POST', '/repos/acme/widget/forks', { token: carol.token, body: { organization: 'forkers' } })).status).toBe(404);
  });

  it('forking a fork makes its parent the fork and its source the network’s root', async () => {
    const dan = await s.userWithToken('dan');
    const r = await s.api('POST', '/repos/bob/widget/forks', { token: dan.token });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ full_name: 'dan/widget', parent: { full_name: 'bob/widget' }, source: { full_name: 'acme/widget' } });
    expect((await s.api('GET', '/repos/bob/widget')).body.forks_count).toBe(1);
    expect((await s.api('GET', '/repos/acme/widget')).body).toMatchObject({ forks_count: 4, network_count: 5 });
  });

  it('forking one’s own repository into one’s own account answers with the repository itself, as GitHub does', async () => {
    const own = await s.api('POST', '/user/repos', { token: carol.token, body: { name: 'own', auto_init: true } });
    const r = await s.api('POST', '/repos/carol/own/forks', { token: carol.token });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ id: own.body.id, full_name: 'carol/own', fork: false });
  });

  it('a private repository’s fork is private; 404 for a private repository the caller cannot see', async () => {
    expect(
      (await s.api('POST', '/orgs/acme/repos', { token: alice.token, body: { name: 'secret', private: true, auto_init: true } })).status,
    ).toBe(201);
    expect((await s.api('POST', '/repos/acme/secret/forks', { token: carol.token })).status).toBe(404);
    expect((await s.api('POST', '/repos/acme/secret/forks')).status).toBe(401);
    const r = await s.api('POST', '/repos/acme/secret/forks', { token: bob.token });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ full_name: 'bob/secret', private: true, visibility: 'private', fork: true });
    expect((await s.api('GET', '/repos/bob/secret', { token: carol.token })).status).toBe(404);
  });

  it('an empty repository cannot be forked (403)', async () => {
    expect((await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'empty' } })).status).toBe(201);
    const r = await s.api('POST', '/repos/alice/empty/forks', { token: bob.token });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/Empty repositories cannot be forked/);
  });

  it('422 for bodies GitHub refuses, with nothing written', async () => {
    const before = await lastEventId(s);
    for (const body of [{ name: 5 }, { default_branch_only: 'yes' }, { organization: ['forkers'] }, { name: '' }, { name: '..' }]) {
      const r = await s.api('POST', '/repos/acme/widget/forks', { token: dave.token, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.message).toBe('Validation Failed');
    }
    expect((await s.api('POST', '/repos/acme/widget/forks', { token: dave.token, body: '[1]' })).status).toBe(400);
    expect(await eventsSince(s, before)).toEqual([]);
    expect((await s.api('GET', '/repos/acme/nope/forks', { token: dave.token })).status).toBe(404);
  });
});

describe('GET /repos/{owner}/{repo}/forks', () => {
  it('lists the direct forks newest first, oldest with sort=oldest, paged with Link', async () => {
    const newest = await s.api('GET', '/repos/acme/widget/forks');
    expect(checkSchema(newest, 'GET /repos/{owner}/{repo}/forks').map((r: any) => r.full_name)).toEqual([
      'forkers/gadget',
      'dave/gizmo',
      'carol/widget-2',
      'bob/widget',
    ]);
    const oldest = await s.api('GET', '/repos/acme/widget/forks?sort=oldest&per_page=2');
    expect(oldest.body.map((r: any) => r.full_name)).toEqual(['bob/widget', 'carol/widget-2']);
    expect(oldest.headers.get('link')).toBe(
      `<${s.url}/repos/acme/widget/forks?sort=oldest&per_page=2&page=2>; rel="next", <${s.url}/repos/acme/widget/forks?sort=oldest&per_page=2&page=2>; rel="last"`,
    );
    expect((await s.api('GET', '/repos/acme/widget/forks?sort=sideways')).status).toBe(422);
  });

  it('private forks only for those who may read them', async () => {
    expect((await s.api('GET', '/repos/acme/secret/forks', { token: bob.token })).body.map((r: any) => r.full_name)).toEqual([
      'bob/secret',
    ]);
    expect((await s.api('GET', '/repos/acme/secret/forks', { token: carol.token })).status).toBe(404);
    expect((await s.api('GET', '/repos/acme/secret/forks', { token: alice.token })).body).toEqual([]);
  });

  it('GET /orgs/{org}/repos?type=forks and type=sources tell forks from sources', async () => {
    const forks = await s.api('GET', '/orgs/forkers/repos?type=forks');
    expect(forks.body.map((r: any) => r.full_name)).toEqual(['forkers/gadget']);
    expect((await s.api('GET', '/orgs/forkers/repos?type=sources')).body).toEqual([]);
  });
});

describe('a fork outlives its parent', () => {
  it('deleting the parent keeps its forks and their git data; the oldest fork becomes the network’s root', async () => {
    const deleter = await s.createToken('alice', { scopes: ['repo', 'delete_repo'] });
    expect((await s.api('DELETE', '/repos/acme/widget', { token: deleter })).status).toBe(204);
    const heir = await s.api('GET', '/repos/bob/widget');
    expect(heir.status).toBe(200);
    expect(heir.body).toMatchObject({ fork: false, forks_count: 4 });
    expect(heir.body).not.toHaveProperty('parent');
    expect((await s.api('GET', '/repos/forkers/gadget')).body).toMatchObject({
      fork: true,
      parent: { full_name: 'bob/widget' },
      source: { full_name: 'bob/widget' },
    });
    expect((await s.api('GET', '/repos/dan/widget')).body).toMatchObject({
      parent: { full_name: 'bob/widget' },
      source: { full_name: 'bob/widget' },
    });
    // The objects were the fork's own all along: a fresh clone has every commit.
    expect(await lsRemote('bob/widget', bob)).toBe(parentRefs);
    const dir = path.join(tmp.dir, 'after-delete');
    await gitOk(['clone', '-q', authUrl(s.url, 'bob', bob.token, '/bob/widget.git'), dir], tmp.dir);
    expect(await gitOk(['log', '--format=%s'], dir)).toBe('More code\nAdd code\nInitial commit\n');
    await gitOk(['fsck', '--strict'], dir);
  });

  it('deleting a fork lowers its parent’s count', async () => {
    const deleter = await s.createToken('dan', { scopes: ['repo', 'delete_repo'] });
    expect((await s.api('DELETE', '/repos/dan/widget', { token: deleter })).status).toBe(204);
    expect((await s.api('GET', '/repos/bob/widget')).body.forks_count).toBe(3);
  });
});
