// Deliveries to real receivers on 127.0.0.1: ping on create, meta on delete, signatures over the exact bytes (json and
// form), the recorded attempts (list, single, status filter, cursor pages), redelivery keeping the guid, and failures.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { signaturesValid, startReceiver, type Received, type Receiver } from './receiver.js';

const VERSION = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let s: TestServer;
let rcv: Receiver;
let owner: { login: string; id: number; token: string };
let org: { login: string; id: number };

beforeAll(async () => {
  s = await startServer();
  rcv = await startReceiver();
  owner = await s.userWithToken('octo');
  org = await s.createOrg('Acme', 'octo');
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
});

let n = 0;
const nextPath = () => `/d/${++n}`;

async function createHook(config: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const r = await s.api('POST', '/orgs/acme/hooks', { token: owner.token, body: { name: 'web', config, ...extra } });
  if (r.status !== 201) throw new Error(`create hook: ${r.status} ${r.text}`);
  return r.body as { id: number; url: string; config: Record<string, string> };
}

const onPath = (path: string) => (r: Received) => r.path === path;
const deliveriesOf = async (hookId: number, query = '') => {
  await s.app.hublet.jobs.idle();
  const r = await s.api('GET', `/orgs/acme/hooks/${hookId}/deliveries${query}`, { token: owner.token });
  expect(r.status).toBe(200);
  return checkSchema(r, 'GET /orgs/{org}/hooks/{hook_id}/deliveries') as any[];
};
const deliveryOf = async (hookId: number, id: number) => {
  const r = await s.api('GET', `/orgs/acme/hooks/${hookId}/deliveries/${id}`, { token: owner.token });
  expect(r.status).toBe(200);
  return checkSchema(r, 'GET /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}');
};

