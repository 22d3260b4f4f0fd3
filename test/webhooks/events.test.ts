// Events from the repositories area reach organization webhooks end to end: `repository` from API calls and `push` from
// a real `git push`, signed and recorded with their action and repository id; user-owned repositories reach no org hook.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authUrl, commitFiles, gitOk, tempDir } from '../repos/helpers.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { signaturesValid, startReceiver, type Received, type Receiver } from './receiver.js';

let s: TestServer;
let rcv: Receiver;
let owner: { login: string; id: number; token: string };
let org: { login: string; id: number };
const tmp = tempDir('hublet-hook-events-');
let all: { id: number };
let pushOnly: { id: number };

const received = (p: string, event: string) => (r: Received) => r.path === p && r.headers['x-service-event'] === event;

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  rcv = await startReceiver();
  owner = await s.userWithToken('octo');
  org = await s.createOrg('Acme', 'octo');
  const create = async (p: string, events: string[]) => {
    const r = await s.api('POST', '/orgs/acme/hooks', {
      token: owner.token,
      body: { name: 'web', events, config: { url: rcv.url + p, content_type: 'json', secret: 'repo-secret' } },
    });
    expect(r.status).toBe(201);
    return r.body as { id: number };
  };
  all = await create('/all', ['*']);
  pushOnly = await create('/push', ['push']);
  await s.app.hublet.jobs.idle();
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
  tmp.cleanup();
});

async function deliveries(hookId: number) {
  await s.app.hublet.jobs.idle();
  const r = await s.api('GET', `/orgs/acme/hooks/${hookId}/deliveries?per_page=100`, { token: owner.token });
  return checkSchema(r, 'GET /orgs/{org}/hooks/{hook_id}/deliveries') as {
    id: number;
    guid: string;
    event: string;
    action: string | null;
    repository_id: number | null;
    status: string;
  }[];
}

describe('repository events', () => {
  it('creating, editing and deleting an organization repository reach the hooks subscribed to repository (or *)', async () => {
    const created = await s.api('POST', '/orgs/acme/repos', { token: owner.token, body: { name: 'widgets', description: 'first' } });
    expect(created.status).toBe(201);
    const [got] = await rcv.waitFor(1, received('/all', 'repository'));
    expect(got.payload.action).toBe('created');
    expect(got.payload).toMatchObject({
      repository: { id: created.body.id, full_name: 'Acme/widgets' },
      organization: { login: 'Acme' },
      sender: { login: 'octo' },
    });
    expectWebhookPayload('repository', got.payload);
    expect(signaturesValid(got, 'repo-secret')).toBe(true);

    expect((await s.api('PATCH', '/repos/acme/widgets', { token: owner.token, body: { description: 'second' } })).status).toBe(200);
    const [, edited] = await rcv.waitFor(2, received('/all', 'repository'));
    expect(edited.payload).toMatchObject({ action: 'edited', changes: { description: { from: 'first' } } });

    const deleter = await s.createToken('octo', { scopes: ['repo', 'delete_repo'] });
    expect((await s.api('DELETE', '/repos/acme/widgets', { token: deleter })).status).toBe(204);
    const [, , deleted] = await rcv.waitFor(3, received('/all', 'repository'));
    expect(deleted.payload).toMatchObject({ action: 'deleted', repository: { id: created.body.id } });
    expectWebhookPayload('repository', deleted.payload);

    const list = (await deliveries(all.id)).filter((d) => d.event === 'repository');
    expect(list.map((d) => d.action)).toEqual(['deleted', 'edited', 'created']);
    expect(list.every((d) => d.repository_id === created.body.id && d.status === 'OK')).toBe(true);
    expect(list[2].guid).toBe(got.headers['x-service-delivery']);
    // The push-only hook heard none of it.
    expect((await deliveries(pushOnly.id)).filter((d) => d.event === 'repository')).toHaveLength(0);
  });

  it("a user's own repositories reach no organization hook", async () => {
    const before = rcv.received.length;
    expect((await s.api('POST', '/user/repos', { token: owner.token, body: { name: 'personal', auto_init: true } })).status).toBe(201);
    await s.app.hublet.jobs.idle();
    expect(rcv.received.length).toBe(before);
  });
});

describe('push events', () => {
  it('a real git push is delivered to push and * hooks with one guid, signed, and recorded', async () => {
    const repo = await s.api('POST', '/orgs/acme/repos', { token: owner.token, body: { name: 'gadgets', auto_init: true } });
    expect(repo.status).toBe(201);
    // auto_init's first commit is itself a push.
    await rcv.waitFor(1, received('/push', 'push'));
    const dir = path.join(tmp.dir, 'gadgets');
    await gitOk(['clone', '-q', authUrl(s.url, 'octo', owner.token, '/Acme/gadgets.git'), dir], tmp.dir);
    const sha = await commitFiles(dir, 'Add the gadget', { 'gadget.txt': 'a gadget\n' });
    await gitOk(['push', '-q', 'origin', 'main'], dir);

    const toPush = (await rcv.waitFor(2, received('/push', 'push')))[1];
    const toAll = (await rcv.waitFor(2, received('/all', 'push')))[1];
    expect(toPush.headers['x-service-delivery']).toBe(toAll.headers['x-service-delivery']);
    expect(toPush.payload).toMatchObject({
      ref: 'refs/heads/main',
      after: sha,
      head_commit: { id: sha, message: 'Add the gadget' },
      repository: { id: repo.body.id, full_name: 'Acme/gadgets' },
      pusher: { name: 'octo' },
      organization: { login: 'Acme' },
    });
    expect(toPush.payload.commits.map((c: { id: string }) => c.id)).toEqual([sha]);
    expectWebhookPayload('push', toPush.payload);
    expect(signaturesValid(toPush, 'repo-secret')).toBe(true);
    expect(toPush.headers).toMatchObject({
      'x-service-hook-id': String(pushOnly.id),
      'x-service-hook-installation-target-id': String(org.id),
    });

    const [latest] = await deliveries(pushOnly.id);
    expect(latest).toMatchObject({
      event: 'push',
      action: null,
      repository_id: repo.body.id,
      status: 'OK',
      guid: toPush.headers['x-service-delivery'],
    });
    const detail = await s.api('GET', `/orgs/acme/hooks/${pushOnly.id}/deliveries/${latest.id}`, { token: owner.token });
    expect(checkSchema(detail, 'GET /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}').request.payload).toEqual(toPush.payload);
  });
});
