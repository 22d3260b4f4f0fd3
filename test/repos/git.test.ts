// Git over smart HTTP with stock git: clone, fetch and push; anonymous and token auth; refusals as git shows them; push events.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lockRepositories, unlockRepository } from '../../src/repos/locks.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authUrl, commitFiles, eventsSince, git, gitOk, lastEventId, tempDir, workingCopy } from './helpers.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';

// Real git processes: a loaded two-core machine needs more than the default per-test time.
vi.setConfig({ testTimeout: 120_000 });

let s: TestServer;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
let carol: { login: string; id: number; token: string };
let org: { login: string; id: number };
const tmp = tempDir();
const ZERO = '0'.repeat(40);

const url = (p: string) => `${s.url}${p}`;
const as = (who: { login: string; token: string }, p: string) => authUrl(s.url, who.login, who.token, p);
const work = (name: string) => path.join(tmp.dir, name);

async function create(token: string, p: string, body: Record<string, unknown>) {
  const r = await s.api('POST', p, { token, body });
  if (r.status !== 201) throw new Error(`create ${String(body.name)}: ${r.status} ${r.text}`);
  return r.body as { id: number; full_name: string };
}

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  carol = await s.userWithToken('carol');
  // Commits by ada@example.com belong to ada: payloads name her as the username.
  await s.createUser('ada', { email: 'Ada@Example.com' });
  org = await s.createOrg('acme', 'alice');
  await s.addMember('acme', 'bob');
});
afterAll(async () => {
  await s?.close();
  tmp.cleanup();
});