describe('ping on creation', () => {
  it('posts a signed JSON ping with the headers of spec section 6, and records it', async () => {
    const path = nextPath();
    const hook = await createHook({ url: rcv.url + path, content_type: 'json', secret: 'It’s a secret to everybody' });
    const [got] = await rcv.waitFor(1, onPath(path));
    expect(got.method).toBe('POST');
    expect(got.headers).toMatchObject({
      accept: '*/*',
      'user-agent': `hublet-Hookshot/${VERSION}`,
      'x-service-event': 'ping',
      'x-service-hook-id': String(hook.id),
      'x-service-hook-installation-target-id': String(org.id),
      'x-service-hook-installation-target-type': 'organization',
      'content-type': 'application/json',
    });
    expect(got.headers['x-service-delivery']).toMatch(UUID);
    expect(signaturesValid(got, 'It’s a secret to everybody')).toBe(true);
    expect(signaturesValid(got, 'another secret')).toBe(false);
    expect(JSON.parse(got.body.toString('utf8'))).toEqual(got.payload);
    expect(got.payload).toEqual({
      zen: expect.any(String),
      hook_id: hook.id,
      hook: { ...hook, last_response: undefined },
      organization: expect.objectContaining({ login: 'Acme', id: org.id, hooks_url: `${s.url}/orgs/Acme/hooks` }),
      sender: expect.objectContaining({ login: 'octo', id: owner.id, type: 'User' }),
    });
    expect(got.body.toString('utf8')).not.toContain('everybody');
    expectWebhookPayload('ping', got.payload);

    const [item] = await deliveriesOf(hook.id);
    expect(item).toEqual({
      id: expect.any(Number),
      guid: got.headers['x-service-delivery'],
      delivered_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      redelivery: false,
      duration: expect.any(Number),
      status: 'OK',
      status_code: 200,
      event: 'ping',
      action: null,
      installation_id: null,
      repository_id: null,
      throttled_at: null,
    });
    const one = await deliveryOf(hook.id, item.id);
    expect(one).toEqual({
      ...item,
      url: rcv.url + path,
      request: {
        headers: {
          Accept: '*/*',
          'User-Agent': `hublet-Hookshot/${VERSION}`,
          'X-Service-Delivery': item.guid,
          'X-Service-Event': 'ping',
          'X-Service-Hook-ID': String(hook.id),
          'X-Service-Hook-Installation-Target-ID': String(org.id),
          'X-Service-Hook-Installation-Target-Type': 'organization',
          'X-Hub-Signature': got.headers['x-hub-signature'],
          'X-Hub-Signature-256': got.headers['x-hub-signature-256'],
          'content-type': 'application/json',
        },
        payload: got.payload,
      },
      response: { headers: expect.objectContaining({ 'content-type': 'text/plain', connection: 'keep-alive' }), payload: 'thanks' },
    });
    const hookNow = await s.api('GET', `/orgs/acme/hooks/${hook.id}`, { token: owner.token });
    expect(hookNow.body.last_response).toEqual({ code: 200, status: 'active', message: 'OK' });
  });

  it('form hooks post payload=<url-encoded JSON>, signed over exactly those bytes', async () => {
    const path = nextPath();
    await createHook({ url: rcv.url + path, secret: 'form secret' });
    const [got] = await rcv.waitFor(1, onPath(path));
    expect(got.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const text = got.body.toString('utf8');
    expect(text.startsWith('payload=%7B%22zen%22')).toBe(true);
    expect(new URLSearchParams(text).get('payload')).toBe(JSON.stringify(got.payload));
    expect(signaturesValid(got, 'form secret')).toBe(true);
  });

  it('sends no signature without a secret, and none after an update that leaves the secret out (spec 4.2 rule 1)', async () => {
    const path = nextPath();
    const hook = await createHook({ url: rcv.url + path, secret: 'first' });
    const [signed] = await rcv.waitFor(1, onPath(path));
    expect(signaturesValid(signed, 'first')).toBe(true);
    const patched = await s.api('PATCH', `/orgs/acme/hooks/${hook.id}`, {
      token: owner.token,
      body: { config: { url: rcv.url + path, content_type: 'json' } },
    });
    expect(patched.status).toBe(200);
    expect((await s.api('POST', `/orgs/acme/hooks/${hook.id}/pings`, { token: owner.token })).status).toBe(204);
    const [, unsigned] = await rcv.waitFor(2, onPath(path));
    expect(unsigned.headers['x-hub-signature']).toBeUndefined();
    expect(unsigned.headers['x-hub-signature-256']).toBeUndefined();
    // The config endpoint sets a secret without touching the rest.
    await s.api('PATCH', `/orgs/acme/hooks/${hook.id}/config`, { token: owner.token, body: { secret: 'second' } });
    await s.octokit(owner.token).rest.orgs.pingWebhook({ org: 'acme', hook_id: hook.id });
    const [, , resigned] = await rcv.waitFor(3, onPath(path));
    expect(resigned.headers['content-type']).toBe('application/json');
    expect(signaturesValid(resigned, 'second')).toBe(true);
  });

  it('an inactive hook gets no ping on creation, but the ping endpoint still pings it (204)', async () => {
    const path = nextPath();
    const hook = await createHook({ url: rcv.url + path }, { active: false });
    await s.app.hublet.jobs.idle();
    expect(rcv.received.filter(onPath(path))).toHaveLength(0);
    const r = await s.api('POST', `/orgs/acme/hooks/${hook.id}/pings`, { token: owner.token });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const [got] = await rcv.waitFor(1, onPath(path));
    expect(got.headers['x-service-event']).toBe('ping');
    expect(got.payload.hook.active).toBe(false);
  });
});

describe('pings sent at the same moment', () => {
  it('share a transaction but each is its own event: 40 concurrent pings, 40 deliveries with 40 guids, all recorded', async () => {
    const path = nextPath();
    const hook = await createHook({ url: rcv.url + path, content_type: 'json' });
    await rcv.waitFor(1, onPath(path)); // the creation ping
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => s.api('POST', `/orgs/acme/hooks/${hook.id}/pings`, { token: owner.token })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(204));
    const got = await rcv.waitFor(41, onPath(path));
    const guids = new Set(got.map((r) => r.headers['x-service-delivery']));
    expect(guids.size).toBe(41);
    const recorded = await deliveriesOf(hook.id, '?per_page=100');
    expect(recorded.filter((d) => d.event === 'ping')).toHaveLength(41);
    expect(new Set(recorded.map((d) => d.guid))).toEqual(guids);
  });
});

describe('meta on deletion', () => {
  it('sends a signed meta event with action deleted to the hook as it goes', async () => {
    const path = nextPath();
    const hook = await createHook({ url: rcv.url + path, content_type: 'json', secret: 'bye' });
    await rcv.waitFor(1, onPath(path));
    expect((await s.api('DELETE', `/orgs/acme/hooks/${hook.id}`, { token: owner.token })).status).toBe(204);
    const [, meta] = await rcv.waitFor(2, onPath(path));
    expect(meta.headers['x-service-event']).toBe('meta');
    expect(meta.headers['x-service-hook-id']).toBe(String(hook.id));
    expect(signaturesValid(meta, 'bye')).toBe(true);
    expect(meta.payload).toEqual({
      action: 'deleted',
      hook_id: hook.id,
      hook: expect.objectContaining({
        id: hook.id,
        type: 'Organization',
        events: ['push'],
        config: { url: rcv.url + path, content_type: 'json', insecure_ssl: '0', secret: '********' },
      }),
      organization: expect.objectContaining({ login: 'Acme' }),
      sender: expect.objectContaining({ login: 'octo' }),
    });
    expectWebhookPayload('meta', meta.payload);
    // Its history went with it.
    expect((await s.api('GET', `/orgs/acme/hooks/${hook.id}/deliveries`, { token: owner.token })).status).toBe(404);
  });
});

