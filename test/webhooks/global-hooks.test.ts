// Global (site) webhooks, GitHub Enterprise's /admin/hooks: site admins only, GitHub Enterprise's shapes and default
// events, the same engine (signed, recorded in the delivery log), and the site-wide `repository` events they receive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { signaturesValid, startReceiver, type Received, type Receiver } from './receiver.js';

let s: TestServer;
let rcv: Receiver;
let octo: { login: string; id: number; token: string };

const at = (p: string, event?: string) => (r: Received) => r.path === p && (event === undefined || r.headers['x-service-event'] === event);
let n = 0;
const fresh = () => `/global/${++n}`;

beforeAll(async () => {
  s = await startServer();
  rcv = await startReceiver();
  octo = await s.userWithToken('octo');
  await s.createOrg('Acme', 'octo');
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
});

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

describe('/admin/hooks', () => {
  it("creates, reads, updates, pings and deletes a global hook in GitHub Enterprise's shapes; deliveries are logged", async () => {
    const url = rcv.url + fresh();
    const where = new URL(url).pathname;
    const created = await s.api('POST', '/admin/hooks', {
      token: s.adminToken,
      body: { name: 'web', config: { url, content_type: 'json', secret: 'site-secret' } },
    });
    expect(created.status).toBe(201);
    const hook = checkSchema(created, 'POST /admin/hooks');
    const self = `${s.url}/admin/hooks/${hook.id}`;
    expect(hook).toEqual({
      type: 'Global',
      id: expect.any(Number),
      name: 'web',
      active: true,
      events: ['user', 'organization'],
      config: { content_type: 'json', insecure_ssl: '0', url, secret: '********' },
      updated_at: iso,
      created_at: iso,
      url: self,
      ping_url: `${self}/pings`,
    });
    expect(created.headers.get('location')).toBe(self);
    expect(created.text).not.toContain('site-secret');

    const [ping] = await rcv.waitFor(1, at(where, 'ping'));
    expect(signaturesValid(ping, 'site-secret')).toBe(true);
    expect(ping.headers).toMatchObject({
      'x-service-hook-id': String(hook.id),
      'x-service-hook-installation-target-type': 'business',
      'x-service-hook-installation-target-id': '1',
    });
    expect(ping.payload).toMatchObject({ hook_id: hook.id, hook: { type: 'Global', url: self }, sender: { login: expect.any(String) } });
    expect(ping.payload.organization).toBeUndefined();
    expectWebhookPayload('ping', ping.payload);

    const list = await s.api('GET', '/admin/hooks', { token: s.adminToken });
    expect(checkSchema(list, 'GET /admin/hooks').map((h: { id: number }) => h.id)).toEqual([hook.id]);
    expect(checkSchema(await s.api('GET', `/admin/hooks/${hook.id}`, { token: s.adminToken }), 'GET /admin/hooks/{hook_id}')).toEqual(hook);

    const patched = await s.api('PATCH', `/admin/hooks/${hook.id}`, {
      token: s.adminToken,
      body: { events: ['repository', 'user'], config: { url, content_type: 'form' } },
    });
    expect(checkSchema(patched, 'PATCH /admin/hooks/{hook_id}')).toMatchObject({
      events: ['repository', 'user'],
      config: { content_type: 'form', url },
    });
    // A config given replaces the whole config: the secret went with it.
    expect(patched.body.config.secret).toBeUndefined();

    expect((await s.api('POST', `/admin/hooks/${hook.id}/pings`, { token: s.adminToken })).status).toBe(204);
    const second = (await rcv.waitFor(2, at(where, 'ping')))[1];
    expect(second.headers['content-type']).toBe('application/x-www-form-urlencoded');
    await s.app.hublet.jobs.idle();
    const logged = await s.db
      .selectFrom('hook_deliveries')
      .select(['event', 'guid', 'status_code'])
      .where('hook_id', '=', hook.id)
      .orderBy('id')
      .execute();
    expect(logged).toEqual([
      { event: 'ping', guid: ping.headers['x-service-delivery'], status_code: 200 },
      { event: 'ping', guid: second.headers['x-service-delivery'], status_code: 200 },
    ]);

    expect((await s.api('DELETE', `/admin/hooks/${hook.id}`, { token: s.adminToken })).status).toBe(204);
    expect((await s.api('GET', `/admin/hooks/${hook.id}`, { token: s.adminToken })).status).toBe(404);
    expect((await s.api('GET', '/admin/hooks', { token: s.adminToken })).body).toEqual([]);
  });

  it('takes the event names global hooks have, and refuses others with a 422', async () => {
    const bad = await s.api('POST', '/admin/hooks', {
      token: s.adminToken,
      body: { name: 'web', events: ['push', 'user'], config: { url: rcv.url + fresh() } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ resource: 'Hook', code: 'custom', field: 'events', message: 'Invalid event(s): "push"' }]);
    const ok = await s.api('POST', '/admin/hooks', {
      token: s.adminToken,
      body: {
        name: 'web',
        active: false,
        events: ['organization', 'repository', 'team', 'member', 'membership', 'fork'],
        config: { url: rcv.url + fresh() },
      },
    });
    expect(ok.status).toBe(201);
    const dup = await s.api('POST', '/admin/hooks', { token: s.adminToken, body: { name: 'web', config: { url: ok.body.config.url } } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0].message).toBe('Hook already exists on this enterprise');
    expect((await s.api('DELETE', `/admin/hooks/${ok.body.id}`, { token: s.adminToken })).status).toBe(204);
  });

  it('site admins only: 404 for other users, 403 for a site admin token without site_admin, 401 anonymous', async () => {
    const made = await s.api('POST', '/admin/hooks', {
      token: s.adminToken,
      body: { name: 'web', active: false, config: { url: rcv.url + fresh() } },
    });
    expect(made.status).toBe(201);
    await s.createUser('boss', { siteAdmin: true });
    const unscoped = await s.createToken('boss', { scopes: ['repo'] });
    for (const [token, status] of [
      [octo.token, 404],
      [unscoped, 403],
      [undefined, 401],
    ] as const) {
      expect((await s.api('GET', '/admin/hooks', { token })).status).toBe(status);
      expect((await s.api('GET', `/admin/hooks/${made.body.id}`, { token })).status).toBe(status);
      expect((await s.api('POST', '/admin/hooks', { token, body: { name: 'web', config: { url: rcv.url + fresh() } } })).status).toBe(
        status,
      );
      expect((await s.api('POST', `/admin/hooks/${made.body.id}/pings`, { token })).status).toBe(status);
      expect((await s.api('DELETE', `/admin/hooks/${made.body.id}`, { token })).status).toBe(status);
    }
    // An organization's hooks are not the site's, nor the other way round.
    const orgHook = await s.api('POST', '/orgs/acme/hooks', {
      token: octo.token,
      body: { name: 'web', active: false, config: { url: rcv.url + fresh() } },
    });
    expect((await s.api('GET', `/admin/hooks/${orgHook.body.id}`, { token: s.adminToken })).status).toBe(404);
    expect((await s.api('GET', `/orgs/acme/hooks/${made.body.id}`, { token: octo.token })).status).toBe(404);
    expect((await s.api('DELETE', `/admin/hooks/${made.body.id}`, { token: s.adminToken })).status).toBe(204);
  });
});

