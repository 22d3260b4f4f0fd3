// POST /repos/{owner}/{repo}/transfer moves a repository between a user and organizations (202, redirects from the old
// address for the API and for git, refusals in GitHub's shape) with `repository` `transferred`; making a repository
// public sends `public`. Both reach an organization hook on 127.0.0.1 in GitHub's shape.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { eventsSince, gitOk, lastEventId, tempDir } from '../repos/helpers.js';
import { startReceiver, type Received, type Receiver, receiptMark, receiptsSince } from './receiver.js';

let s: TestServer;
let rcv: Receiver;
let octo: { login: string; id: number; token: string };
let mona: { login: string; id: number; token: string };
let acme: { login: string; id: number };
const tmp = tempDir('hublet-transfer-');

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  rcv = await startReceiver();
  octo = await s.userWithToken('octo');
  mona = await s.userWithToken('mona');
  acme = await s.createOrg('Acme', 'octo');
  await s.createOrg('Closed', 'mona');
  await s.addMember('closed', 'octo');
  expect((await s.api('PATCH', '/orgs/closed', { token: mona.token, body: { members_can_create_repositories: false } })).status).toBe(200);
  const hook = await s.api('POST', '/orgs/acme/hooks', {
    token: octo.token,
    body: { name: 'web', events: ['repository', 'public'], config: { url: `${rcv.url}/acme`, content_type: 'json' } },
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

async function receivedSince(from: number, event: string): Promise<Received[]> {
  return (await receiptsSince(s, rcv, from)).filter((r) => r.headers['x-service-event'] === event);
}

const transfer = (token: string, from: string, body: unknown) => s.api('POST', `/repos/${from}/transfer`, { token, body });

describe('public', () => {
  it('making a repository public sends public beside publicized; making it private sends no public', async () => {
    expect((await s.api('POST', '/orgs/acme/repos', { token: octo.token, body: { name: 'secret', private: true } })).status).toBe(201);
    let from = await mark();
    expect((await s.api('PATCH', '/repos/acme/secret', { token: octo.token, body: { private: false } })).status).toBe(200);
    const [pub] = await receivedSince(from, 'public');
    expect(pub.payload).toMatchObject({
      repository: { full_name: 'Acme/secret', private: false },
      organization: { login: 'Acme' },
      sender: { login: 'octo' },
    });
    expect(pub.payload).not.toHaveProperty('action');
    expectWebhookPayload('public', pub.payload);
    expect((await receivedSince(from, 'repository')).map((r) => r.payload.action)).toEqual(['publicized']);

    from = await mark();
    expect((await s.api('PATCH', '/repos/acme/secret', { token: octo.token, body: { visibility: 'private' } })).status).toBe(200);
    expect((await receivedSince(from, 'repository')).map((r) => r.payload.action)).toEqual(['privatized']);
    expect(await receivedSince(from, 'public')).toEqual([]);
  });
});

describe('POST /repos/{owner}/{repo}/transfer', () => {
  it('moves a user’s repository into an organization under a new name: 202, transferred, the old address redirects', async () => {
    const made = await s.api('POST', '/user/repos', { token: octo.token, body: { name: 'tool', auto_init: true } });
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    const from = await mark();

    const r = await transfer(octo.token, 'octo/tool', { new_owner: 'acme', new_name: 'tools' });
    expect(r.status).toBe(202);
    checkSchema(r, 'POST /repos/{owner}/{repo}/transfer');
    expect(r.body).toMatchObject({
      id,
      name: 'tools',
      full_name: 'Acme/tools',
      owner: { login: 'Acme', type: 'Organization' },
      permissions: { admin: true },
    });

    const [moved] = await receivedSince(from, 'repository');
    expect(moved.payload).toMatchObject({
      action: 'transferred',
      changes: { owner: { from: { user: { login: 'octo', id: octo.id, type: 'User' } } } },
      repository: { id, full_name: 'Acme/tools', owner: { login: 'Acme' } },
      organization: { login: 'Acme', id: acme.id },
      sender: { login: 'octo' },
    });
    expectWebhookPayload('repository', moved.payload);
    expect(moved.headers['x-service-hook-installation-target-id']).toBe(String(acme.id));

    // The repository answers at its new address; the old one redirects (API) and still clones (git follows it).
    expect((await s.api('GET', '/repos/acme/tools')).body).toMatchObject({ id, full_name: 'Acme/tools' });
    const old = await fetch(`${s.url}/repos/octo/tool`, { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(`${s.url}/repositories/${id}`);
    await old.arrayBuffer();
    const clone = path.join(tmp.dir, 'tool-clone');
    await gitOk(['clone', '-q', `${s.url}/octo/tool.git`, clone], tmp.dir);
    expect(fs.readFileSync(path.join(clone, 'README.md'), 'utf8')).toBe('# tool\n');
    expect((await s.api('GET', '/orgs/acme/repos')).body.map((x: { name: string }) => x.name)).toContain('tools');
    expect((await s.api('GET', '/users/octo/repos')).body.map((x: { name: string }) => x.name)).not.toContain('tool');
  });

  it('moves an organization’s repository to its admin’s own account, with changes.owner.from.organization', async () => {
    const lastEvent = await lastEventId(s);
    const r = await transfer(octo.token, 'acme/tools', { new_owner: 'octo' });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ full_name: 'octo/tools', owner: { login: 'octo', type: 'User' } });
    const [moved] = await eventsSince(s, lastEvent, 'repository');
    expect(moved).toMatchObject({ action: 'transferred', org_id: null, sender_id: octo.id });
    expect(moved.payload.changes).toMatchObject({ owner: { from: { organization: { login: 'Acme', id: acme.id } } } });
    expect(moved.payload).not.toHaveProperty('organization');
    expectWebhookPayload('repository', moved.payload);
  });

  it('refuses in GitHub’s shape and changes nothing', async () => {
    expect((await s.api('POST', '/user/repos', { token: octo.token, body: { name: 'kept' } })).status).toBe(201);
    expect((await s.api('POST', '/orgs/acme/repos', { token: octo.token, body: { name: 'kept' } })).status).toBe(201);
    expect((await s.api('POST', '/user/repos', { token: octo.token, body: { name: 'hidden', private: true } })).status).toBe(201);
    const lastEvent = await lastEventId(s);
    const refusals: [string, string, unknown, number, string | RegExp][] = [
      [octo.token, 'octo/kept', { new_owner: 'acme' }, 422, 'Validation Failed'],
      [octo.token, 'octo/kept', { new_owner: 'nobody-here' }, 422, 'Validation Failed'],
      [octo.token, 'octo/kept', { new_owner: 'closed' }, 422, 'Validation Failed'],
      [octo.token, 'octo/kept', { new_owner: 'mona' }, 422, 'Validation Failed'],
      [octo.token, 'octo/kept', { new_owner: 'octo' }, 422, 'Validation Failed'],
      [octo.token, 'octo/kept', {}, 422, 'Validation Failed'],
      [mona.token, 'octo/kept', { new_owner: 'mona' }, 403, 'Must have admin rights to Repository.'],
      [mona.token, 'octo/hidden', { new_owner: 'mona' }, 404, 'Not Found'],
    ];
    for (const [token, repo, body, status, message] of refusals) {
      const r = await transfer(token, repo, body);
      expect([repo, body, r.status]).toEqual([repo, body, status]);
      expect(r.body.message).toMatch(message);
      expect(r.body.documentation_url).toEqual(expect.any(String));
    }
    const taken = await transfer(octo.token, 'octo/kept', { new_owner: 'acme' });
    expect(taken.body.errors).toEqual([expect.objectContaining({ resource: 'Repository', field: 'name', code: 'custom' })]);
    expect((await transfer(octo.token, 'octo/kept', {})).body.errors).toEqual([
      expect.objectContaining({ field: 'new_owner', code: 'missing_field' }),
    ]);
    const closed = await transfer(octo.token, 'octo/kept', { new_owner: 'closed' });
    expect(closed.body.errors[0]).toMatchObject({
      field: 'new_owner',
      message: "You don't have the permission to create repositories on Closed",
    });
    expect((await s.api('GET', '/repos/octo/kept')).body.full_name).toBe('octo/kept');
    expect(await eventsSince(s, lastEvent)).toEqual([]);
  });

  it('a site admin may move a repository they administer to any account', async () => {
    expect((await s.api('POST', '/user/repos', { token: s.adminToken, body: { name: 'present' } })).status).toBe(201);
    const r = await transfer(s.adminToken, 'admin/present', { new_owner: 'mona', new_name: 'gift' });
    expect(r.status).toBe(202);
    expect(r.body.full_name).toBe('mona/gift');
    expect((await s.api('GET', '/repos/mona/gift', { token: mona.token })).body.permissions).toMatchObject({ admin: true });
  });
});