describe('GET /orgs/{org}/hooks/{hook_id}/deliveries', () => {
  let hook: { id: number };
  const codes = [200, 500, 201, 404, 200];
  let ids: number[] = [];

  beforeAll(async () => {
    const path = nextPath();
    let i = 0;
    rcv.answer((r) => (r.path === path ? { status: codes[i++] } : { status: 200 }));
    hook = await createHook({ url: rcv.url + path, content_type: 'json' });
    await rcv.waitFor(1, onPath(path));
    for (let k = 1; k < codes.length; k++) {
      await s.app.hublet.jobs.idle();
      await s.api('POST', `/orgs/acme/hooks/${hook.id}/pings`, { token: owner.token });
      await rcv.waitFor(k + 1, onPath(path));
    }
    rcv.answer({ status: 200 });
    ids = (await deliveriesOf(hook.id)).map((d) => d.id);
  });

  it('lists every attempt newest first, with the status GitHub gives', async () => {
    const list = await deliveriesOf(hook.id);
    expect(list.map((d) => d.status_code)).toEqual([...codes].reverse());
    expect(list.map((d) => d.status)).toEqual(['OK', 'Invalid HTTP Response: 404', 'OK', 'Invalid HTTP Response: 500', 'OK']);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('filters by status: success is 200–399, failure 400–599', async () => {
    expect((await deliveriesOf(hook.id, '?status=success')).map((d) => d.status_code)).toEqual([200, 201, 200]);
    expect((await deliveriesOf(hook.id, '?status=failure')).map((d) => d.status_code)).toEqual([404, 500]);
  });

  it('pages by cursor, with next and prev cursors in the Link header', async () => {
    const get = (url: string) => s.api('GET', url.replace(s.url, ''), { token: owner.token });
    const links = (h: string | null) => Object.fromEntries([...(h ?? '').matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [m[2], m[1]]));
    const first = await get(`/orgs/acme/hooks/${hook.id}/deliveries?per_page=2`);
    expect(first.body.map((d: { id: number }) => d.id)).toEqual(ids.slice(0, 2));
    const l1 = links(first.headers.get('link'));
    expect(l1.prev).toBeUndefined();
    expect(l1.next).toMatch(new RegExp(`^${s.url}/orgs/acme/hooks/${hook.id}/deliveries\\?per_page=2&cursor=[\\w-]+$`));
    const second = await get(l1.next);
    expect(second.body.map((d: { id: number }) => d.id)).toEqual(ids.slice(2, 4));
    const l2 = links(second.headers.get('link'));
    const third = await get(l2.next);
    expect(third.body.map((d: { id: number }) => d.id)).toEqual(ids.slice(4));
    const l3 = links(third.headers.get('link'));
    expect(l3.next).toBeUndefined();
    expect((await get(l3.prev)).body.map((d: { id: number }) => d.id)).toEqual(ids.slice(2, 4));
    expect((await get(l2.prev)).body.map((d: { id: number }) => d.id)).toEqual(ids.slice(0, 2));
    // The filter travels with the cursor.
    const failures = await get(`/orgs/acme/hooks/${hook.id}/deliveries?per_page=1&status=failure`);
    const next = links(failures.headers.get('link')).next;
    expect(next).toContain('status=failure');
    expect((await get(next)).body.map((d: { status_code: number }) => d.status_code)).toEqual([500]);
    // Octokit's own paging follows the cursors.
    const all = await s
      .octokit(owner.token)
      .paginate(s.octokit(owner.token).rest.orgs.listWebhookDeliveries, { org: 'acme', hook_id: hook.id, per_page: 2 });
    expect(all.map((d) => d.id)).toEqual(ids);
  });

  it('redelivers: 202, then a new delivery marked redelivery with the same guid', async () => {
    const failed = (await deliveriesOf(hook.id, '?status=failure'))[0];
    const path = new URL((await deliveryOf(hook.id, failed.id)).url).pathname;
    const before = rcv.received.filter(onPath(path)).length;
    const r = await s.api('POST', `/orgs/acme/hooks/${hook.id}/deliveries/${failed.id}/attempts`, { token: owner.token });
    expect(r.status).toBe(202);
    expect(checkSchema(r, 'POST /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}/attempts')).toEqual({});
    const got = (await rcv.waitFor(before + 1, onPath(path)))[before];
    expect(got.headers['x-service-delivery']).toBe(failed.guid);
    const [latest] = await deliveriesOf(hook.id);
    expect(latest).toMatchObject({ guid: failed.guid, redelivery: true, status: 'OK', status_code: 200, event: 'ping' });
    expect(latest.id).toBeGreaterThan(ids[0]);
    const original = await deliveryOf(hook.id, failed.id);
    expect((await deliveryOf(hook.id, latest.id)).request.payload).toEqual(original.request.payload);
    // Octokit's call for it, too.
    const again = await s
      .octokit(owner.token)
      .rest.orgs.redeliverWebhookDelivery({ org: 'acme', hook_id: hook.id, delivery_id: latest.id });
    expect(again.status).toBe(202);
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ guid: failed.guid, redelivery: true });
  });
});

