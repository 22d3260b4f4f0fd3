// `create` and `delete` reach an organization hook for every branch and tag made or removed by a real `git push`, by
// auto_init and by an import, in GitHub's shape; GitHub's rule that more than three tags pushed at once get no `create`
// and no `push` events.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { authUrl, commitFiles, gitOk, tempDir, workingCopy } from '../repos/helpers.js';
import { signaturesValid, startReceiver, type Received, type Receiver, receiptMark, receiptsSince } from './receiver.js';

let s: TestServer;
let rcv: Receiver;
let owner: { login: string; id: number; token: string };
let org: { login: string; id: number };
const tmp = tempDir('hublet-ref-events-');
const SECRET = 'refs-secret';

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  rcv = await startReceiver();
  owner = await s.userWithToken('octo');
  org = await s.createOrg('Acme', 'octo');
  const hook = await s.api('POST', '/orgs/acme/hooks', {
    token: owner.token,
    body: { name: 'web', events: ['create', 'delete', 'push'], config: { url: `${rcv.url}/refs`, content_type: 'json', secret: SECRET } },
  });
  expect(hook.status).toBe(201);
  await s.app.hublet.jobs.idle();
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
  tmp.cleanup();
});

/** Where the receiver's list stands once every delivery so far has run (the index to read what comes next from). */
const mark = () => receiptMark(s, rcv);

/** What the receiver got for one repository since `from` (its index in rcv.received), once every delivery has run. */
async function receivedFor(repo: string, from: number): Promise<Received[]> {
  return (await receiptsSince(s, rcv, from)).filter((r) => r.payload?.repository?.name === repo);
}

/** `event ref` per receipt, sorted (deliveries run concurrently, so their order is not the events'). */
const summary = (got: Received[]) => got.map((r) => `${r.headers['x-service-event']} ${r.payload.ref}`).sort();

async function newRepository(name: string, autoInit: boolean): Promise<string> {
  const r = await s.api('POST', '/orgs/acme/repos', {
    token: owner.token,
    body: { name, auto_init: autoInit, description: `the ${name}` },
  });
  expect(r.status).toBe(201);
  return authUrl(s.url, 'octo', owner.token, `/Acme/${name}.git`);
}

describe('create and delete from pushes', () => {
  it('auto_init announces its main branch with create, in GitHub’s shape', async () => {
    const from = await mark();
    await newRepository('started', true);
    const got = await receivedFor('started', from);
    expect(summary(got)).toEqual(['create main', 'push refs/heads/main']);
    const create = got.find((r) => r.headers['x-service-event'] === 'create')!;
    expect(create.payload).toMatchObject({
      ref: 'main',
      ref_type: 'branch',
      master_branch: 'main',
      description: 'the started',
      pusher_type: 'user',
      repository: { name: 'started', full_name: 'Acme/started' },
      organization: { login: 'Acme', id: org.id },
      sender: { login: 'octo', id: owner.id },
    });
    expectWebhookPayload('create', create.payload);
    expect(signaturesValid(create, SECRET)).toBe(true);
  });

  // test/repos/git.test.ts checks that each create is recorded before the push of its ref.
  it('a push that makes a branch and a tag sends create and push for each; deleting them sends delete and push', async () => {
    const remote = await newRepository('widgets', true);
    const dir = path.join(tmp.dir, 'widgets');
    await gitOk(['clone', '-q', remote, dir], tmp.dir);
    await gitOk(['checkout', '-q', '-b', 'feature'], dir);
    const sha = await commitFiles(dir, 'feature work', { 'f.txt': 'f\n' });
    await gitOk(['tag', '-a', 'v1', '-m', 'one'], dir);

    let from = await mark();
    await gitOk(['push', '-q', 'origin', 'feature', 'v1'], dir);
    let got = await receivedFor('widgets', from);
    expect(summary(got)).toEqual(['create feature', 'create v1', 'push refs/heads/feature', 'push refs/tags/v1']);
    const created = got.filter((r) => r.headers['x-service-event'] === 'create');
    expect(created.map((r) => [r.payload.ref, r.payload.ref_type])).toEqual(
      expect.arrayContaining([
        ['feature', 'branch'],
        ['v1', 'tag'],
      ]),
    );
    for (const r of created) {
      expect(r.payload).toMatchObject({
        master_branch: 'main',
        description: 'the widgets',
        pusher_type: 'user',
        organization: { login: 'Acme' },
      });
      expectWebhookPayload('create', r.payload);
    }
    expect(got.find((r) => r.payload.ref === 'refs/heads/feature')!.payload).toMatchObject({ created: true, after: sha });

    from = await mark();
    await gitOk(['push', '-q', 'origin', ':feature', ':refs/tags/v1'], dir);
    got = await receivedFor('widgets', from);
    expect(summary(got)).toEqual(['delete feature', 'delete v1', 'push refs/heads/feature', 'push refs/tags/v1']);
    const deleted = got.filter((r) => r.headers['x-service-event'] === 'delete');
    expect(deleted.map((r) => [r.payload.ref, r.payload.ref_type]).sort()).toEqual([
      ['feature', 'branch'],
      ['v1', 'tag'],
    ]);
    for (const r of deleted) {
      expect(r.payload).toMatchObject({ pusher_type: 'user', repository: { full_name: 'Acme/widgets' }, sender: { login: 'octo' } });
      expect(r.payload).not.toHaveProperty('master_branch');
      expectWebhookPayload('delete', r.payload);
    }
    expect(got.filter((r) => r.headers['x-service-event'] === 'push').every((r) => r.payload.deleted === true)).toBe(true);
  });

  it('updating an existing branch is a push only', async () => {
    const remote = await newRepository('plain', true);
    const dir = path.join(tmp.dir, 'plain');
    await gitOk(['clone', '-q', remote, dir], tmp.dir);
    await commitFiles(dir, 'more', { 'm.txt': 'm\n' });
    const from = await mark();
    await gitOk(['push', '-q', 'origin', 'main'], dir);
    expect(summary(await receivedFor('plain', from))).toEqual(['push refs/heads/main']);
  });
});

