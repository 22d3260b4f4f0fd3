// `organization` events reach an organization hook (member_added, member_removed on membership changes and on the
// deletion of a member's account, renamed) in GitHub's shape; the site-wide ones (organization created and deleted,
// user created and deleted) reach a global hook (/admin/hooks).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { eventsSince, lastEventId } from '../repos/helpers.js';
import { signaturesValid, startReceiver, type Received, type Receiver, receiptMark, receiptsSince } from './receiver.js';

let s: TestServer;
let rcv: Receiver;
let owner: { login: string; id: number; token: string };
let org: { login: string; id: number };
const SECRET = 'org-secret';

beforeAll(async () => {
  s = await startServer();
  rcv = await startReceiver();
  owner = await s.userWithToken('octo');
  org = await s.createOrg('Acme', 'octo');
  await s.createUser('mona');
  await s.createUser('hubot');
  const hook = await s.api('POST', '/orgs/acme/hooks', {
    token: owner.token,
    body: { name: 'web', events: ['organization'], config: { url: `${rcv.url}/org`, content_type: 'json', secret: SECRET } },
  });
  expect(hook.status).toBe(201);
  await s.app.hublet.jobs.idle();
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
});

/** Where the receiver's list stands once every delivery so far has run (the index to read what comes next from). */
const mark = () => receiptMark(s, rcv);

/** The organization events the hook got since `from` (an index in rcv.received), once every delivery has run. */
async function receivedSince(from: number): Promise<Received[]> {
  return (await receiptsSince(s, rcv, from)).filter((r) => r.headers['x-service-event'] === 'organization');
}

describe('membership events', () => {
  it('adding a member is member_added with GitHub’s membership object; a role change is no event', async () => {
    let from = await mark();
    const put = await s.api('PUT', '/orgs/acme/memberships/mona', { token: owner.token, body: { role: 'member' } });
    expect(put.status).toBe(200);
    const [added] = await receivedSince(from);
    expect(added.payload).toMatchObject({
      action: 'member_added',
      membership: {
        state: 'active',
        role: 'member',
        user: { login: 'mona' },
        url: `${s.url}/orgs/Acme/memberships/mona`,
        organization_url: `${s.url}/orgs/Acme`,
      },
      organization: { login: 'Acme', id: org.id },
      sender: { login: 'octo' },
    });
    expect(added.payload.membership).not.toHaveProperty('organization');
    expectWebhookPayload('organization', added.payload);
    expect(signaturesValid(added, SECRET)).toBe(true);

    from = await mark();
    expect((await s.api('PUT', '/orgs/acme/memberships/mona', { token: owner.token, body: { role: 'admin' } })).status).toBe(200);
    expect(await receivedSince(from)).toEqual([]);
  });

  it('removing a membership, or a member, is member_removed with the role they had', async () => {
    let from = await mark();
    expect((await s.api('DELETE', '/orgs/acme/memberships/mona', { token: owner.token })).status).toBe(204);
    const [removed] = await receivedSince(from);
    expect(removed.payload).toMatchObject({
      action: 'member_removed',
      membership: { role: 'admin', user: { login: 'mona' } },
      organization: { login: 'Acme' },
    });
    expectWebhookPayload('organization', removed.payload);

    await s.addMember('acme', 'mona');
    from = await mark();
    expect((await s.api('DELETE', '/orgs/acme/members/mona', { token: owner.token })).status).toBe(204);
    const [again] = await receivedSince(from);
    expect(again.payload).toMatchObject({ action: 'member_removed', membership: { role: 'member', user: { login: 'mona' } } });
    expectWebhookPayload('organization', again.payload);

    // A refused removal (the last owner) records nothing.
    from = await mark();
    expect((await s.api('DELETE', '/orgs/acme/memberships/octo', { token: owner.token })).status).toBe(422);
    expect(await receivedSince(from)).toEqual([]);
  });

  it('deleting a member’s account removes them from each organization with member_removed, and records user deleted', async () => {
    await s.addMember('acme', 'hubot');
    const lastEvent = await lastEventId(s);
    const from = await mark();
    expect((await s.api('DELETE', '/admin/users/hubot', { token: s.adminToken })).status).toBe(204);
    const [removed] = await receivedSince(from);
    expect(removed.payload).toMatchObject({
      action: 'member_removed',
      membership: { role: 'member', user: { login: 'hubot' } },
      sender: { login: 'admin' },
    });
    expectWebhookPayload('organization', removed.payload);
    const user = (await eventsSince(s, lastEvent, 'user'))[0];
    expect(user).toMatchObject({
      action: 'deleted',
      org_id: null,
      repository_id: null,
      payload: { action: 'deleted', user: { login: 'hubot' }, sender: { login: 'admin' } },
    });
    expectWebhookPayload('user', user.payload); // GitHub Enterprise Server's schema (global hooks)
  });
});