describe('failed deliveries', () => {
  it('records a 500 with the response body, a redirect as not followed, a closed port as failed to connect', async () => {
    const paths = { five: nextPath(), redirect: nextPath() };
    rcv.answer((r) => {
      if (r.path === paths.five) return { status: 500, body: 'database on fire' };
      if (r.path === paths.redirect) return { status: 302, headers: { location: `${rcv.url}/elsewhere` }, body: '' };
      return { status: 200 };
    });
    const closed = await startReceiver();
    const closedUrl = `${closed.url}/gone`;
    await closed.close();
    const five = await createHook({ url: rcv.url + paths.five, content_type: 'json' });
    const redirect = await createHook({ url: rcv.url + paths.redirect, content_type: 'json' });
    const refused = await createHook({ url: closedUrl, content_type: 'json' });
    const first = async (id: number) => (await deliveriesOf(id))[0];
    expect(await first(five.id)).toMatchObject({ status: 'Invalid HTTP Response: 500', status_code: 500 });
    expect((await deliveryOf(five.id, (await first(five.id)).id)).response.payload).toBe('database on fire');
    expect(await first(redirect.id)).toMatchObject({ status: 'Invalid HTTP Response: 302', status_code: 302 });
    expect(rcv.received.filter(onPath('/elsewhere'))).toHaveLength(0);
    expect(await first(refused.id)).toMatchObject({ status: 'failed to connect', status_code: 0 });
    expect((await deliveryOf(refused.id, (await first(refused.id)).id)).response).toEqual({ headers: {}, payload: null });
    // Failures without a response count as failures.
    expect(await deliveriesOf(refused.id, '?status=failure')).toHaveLength(1);
    expect(await deliveriesOf(refused.id, '?status=success')).toHaveLength(0);
    const hookNow = await s.api('GET', `/orgs/acme/hooks/${five.id}`, { token: owner.token });
    expect(hookNow.body.last_response).toEqual({ code: 500, status: 'misconfigured', message: 'Invalid HTTP Response: 500' });
    rcv.answer({ status: 200 });
  });

  it('keeps the first 64 KiB of a large response body', async () => {
    const path = nextPath();
    rcv.answer((r) => (r.path === path ? { status: 200, body: `${'x'.repeat(100 * 1024)}END` } : { status: 200 }));
    const hook = await createHook({ url: rcv.url + path, content_type: 'json' });
    await rcv.waitFor(1, onPath(path));
    const [d] = await deliveriesOf(hook.id);
    const detail = await deliveryOf(hook.id, d.id);
    expect(detail.status).toBe('OK');
    expect(detail.response.payload).toBe('x'.repeat(64 * 1024));
    rcv.answer({ status: 200 });
  });

  it('gives up on a receiver that does not answer within the (configurable) timeout: timed out', async () => {
    const t = await startServer({ config: { hookTimeoutMs: 300 } });
    try {
      const o = await t.userWithToken('waiter');
      await t.createOrg('slow', 'waiter');
      const path = nextPath();
      rcv.answer((r) => (r.path === path ? 'hang' : { status: 200 }));
      const h = await t.api('POST', '/orgs/slow/hooks', { token: o.token, body: { name: 'web', config: { url: rcv.url + path } } });
      await rcv.waitFor(1, onPath(path));
      await t.app.hublet.jobs.idle();
      const [d] = (await t.api('GET', `/orgs/slow/hooks/${h.body.id}/deliveries`, { token: o.token })).body;
      expect(d).toMatchObject({ status: 'timed out', status_code: 0 });
      const detail = await t.api('GET', `/orgs/slow/hooks/${h.body.id}/deliveries/${d.id}`, { token: o.token });
      expect(detail.body.response).toEqual({ headers: {}, payload: null });
    } finally {
      rcv.answer({ status: 200 });
      await t.close();
    }
  });

  it('does not send a payload over 25 MB, and records it as failed', async () => {
    const path = nextPath();
    const hook = await createHook({ url: rcv.url + path, content_type: 'json' }, { events: ['push'] });
    await rcv.waitFor(1, onPath(path));
    await s.db
      .transaction()
      .execute((trx) =>
        s.app.hublet.events.emit(
          trx,
          { name: 'push', orgId: org.id, senderId: owner.id, payload: { ref: 'refs/heads/main', blob: 'x'.repeat(25 * 1024 * 1024 + 1) } },
          new Date(),
        ),
      );
    const [big] = await deliveriesOf(hook.id);
    expect(big).toMatchObject({ event: 'push', status_code: 0, status: expect.stringMatching(/^Payload too large: \d+ bytes/) });
    expect(rcv.received.filter(onPath(path))).toHaveLength(1);
  });
});

