// `organization` events reach an organization hook (member_added, member_removed on membership changes and on the
// deletion of a member's account, renamed) in GitHub's shape; the site-wide ones (organization created and deleted,
// user created and deleted) are recorded with no organization or repository for site-wide hooks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { eventsSince, lastEventId } from '../repos/helpers.js';
import { signaturesValid, startReceiver, type Received, type Receiver } from './receiver.js';

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
async function mark(): Promise<number> {
  await s.app.hublet.jobs.idle();
  return rcv.received.length;
}

/** The organization events the hook got since `from` (an index in rcv.received), once every delivery has run. */
async function receivedSince(from: number): Promise<Received[]> {
  await s.app.hublet.jobs.idle();
  return rcv.received.slice(from).filter((r) => r.headers['x-service-event'] === 'organization');
}

describe('membership events', () => {
  it('adding a member is member_added with GitHub’s membership object; a role change is no event', async () => {
    let from = await mark();
    const put = await s.api('PUT', '/orgs/acme/memberships/mona', { token: owner.token, body: { role: 'member' } });
    expect(put.status).toBe(200);
    const [added] = await receivedSince(from);
    expect(added.payload).toMatchObject({
      action: 'member_added',
      membership: { state: 'active', role: 'member', user: { login: 'mona' }, url: `${s.url}/orgs/Acme/memberships/mona`, organization_url: `${s.url}/orgs/Acme` },
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
    expect(removed.payload).toMatchObject({ action: 'member_removed', membership: { role: 'admin', user: { login: 'mona' } }, organization: { login: 'Acme' } });
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
    expect(removed.payload).toMatchObject({ action: 'member_removed', membership: { role: 'member', user: { login: 'hubot' } }, sender: { login: 'admin' } });
    expectWebhookPayload('organization', removed.payload);
    const user = (await eventsSince(s, lastEvent, 'user'))[0];
    expect(user).toMatchObject({ action: 'deleted', org_id: null, repository_id: null, payload: { action: 'deleted', user: { login: 'hubot' }, sender: { login: 'admin' } } });
    expectWebhookPayload('user', user.payload); // GitHub Enterprise Server's schema (global hooks)
  });
});

describe('organization changes', () => {
  it('renaming the organization (site admins) is renamed with the old login', async () => {
    const from = await mark();
    const r = await s.api('PATCH', '/admin/organizations/acme', { token: s.adminToken, body: { login: 'Acme-Corp' } });
    expect(r.status).toBe(202);
    const [renamed] = await receivedSince(from);
    expect(renamed.payload).toMatchObject({ action: 'renamed', changes: { login: { from: 'Acme' } }, organization: { login: 'Acme-Corp', id: org.id }, sender: { login: 'admin' } });
    expectWebhookPayload('organization', renamed.payload);
  });

  it('creating and deleting organizations and users are recorded site-wide (no organization hook could hear a deletion)', async () => {
    const lastEvent = await lastEventId(s);
    await s.createUser('newbie');
    const made = await s.createOrg('Fresh', 'octo');
    expect((await s.api('DELETE', '/orgs/fresh', { token: owner.token })).status).toBe(202);
    const events = await eventsSince(s, lastEvent);
    expect(events.map((e) => [e.name, e.action, e.org_id, e.repository_id])).toEqual([
      ['user', 'created', null, null],
      ['organization', 'created', made.id, null],
      ['organization', 'deleted', made.id, null],
    ]);
    expect(events[0].payload).toMatchObject({ action: 'created', user: { login: 'newbie', type: 'User' }, sender: { login: 'admin' } });
    expectWebhookPayload('user', events[0].payload);
    expect(events[1].payload).toMatchObject({ action: 'created', organization: { login: 'Fresh', id: made.id }, sender: { login: 'admin' } });
    expect(events[2].payload).toMatchObject({ action: 'deleted', organization: { login: 'Fresh' }, sender: { login: 'octo' } });
    expectWebhookPayload('organization', events[2].payload);
  });
});