describe('organization changes', () => {
  it('renaming the organization (site admins) is renamed with the old login', async () => {
    const from = await mark();
    const r = await s.api('PATCH', '/admin/organizations/acme', { token: s.adminToken, body: { login: 'Acme-Corp' } });
    expect(r.status).toBe(202);
    const [renamed] = await receivedSince(from);
    expect(renamed.payload).toMatchObject({
      action: 'renamed',
      changes: { login: { from: 'Acme' } },
      organization: { login: 'Acme-Corp', id: org.id },
      sender: { login: 'admin' },
    });
    expectWebhookPayload('organization', renamed.payload);
  });

  it('creating and deleting organizations and users reach a global hook', async () => {
    const global = await s.api('POST', '/admin/hooks', {
      token: s.adminToken,
      body: { name: 'web', events: ['user', 'organization'], config: { url: `${rcv.url}/site`, content_type: 'json', secret: SECRET } },
    });
    expect(global.status).toBe(201);
    const lastEvent = await lastEventId(s);
    const from = await mark();
    await s.createUser('newbie');
    const made = await s.createOrg('Fresh', 'octo');
    expect((await s.api('DELETE', '/orgs/fresh', { token: owner.token })).status).toBe(202);
    expect((await s.api('DELETE', '/admin/users/newbie', { token: s.adminToken })).status).toBe(204);
    const events = await eventsSince(s, lastEvent);
    expect(events.map((e) => [e.name, e.action, e.org_id, e.repository_id])).toEqual([
      ['user', 'created', null, null],
      ['organization', 'created', made.id, null],
      ['organization', 'deleted', made.id, null],
      ['user', 'deleted', null, null],
    ]);

    await s.app.hublet.jobs.idle();
    const site = rcv.received.slice(from).filter((r) => r.path === '/site');
    const got = (event: string, action: string) =>
      site.find((r) => r.headers['x-service-event'] === event && r.payload.action === action)?.payload;
    expect(site).toHaveLength(4);
    expect(site.every((r) => signaturesValid(r, SECRET))).toBe(true);
    expect(got('user', 'created')).toMatchObject({ user: { login: 'newbie', type: 'User' }, sender: { login: 'admin' } });
    expect(got('user', 'deleted')).toMatchObject({ user: { login: 'newbie' }, sender: { login: 'admin' } });
    expect(got('organization', 'created')).toMatchObject({ organization: { login: 'Fresh', id: made.id }, sender: { login: 'admin' } });
    expect(got('organization', 'deleted')).toMatchObject({ organization: { login: 'Fresh' }, sender: { login: 'octo' } });
    // GitHub Enterprise Server's schemas for the user events (only it sends them); api.github.com's for deleted.
    expectWebhookPayload('user', got('user', 'created'));
    expectWebhookPayload('user', got('user', 'deleted'));
    expectWebhookPayload('organization', got('organization', 'deleted'));
  });
});