describe('GitHub’s three-tags rule', () => {
  it('three tags pushed at once each get create and push', async () => {
    const remote = await newRepository('three', true);
    const dir = path.join(tmp.dir, 'three');
    await gitOk(['clone', '-q', remote, dir], tmp.dir);
    for (const t of ['a1', 'a2', 'a3']) await gitOk(['tag', t], dir);
    const from = await mark();
    await gitOk(['push', '-q', 'origin', '--tags'], dir);
    expect(summary(await receivedFor('three', from))).toEqual([
      'create a1',
      'create a2',
      'create a3',
      'push refs/tags/a1',
      'push refs/tags/a2',
      'push refs/tags/a3',
    ]);
  });

  it('four tags pushed at once get no create and no push, while a branch in the same push still does', async () => {
    const remote = await newRepository('four', true);
    const dir = path.join(tmp.dir, 'four');
    await gitOk(['clone', '-q', remote, dir], tmp.dir);
    for (const t of ['b1', 'b2', 'b3', 'b4']) await gitOk(['tag', t], dir);
    await gitOk(['branch', 'side'], dir);
    const from = await mark();
    await gitOk(['push', '-q', 'origin', 'side', '--tags'], dir);
    expect(summary(await receivedFor('four', from))).toEqual(['create side', 'push refs/heads/side']);
    // The tags are there all the same.
    const remoteTags = await gitOk(['ls-remote', '--tags', 'origin'], dir);
    expect(remoteTags.trim().split('\n')).toHaveLength(4);

    // Deleting tags is not pushing them: each deletion is announced.
    const deleting = await mark();
    await gitOk(['push', '-q', 'origin', ':refs/tags/b1', ':refs/tags/b2', ':refs/tags/b3', ':refs/tags/b4'], dir);
    const got = summary(await receivedFor('four', deleting));
    expect(got.filter((e) => e.startsWith('delete'))).toEqual(['delete b1', 'delete b2', 'delete b3', 'delete b4']);
    expect(got.filter((e) => e.startsWith('push'))).toHaveLength(4);
  });
});

describe('create from an import', () => {
  it('an imported repository announces each branch, and its tags only when there are three or fewer', async () => {
    const source = path.join(tmp.dir, 'source');
    await workingCopy(source, [{ message: 'one', files: { 'a.txt': 'a\n' } }]);
    await gitOk(['branch', 'dev'], source);
    for (const t of ['c1', 'c2', 'c3', 'c4']) await gitOk(['tag', t], source);
    const from = await mark();
    const r = await s.api('POST', '/admin/repos/import', { token: s.adminToken, body: { owner: 'acme', name: 'imported', path: source } });
    expect(r.status).toBe(201);
    const got = await receivedFor('imported', from);
    expect(summary(got)).toEqual(['create dev', 'create main']);
    for (const c of got) {
      expect(c.payload).toMatchObject({
        ref_type: 'branch',
        master_branch: 'main',
        pusher_type: 'user',
        sender: { login: 'admin' },
        organization: { login: 'Acme' },
      });
      expectWebhookPayload('create', c.payload);
    }
  });
});