describe('routing', () => {
  it('leaves the API routes alone next to /{owner}/{repo}/… git routes', async () => {
    await create(alice.token, '/user/repos', { name: 'routing', auto_init: true });
    expect((await s.api('GET', '/users/admin')).status).toBe(200);
    expect((await s.api('GET', '/orgs/acme/repos')).status).toBe(200);
    expect((await s.api('GET', '/users/alice/repos')).body[0].name).toBe('routing');
    expect((await s.api('GET', '/repos/alice/routing')).status).toBe(200);
    expect((await s.api('GET', '/no/such/route')).status).toBe(404);
    const refs = await fetch(url('/alice/routing.git/info/refs?service=git-upload-pack'));
    expect(refs.status).toBe(200);
    expect(refs.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    const bare = await fetch(url('/alice/routing/info/refs?service=git-upload-pack'));
    expect(bare.status).toBe(200);
    const prefixed = await fetch(url('/api/v3/alice/routing.git/info/refs?service=git-upload-pack'));
    expect(prefixed.status).toBe(200);
  });
});

describe('clone and fetch', () => {
  it('clones a public repository anonymously, with or without .git', async () => {
    const { id } = await create(alice.token, '/user/repos', { name: 'public-one', auto_init: true, description: 'hi' });
    for (const [i, suffix] of ['.git', ''].entries()) {
      const dest = work(`public-clone-${i}`);
      await gitOk(['clone', '-q', url(`/alice/public-one${suffix}`), dest], tmp.dir);
      expect(fs.readFileSync(path.join(dest, 'README.md'), 'utf8')).toBe('# public-one\nhi\n');
      expect((await gitOk(['rev-parse', '--abbrev-ref', 'HEAD'], dest)).trim()).toBe('main');
    }
    const ls = await gitOk(['ls-remote', url('/alice/public-one.git')], tmp.dir);
    const onDisk = (await gitOk(['--git-dir', path.join(s.dataDir, 'git', 'repos', `${id}.git`), 'rev-parse', 'main'], tmp.dir)).trim();
    expect(ls).toContain(`${onDisk}\tHEAD`);
    expect(ls).toContain(`${onDisk}\trefs/heads/main`);
  });

  it('asks anonymous callers for credentials on private or unknown repositories (401 + WWW-Authenticate)', async () => {
    await create(alice.token, '/user/repos', { name: 'private-one', private: true, auto_init: true });
    for (const p of ['/alice/private-one.git', '/alice/nothing.git', '/nobody/nothing.git']) {
      const r = await fetch(url(`${p}/info/refs?service=git-upload-pack`));
      expect(r.status, p).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      const clone = await git(['clone', '-q', url(p), work('never')], tmp.dir);
      expect(clone.ok).toBe(false);
      expect(clone.stderr).toMatch(/could not read Username|Authentication failed/);
    }
  });

  it('clones a private repository with a token as the Basic-auth password; others hear "Repository not found."', async () => {
    const dest = work('private-clone');
    await gitOk(['clone', '-q', as(alice, '/alice/private-one.git'), dest], tmp.dir);
    expect(fs.existsSync(path.join(dest, 'README.md'))).toBe(true);
    const outsider = await git(['clone', '-q', as(carol, '/alice/private-one.git'), work('nope')], tmp.dir);
    expect(outsider.ok).toBe(false);
    expect(outsider.stderr).toContain('Repository not found.');
    // A classic token without `repo` does not reach private repositories.
    const publicOnly = await s.createToken('alice', { scopes: ['public_repo'] });
    const limited = await git(['clone', '-q', authUrl(s.url, 'alice', publicOnly, '/alice/private-one.git'), work('nope2')], tmp.dir);
    expect(limited.stderr).toContain('Repository not found.');
    // A token that does not exist is refused outright.
    const bad = await git(['clone', '-q', authUrl(s.url, 'alice', 'hlp_not_a_token', '/alice/private-one.git'), work('nope3')], tmp.dir);
    expect(bad.ok).toBe(false);
    expect(bad.stderr).toMatch(/Authentication failed/);
  });

  it('fetches what was pushed since the clone', async () => {
    const a = work('fetch-a');
    const b = work('fetch-b');
    await create(alice.token, '/user/repos', { name: 'fetched', auto_init: true });
    await gitOk(['clone', '-q', as(alice, '/alice/fetched.git'), a], tmp.dir);
    await gitOk(['clone', '-q', url('/alice/fetched.git'), b], tmp.dir);
    const head = await commitFiles(a, 'more', { 'more.txt': 'more\n' });
    await gitOk(['push', '-q', 'origin', 'main'], a);
    await gitOk(['fetch', '-q', 'origin'], b);
    expect((await gitOk(['rev-parse', 'origin/main'], b)).trim()).toBe(head);
  });
});

describe('push', () => {
  it('pushes into an empty repository and records GitHub’s push payload per ref', async () => {
    const { id } = await create(alice.token, '/user/repos', { name: 'pushed' });
    const dir = work('pushed');
    await workingCopy(dir, [
      { message: 'first\n\nwith a body', files: { 'a.txt': 'a\n', 'src/b.ts': 'export const b = 1;\n' } },
      { message: 'second', files: { 'a.txt': 'a2\n', 'src/c.ts': 'export const c = 2;\n', 'src/b.ts': null } },
    ]);
    const [first, second] = (await gitOk(['rev-list', '--reverse', 'main'], dir)).trim().split('\n');
    const tree = (await gitOk(['rev-parse', 'main^{tree}'], dir)).trim();
    await gitOk(['tag', '-a', 'v1', '-m', 'release one'], dir);
    const tagObject = (await gitOk(['rev-parse', 'v1'], dir)).trim();
    const mark = await lastEventId(s);
    await gitOk(['push', '-q', as(alice, '/alice/pushed.git'), 'main', 'v1'], dir);

    // Each new ref is announced with `create` before its `push` (test/webhooks/events-refs.test.ts checks those).
    expect((await eventsSince(s, mark)).map((e) => [e.name, e.payload.ref])).toEqual([
      ['create', 'main'],
      ['push', 'refs/heads/main'],
      ['create', 'v1'],
      ['push', 'refs/tags/v1'],
    ]);
    const events = await eventsSince(s, mark, 'push');
    for (const e of events) {
      expect(e).toMatchObject({ repository_id: id, sender_id: alice.id, org_id: null, action: null });
      expectWebhookPayload('push', e.payload);
    }
    const main = events[0].payload;
    expect(main).toMatchObject({
      before: ZERO,
      after: second,
      created: true,
      deleted: false,
      forced: false,
      base_ref: null,
      compare: `${s.url}/alice/pushed/commit/${second}`,
      pusher: { name: 'alice', email: `${alice.id}+alice@users.noreply.127.0.0.1` },
      sender: { login: 'alice', id: alice.id },
    });
    expect(main.commits).toEqual([
      {
        id: first,
        tree_id: expect.stringMatching(/^[0-9a-f]{40}$/),
        distinct: true,
        message: 'first\n\nwith a body',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/),
        url: `${s.url}/alice/pushed/commit/${first}`,
        author: { name: 'Ada Author', email: 'ada@example.com', username: 'ada' },
        committer: { name: 'Ada Author', email: 'ada@example.com', username: 'ada' },
        added: ['a.txt', 'src/b.ts'],
        removed: [],
        modified: [],
      },
      expect.objectContaining({ id: second, tree_id: tree, added: ['src/c.ts'], removed: ['src/b.ts'], modified: ['a.txt'] }),
    ]);
    expect(main.head_commit).toEqual(main.commits[1]);
    expect(main.repository).toMatchObject({
      id,
      full_name: 'alice/pushed',
      default_branch: 'main',
      master_branch: 'main',
      size: expect.any(Number),
    });
    expect(main.repository.pushed_at).toBeGreaterThanOrEqual(main.repository.created_at);

    // The tag points at main's tip: base_ref names main; the annotated tag is peeled for head_commit.
    const tag = events[1].payload;
    expect(tag).toMatchObject({
      after: tagObject,
      created: true,
      base_ref: 'refs/heads/main',
      commits: [],
      compare: `${s.url}/alice/pushed/compare/v1`,
    });
    expect(tag.head_commit).toMatchObject({ id: second, distinct: false });

    // The repository reflects the git data.
    const repo = (await s.api('GET', '/repos/alice/pushed')).body;
    expect(repo.language).toBe('TypeScript');
    expect(repo.size).toBeGreaterThan(0);
    expect(Date.parse(repo.pushed_at)).toBeGreaterThan(Date.parse(repo.created_at) - 1000);
  });

  it('records updates, new branches, forced pushes and deletions as GitHub does', async () => {
    const dir = work('pushed');
    const base = (await gitOk(['rev-parse', 'main'], dir)).trim();
    const c3 = await commitFiles(dir, 'third', { 'd.txt': 'd\n' });
    const c4 = await commitFiles(dir, 'fourth', { 'd.txt': 'd2\n' });
    let mark = await lastEventId(s);
    await gitOk(['push', '-q', 'https://ignored.invalid', 'main'], dir).catch(() => undefined);
    await gitOk(['remote', 'add', 'origin', as(alice, '/alice/pushed.git')], dir);
    await gitOk(['push', '-q', 'origin', 'main'], dir);
    let [update] = await eventsSince(s, mark, 'push');
    expect(update.payload).toMatchObject({
      before: base,
      after: c4,
      created: false,
      forced: false,
      compare: `${s.url}/alice/pushed/compare/${base.slice(0, 12)}...${c4.slice(0, 12)}`,
    });
    expect(update.payload.commits.map((c: { id: string }) => c.id)).toEqual([c3, c4]);
    expectWebhookPayload('push', update.payload);

    // A new branch at an existing commit: nothing new in it.
    mark = await lastEventId(s);
    await gitOk(['push', '-q', 'origin', 'main:feature'], dir);
    const [branch] = await eventsSince(s, mark, 'push');
    expect(branch.payload).toMatchObject({
      ref: 'refs/heads/feature',
      before: ZERO,
      after: c4,
      created: true,
      commits: [],
      compare: `${s.url}/alice/pushed/compare/feature`,
    });
    expect(branch.payload.head_commit).toMatchObject({ id: c4, distinct: false });

    // Rewriting history is a forced push.
    await gitOk(['reset', '-q', '--hard', base], dir);
    const c5 = await commitFiles(dir, 'rewritten', { 'e.txt': 'e\n' });
    mark = await lastEventId(s);
    const plain = await git(['push', '-q', 'origin', 'main'], dir);
    expect(plain.ok).toBe(false);
    expect(plain.stderr).toContain('[rejected]');
    expect(await eventsSince(s, mark)).toEqual([]);
    await gitOk(['push', '-q', '--force', 'origin', 'main'], dir);
    [update] = await eventsSince(s, mark, 'push');
    expect(update.payload).toMatchObject({ before: c4, after: c5, forced: true });
    expect(update.payload.commits.map((c: { id: string }) => c.id)).toEqual([c5]);

    // Deleting a branch.
    mark = await lastEventId(s);
    await gitOk(['push', '-q', 'origin', ':feature'], dir);
    const [deleted] = await eventsSince(s, mark, 'push');
    expect(deleted.payload).toMatchObject({
      ref: 'refs/heads/feature',
      before: c4,
      after: ZERO,
      created: false,
      deleted: true,
      commits: [],
      head_commit: null,
    });
    expect(deleted.payload.compare).toBe(`${s.url}/alice/pushed/compare/${c4.slice(0, 12)}...000000000000`);
    expectWebhookPayload('push', deleted.payload);
  });

  it('lists exactly the new commits of a forced push whatever the commit clocks say', async () => {
    // Same-second history with a newer rewrite: a walk by commit time must still see that the old commits are known.
    await create(alice.token, '/user/repos', { name: 'clocks' });
    const at = (t: string) => ({ GIT_COMMITTER_DATE: t, GIT_AUTHOR_DATE: t });
    const dir = work('clocks');
    await workingCopy(dir, []);
    const base = '2030-01-01T00:00:00Z';
    await commitFiles(dir, 'one', { 'f.txt': '1\n' }, at(base));
    const two = await commitFiles(dir, 'two', { 'f.txt': '2\n' }, at(base));
    await commitFiles(dir, 'three', { 'f.txt': '3\n' }, at(base));
    const four = await commitFiles(dir, 'four', { 'f.txt': '4\n' }, at(base));
    await gitOk(['push', '-q', as(alice, '/alice/clocks.git'), 'main'], dir);
    await gitOk(['reset', '-q', '--hard', two], dir);
    const rewrite = await commitFiles(dir, 'rewrite', { 'g.txt': 'g\n' }, at('2030-01-01T00:00:10Z'));
    const mark = await lastEventId(s);
    await gitOk(['push', '-q', '--force', as(alice, '/alice/clocks.git'), 'main'], dir);
    const [push] = await eventsSince(s, mark);
    expect(push.payload).toMatchObject({ before: four, after: rewrite, forced: true });
    expect(push.payload.commits.map((c: { id: string }) => c.id)).toEqual([rewrite]);
    expect(push.payload.commits[0]).toMatchObject({ timestamp: '2030-01-01T00:00:10Z', added: ['g.txt'], removed: [], modified: [] });
  });

  it('makes the first pushed branch the default when the repository has no main', async () => {
    await create(alice.token, '/user/repos', { name: 'on-master' });
    const dir = await workingCopy(work('on-master'), [{ message: 'm', files: { 'x.py': 'print(1)\n' } }], 'master');
    await gitOk(['push', '-q', as(alice, '/alice/on-master.git'), 'master'], dir);
    const repo = (await s.api('GET', '/repos/alice/on-master')).body;
    expect(repo).toMatchObject({ default_branch: 'master', language: 'Python' });
    const clone = work('on-master-clone');
    await gitOk(['clone', '-q', url('/alice/on-master.git'), clone], tmp.dir);
    expect((await gitOk(['rev-parse', '--abbrev-ref', 'HEAD'], clone)).trim()).toBe('master');
    // Switching the default branch moves HEAD, so new clones check it out.
    await gitOk(['push', '-q', as(alice, '/alice/on-master.git'), 'master:dev'], dir);
    const mark = await lastEventId(s);
    const patched = await s.api('PATCH', '/repos/alice/on-master', { token: alice.token, body: { default_branch: 'dev' } });
    expect(patched.body.default_branch).toBe('dev');
    const [edited] = await eventsSince(s, mark);
    expect(edited.payload).toMatchObject({ action: 'edited', changes: { default_branch: { from: 'master' } } });
    const clone2 = work('on-master-clone-2');
    await gitOk(['clone', '-q', url('/alice/on-master.git'), clone2], tmp.dir);
    expect((await gitOk(['rev-parse', '--abbrev-ref', 'HEAD'], clone2)).trim()).toBe('dev');
  });

  it('lets organization members push to the organization’s repositories, with the organization in the payload', async () => {
    const { id } = await create(alice.token, '/orgs/acme/repos', { name: 'shared', private: true, auto_init: true });
    const dir = work('shared');
    await gitOk(['clone', '-q', as(bob, '/acme/shared.git'), dir], tmp.dir);
    const head = await commitFiles(dir, 'by bob', { 'bob.txt': 'b\n' });
    const mark = await lastEventId(s);
    await gitOk(['push', '-q', 'origin', 'main'], dir);
    const [push] = await eventsSince(s, mark);
    expect(push).toMatchObject({ name: 'push', org_id: org.id, repository_id: id, sender_id: bob.id });
    expect(push.payload).toMatchObject({ after: head, pusher: { name: 'bob' }, organization: { login: 'acme', id: org.id } });
    expect(push.payload.repository).toMatchObject({ private: true, organization: 'acme', owner: { login: 'acme', type: 'Organization' } });
    expectWebhookPayload('push', push.payload);
  });
});