describe('site-wide events', () => {
  it("a global hook subscribed to repository hears every repository's, a user's and an organization's, and no push", async () => {
    const url = rcv.url + fresh();
    const where = new URL(url).pathname;
    const hook = await s.api('POST', '/admin/hooks', {
      token: s.adminToken,
      body: { name: 'web', events: ['repository'], config: { url, content_type: 'json' } },
    });
    expect(hook.status).toBe(201);
    await rcv.waitFor(1, at(where, 'ping'));
    const mine = await s.api('POST', '/user/repos', { token: octo.token, body: { name: 'mine', auto_init: true } });
    expect(mine.status).toBe(201);
    const theirs = await s.api('POST', '/orgs/acme/repos', { token: octo.token, body: { name: 'theirs' } });
    expect(theirs.status).toBe(201);
    const got = await rcv.waitFor(2, at(where, 'repository'));
    expect(got.map((r) => [r.payload.action, r.payload.repository.full_name])).toEqual([
      ['created', 'octo/mine'],
      ['created', 'Acme/theirs'],
    ]);
    expect(got[0].headers).toMatchObject({
      'x-service-hook-installation-target-type': 'business',
      'x-service-hook-installation-target-id': '1',
    });
    expectWebhookPayload('repository', got[0].payload);
    await s.app.hublet.jobs.idle();
    // auto_init's push went to no global hook.
    expect(rcv.received.filter(at(where)).map((r) => r.headers['x-service-event'])).toEqual(['ping', 'repository', 'repository']);
  });
});