describe('events hooks subscribe to', () => {
  it('delivers an event to each active hook subscribed to it or to *, one guid for all of them', async () => {
    const paths = [nextPath(), nextPath(), nextPath(), nextPath()];
    const push = await createHook({ url: rcv.url + paths[0], content_type: 'json' }, { events: ['push'] });
    const star = await createHook({ url: rcv.url + paths[1], content_type: 'json' }, { events: ['*'] });
    const other = await createHook({ url: rcv.url + paths[2], content_type: 'json' }, { events: ['repository'] });
    const inactive = await createHook({ url: rcv.url + paths[3], content_type: 'json' }, { events: ['push'], active: false });
    await s.app.hublet.jobs.idle();
    const event = await s.db
      .transaction()
      .execute((trx) =>
        s.app.hublet.events.emit(
          trx,
          { name: 'push', orgId: org.id, repositoryId: 77, senderId: owner.id, payload: { ref: 'refs/heads/main', after: 'abc' } },
          new Date(),
        ),
      );
    const [a] = await rcv.waitFor(1, (r) => r.path === paths[0] && r.headers['x-service-event'] === 'push');
    const [b] = await rcv.waitFor(1, (r) => r.path === paths[1] && r.headers['x-service-event'] === 'push');
    expect(a.headers['x-service-delivery']).toBe(event.guid);
    expect(b.headers['x-service-delivery']).toBe(event.guid);
    expect(a.payload).toEqual({ ref: 'refs/heads/main', after: 'abc' });
    await s.app.hublet.jobs.idle();
    expect(
      rcv.received.filter((r) => (r.path === paths[2] || r.path === paths[3]) && r.headers['x-service-event'] === 'push'),
    ).toHaveLength(0);
    const [d] = await deliveriesOf(push.id);
    expect(d).toMatchObject({ event: 'push', repository_id: 77, guid: event.guid });
    expect((await deliveriesOf(star.id))[0].guid).toBe(event.guid);
    expect(await deliveriesOf(other.id)).toHaveLength(1); // its ping only
    expect(await deliveriesOf(inactive.id)).toHaveLength(0);
  });
});

describe('delivery history retention', () => {
  it('prunes deliveries older than the configured days with its periodic job', async () => {
    let offset = 0;
    const clock = { now: () => new Date(Date.now() + offset) };
    const t = await startServer({ clock, config: { deliveryRetentionDays: 2 } });
    try {
      const o = await t.userWithToken('keeper');
      await t.createOrg('kept', 'keeper');
      const path = nextPath();
      const created = await t.api('POST', '/orgs/kept/hooks', { token: o.token, body: { name: 'web', config: { url: rcv.url + path } } });
      await rcv.waitFor(1, onPath(path));
      await t.app.hublet.jobs.idle();
      const list = async () => (await t.api('GET', `/orgs/kept/hooks/${created.body.id}/deliveries`, { token: o.token })).body as unknown[];
      expect(await list()).toHaveLength(1);
      // Three days later the next prune run is due and the ping is past retention.
      offset = 3 * 86_400_000;
      const deadline = Date.now() + 10_000;
      while ((await list()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await list()).toHaveLength(0);
      // The ping's event went with its last delivery.
      const events = await t.db.selectFrom('events').select('name').execute();
      expect(events.filter((e) => e.name === 'ping')).toEqual([]);
      await t.api('POST', `/orgs/kept/hooks/${created.body.id}/pings`, { token: o.token });
      await rcv.waitFor(2, onPath(path));
      await t.app.hublet.jobs.idle();
      expect(await list()).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