describe('refused pushes', () => {
  it('shows the reason to the git client and records nothing', async () => {
    await create(alice.token, '/user/repos', { name: 'guarded', auto_init: true });
    const dir = work('guarded');
    await gitOk(['clone', '-q', url('/alice/guarded.git'), dir], tmp.dir);
    await commitFiles(dir, 'attempt', { 'x.txt': 'x\n' });
    const mark = await lastEventId(s);

    const anonymous = await git(['push', '-q', url('/alice/guarded.git'), 'main'], dir);
    expect(anonymous.ok).toBe(false);
    expect(anonymous.stderr).toMatch(/could not read Username|Authentication failed/);

    const outsider = await git(['push', '-q', as(carol, '/alice/guarded.git'), 'main'], dir);
    expect(outsider.ok).toBe(false);
    expect(outsider.stderr).toContain('remote: Permission to alice/guarded.git denied to carol.');

    const gistOnly = await s.createToken('alice', { scopes: ['gist'] });
    const scoped = await git(['push', '-q', authUrl(s.url, 'alice', gistOnly, '/alice/guarded.git'), 'main'], dir);
    expect(scoped.stderr).toContain('remote: Write access to repository not granted.');

    const readOnly = await s.createToken('alice', { kind: 'fine_grained', permissions: { contents: 'read' } });
    const fine = await git(['push', '-q', authUrl(s.url, 'alice', readOnly, '/alice/guarded.git'), 'main'], dir);
    expect(fine.stderr).toContain('remote: Write access to repository not granted.');

    expect(await eventsSince(s, mark)).toEqual([]);
    const writer = await s.createToken('alice', { kind: 'fine_grained', permissions: { contents: 'write' } });
    await gitOk(['push', '-q', authUrl(s.url, 'alice', writer, '/alice/guarded.git'), 'main'], dir);
    expect((await eventsSince(s, mark)).map((e) => e.name)).toEqual(['push']);
  });

  it('refuses pushes to a locked repository with "Repository is locked for migration" and keeps serving reads', async () => {
    const { id } = await create(alice.token, '/orgs/acme/repos', { name: 'frozen', auto_init: true });
    const dir = work('frozen');
    await gitOk(['clone', '-q', as(alice, '/acme/frozen.git'), dir], tmp.dir);
    await s.db.transaction().execute((trx) => lockRepositories(trx, [id], 31));
    const mark = await lastEventId(s);
    try {
      await commitFiles(dir, 'while locked', { 'l.txt': 'l\n' });
      for (const who of [alice, bob]) {
        const refused = await git(['push', '-q', as(who, '/acme/frozen.git'), 'main'], dir);
        expect(refused.ok).toBe(false);
        expect(refused.stderr).toContain('remote: Repository is locked for migration');
      }
      // Reads go on: the owner clones and fetches.
      await gitOk(['clone', '-q', as(alice, '/acme/frozen.git'), work('frozen-read')], tmp.dir);
      await gitOk(['fetch', '-q', 'origin'], dir);
      expect(await eventsSince(s, mark)).toEqual([]);
    } finally {
      await s.db.transaction().execute((trx) => unlockRepository(trx, id, 31));
    }
    await gitOk(['push', '-q', as(alice, '/acme/frozen.git'), 'main'], dir);
    expect((await eventsSince(s, mark)).map((e) => e.name)).toEqual(['push']);
  });

  it('refuses to delete the default branch (until another branch is the default) and refuses malformed objects', async () => {
    await create(alice.token, '/user/repos', { name: 'keeper', auto_init: true });
    const dir = work('keeper');
    await gitOk(['clone', '-q', as(alice, '/alice/keeper.git'), dir], tmp.dir);
    await gitOk(['push', '-q', 'origin', 'main:other'], dir);
    const mark = await lastEventId(s);
    const refused = await git(['push', 'origin', ':main'], dir);
    expect(refused.ok).toBe(false);
    expect(refused.stderr).toContain('remote: refusing to delete the current branch: refs/heads/main');
    expect(await eventsSince(s, mark)).toEqual([]);
    await s.api('PATCH', '/repos/alice/keeper', { token: alice.token, body: { default_branch: 'other' } });
    await gitOk(['push', '-q', 'origin', ':main'], dir);
    expect((await eventsSince(s, mark, 'push')).map((e) => e.payload.deleted)).toEqual([true]);

    // A commit whose author has no email or date: git's fsck (and GitHub) refuse it.
    const tree = (await gitOk(['rev-parse', 'HEAD^{tree}'], dir)).trim();
    const parent = (await gitOk(['rev-parse', 'HEAD'], dir)).trim();
    const bogus = path.join(tmp.dir, 'bogus-commit');
    fs.writeFileSync(bogus, `tree ${tree}\nparent ${parent}\nauthor nobody\ncommitter nobody\n\nbroken\n`);
    const oid = (await gitOk(['hash-object', '--literally', '-t', 'commit', '-w', bogus], dir)).trim();
    const malformed = await git(['push', 'origin', `${oid}:refs/heads/other`], dir);
    expect(malformed.ok).toBe(false);
    expect(malformed.stderr).toMatch(/remote: error: object [0-9a-f]{40}: \w+/);
    expect((await gitOk(['ls-remote', url('/alice/keeper.git'), 'refs/heads/other'], tmp.dir)).startsWith(parent)).toBe(true);
  });

  it('refuses pushes to an archived repository', async () => {
    await create(alice.token, '/user/repos', { name: 'old-stuff', auto_init: true });
    const dir = work('old-stuff');
    await gitOk(['clone', '-q', url('/alice/old-stuff.git'), dir], tmp.dir);
    await s.api('PATCH', '/repos/alice/old-stuff', { token: alice.token, body: { archived: true } });
    await commitFiles(dir, 'late', { 'late.txt': 'late\n' });
    const refused = await git(['push', '-q', as(alice, '/alice/old-stuff.git'), 'main'], dir);
    expect(refused.stderr).toContain('remote: This repository was archived so it is read-only.');
  });
});

describe('renamed and deleted repositories', () => {
  it('serves git at the old name through a redirect after a rename, and nothing after a delete', async () => {
    await create(alice.token, '/user/repos', { name: 'old-name', auto_init: true });
    await s.api('PATCH', '/repos/alice/old-name', { token: alice.token, body: { name: 'new-name' } });
    const dest = work('renamed-clone');
    const cloned = await gitOk(['clone', url('/alice/old-name.git'), dest], tmp.dir).then(() => true);
    expect(cloned).toBe(true);
    expect(fs.existsSync(path.join(dest, 'README.md'))).toBe(true);
    await commitFiles(dest, 'after rename', { 'r.txt': 'r\n' });
    await gitOk(['push', '-q', as(alice, '/alice/new-name.git'), 'main'], dest);

    const token = await s.createToken('alice', { scopes: ['repo', 'delete_repo'] });
    expect((await s.api('DELETE', '/repos/alice/new-name', { token })).status).toBe(204);
    const gone = await git(['clone', '-q', as(alice, '/alice/new-name.git'), work('gone')], tmp.dir);
    expect(gone.ok).toBe(false);
    expect(gone.stderr).toContain('Repository not found.');
  });
});
