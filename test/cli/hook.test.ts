// The `hook` commands' run functions against a stubbed client and a fake I/O (no server, no data dir): an organization's
// and a repository's hooks, the requests each command makes, what it prints and how it ends.
import { describe, expect, it } from 'vitest';
import { runCreate } from '../../src/cli/commands/hook/create.js';
import { runDelete } from '../../src/cli/commands/hook/delete.js';
import { runDeliveries } from '../../src/cli/commands/hook/deliveries.js';
import { runDelivery } from '../../src/cli/commands/hook/delivery.js';
import { runEdit } from '../../src/cli/commands/hook/edit.js';
import { runList } from '../../src/cli/commands/hook/list.js';
import { runPing } from '../../src/cli/commands/hook/ping.js';
import { runRedeliver } from '../../src/cli/commands/hook/redeliver.js';
import { runRedeliverFailed } from '../../src/cli/commands/hook/redeliver-failed.js';
import { runView } from '../../src/cli/commands/hook/view.js';
import { fakeIO } from '../helpers/cli-inprocess.js';
import { deliveryBody, hookBody } from './bodies.js';
import { stubClient } from './stub-client.js';

const acme = { org: 'acme' };
const H = '/orgs/acme/hooks/12';

describe('hook list, view', () => {
  it("lists an organization's hooks as a table, a repository's from its own path", async () => {
    const client = stubClient({
      'GET /orgs/acme/hooks?per_page=100': {
        body: [
          hookBody(),
          hookBody({
            id: 13,
            active: false,
            events: ['push', 'fork'],
            last_response: { code: 500, status: 'failed', message: 'Internal Server Error' },
          }),
        ],
      },
      'GET /repos/octo/app/hooks?per_page=100': { body: [] },
    });
    const fake = fakeIO();
    await runList({ client, json: false, owner: acme }, fake.io);
    expect(fake.stdout().split('\n')).toEqual([
      'ID  URL                          EVENTS     ACTIVE  LAST',
      '12  https://ci.example.com/hook  push       yes     unused',
      '13  https://ci.example.com/hook  push,fork  no      Internal Server Error',
      '',
    ]);
    await runList({ client, json: true, owner: { repo: { owner: 'octo', name: 'app' } } }, fakeIO().io);
    expect(client.calls()).toEqual(['GET /orgs/acme/hooks?per_page=100', 'GET /repos/octo/app/hooks?per_page=100']);
  });

  it('shows one hook as fields, its secret as set or none', async () => {
    const client = stubClient({ [`GET ${H}`]: { body: hookBody() } });
    const fake = fakeIO();
    await runView({ client, json: false, owner: acme, id: '12' }, fake.io);
    expect(fake.stdout()).toContain('url           https://ci.example.com/hook\n');
    expect(fake.stdout()).toContain('secret        set\n');
    expect(fake.stdout()).toContain('last response unused\n');
  });
});

describe('hook create, edit, delete', () => {
  it('creates with the config GitHub takes, runs the delivery queue, and says what it made', async () => {
    const client = stubClient({ 'POST /orgs/acme/hooks': { status: 201, body: hookBody({ events: ['push', 'fork'] }) } });
    const fake = fakeIO();
    await runCreate(
      {
        client,
        json: false,
        owner: acme,
        url: 'https://ci.example.com/hook',
        contentType: 'json',
        events: ['push', 'fork'],
        insecureSsl: true,
      },
      fake.io,
    );
    expect(client.sent[0].body).toEqual({
      name: 'web',
      config: { url: 'https://ci.example.com/hook', content_type: 'json', secret: undefined, insecure_ssl: '1' },
      events: ['push', 'fork'],
      active: true,
    });
    expect(client.settled).toEqual([['hooks.deliver']]);
    expect(fake.stdout()).toBe('created hook 12 on acme for push, fork → https://ci.example.com/hook\n');
  });

  it('edit sends config changes to …/config and the rest to the hook; nothing to change is a usage error', async () => {
    const client = stubClient({ [`PATCH ${H}/config`]: { body: {} }, [`PATCH ${H}`]: { body: hookBody({ active: false }) } });
    const fake = fakeIO();
    await runEdit({ client, json: false, owner: acme, id: '12', removeSecret: true, active: false }, fake.io);
    expect(client.sent.map((s) => [s.method, s.path, s.body])).toEqual([
      ['PATCH', `${H}/config`, { secret: '' }],
      ['PATCH', H, { active: false }],
    ]);
    expect(fake.stdout()).toContain('active        no\n');
    const none = stubClient({});
    await expect(runEdit({ client: none, json: false, owner: acme, id: '12' }, fakeIO().io)).rejects.toMatchObject({
      code: 2,
      message: 'hublet: nothing to change (see hublet hook edit --help)',
    });
    expect(none.sent).toEqual([]);
  });

  it('delete removes the hook and runs the queue its meta event is on', async () => {
    const client = stubClient({ [`DELETE ${H}`]: { status: 204 } });
    const fake = fakeIO();
    await runDelete({ client, json: true, owner: acme, id: '12' }, fake.io);
    expect(client.settled).toEqual([['hooks.deliver']]);
    expect(JSON.parse(fake.stdout())).toEqual({ deleted: 12 });
  });
});

describe('hook ping, deliveries, delivery, redeliver', () => {
  it('ping shows the delivery newer than the ones before it; a failed one exits 1', async () => {
    const ok = stubClient({
      [`GET ${H}/deliveries?per_page=20`]: [{ body: [deliveryBody(5)] }, { body: [deliveryBody(6, { event: 'ping' }), deliveryBody(5)] }],
      [`POST ${H}/pings`]: { status: 204 },
    });
    const fake = fakeIO();
    await runPing({ client: ok, json: false, owner: acme, id: '12', waitMs: 0 }, fake.io);
    expect(ok.calls()).toEqual([`GET ${H}/deliveries?per_page=20`, `POST ${H}/pings`, `GET ${H}/deliveries?per_page=20`]);
    expect(fake.stdout()).toBe('delivery 6 (ping): 200 OK in 0.01s\n');

    const failed = stubClient({
      [`GET ${H}/deliveries?per_page=20`]: [
        { body: [] },
        { body: [deliveryBody(1, { event: 'ping', status_code: 502, status: 'Bad Gateway' })] },
      ],
      [`POST ${H}/pings`]: { status: 204 },
    });
    await expect(runPing({ client: failed, json: false, owner: acme, id: '12', waitMs: 0 }, fakeIO().io)).rejects.toMatchObject({
      code: 1,
      message: 'hublet: delivery 1 failed: Bad Gateway',
    });
  });

  it('ping with no delivery in time says so and exits 0', async () => {
    const client = stubClient({ [`GET ${H}/deliveries?per_page=20`]: { body: [] }, [`POST ${H}/pings`]: { status: 204 } });
    const fake = fakeIO();
    await runPing({ client, json: false, owner: acme, id: '12', waitMs: 0 }, fake.io);
    expect(fake.stdout()).toBe('ping sent to hook 12; not delivered yet\n');
  });

  it('deliveries asks for --status and a bounded --limit, and prints a table', async () => {
    const client = stubClient({
      [`GET ${H}/deliveries?per_page=100&status=failure`]: {
        body: [deliveryBody(9, { action: 'created', event: 'repository', status_code: 0, status: 'timeout', redelivery: true })],
      },
    });
    const fake = fakeIO();
    await runDeliveries({ client, json: false, owner: acme, id: '12', status: 'failure', limit: '500' }, fake.io);
    expect(fake.stdout().split('\n')).toEqual([
      'ID  GUID    EVENT               CODE  STATUS   REDELIVERY  DELIVERED',
      '9   guid-9  repository.created  0     timeout  yes         2026-01-02T03:04:05Z',
      '',
    ]);
  });

  it('delivery prints what was sent and what came back', async () => {
    const d = deliveryBody(9, {
      url: 'https://ci.example.com/hook',
      request: { headers: { 'X-Service-Event': 'push' }, payload: { ref: 'refs/heads/main' } },
      response: { headers: { 'content-type': 'text/plain' }, payload: 'thanks' },
    });
    const client = stubClient({ 'GET /repos/octo/app/hooks/12/deliveries/9': { body: d } });
    const fake = fakeIO();
    await runDelivery({ client, json: false, owner: { repo: { owner: 'octo', name: 'app' } }, id: '12', deliveryId: '9' }, fake.io);
    expect(fake.stdout()).toBe(
      'delivery 9 (push): 200 OK in 0.01s\nguid guid-9\nurl https://ci.example.com/hook\ndelivered 2026-01-02T03:04:05Z\n\n' +
        'request headers\n  X-Service-Event: push\nrequest payload\n{\n  "ref": "refs/heads/main"\n}\n\nresponse headers\n  content-type: text/plain\nresponse body\nthanks\n',
    );
  });

  it('redeliver posts an attempt and shows the redelivery of the same guid', async () => {
    const client = stubClient({
      [`GET ${H}/deliveries/9`]: { body: deliveryBody(9, { status_code: 500, status: 'failed' }) },
      [`GET ${H}/deliveries?per_page=20`]: [
        { body: [deliveryBody(9)] },
        { body: [deliveryBody(10, { guid: 'guid-9', redelivery: true }), deliveryBody(9)] },
      ],
      [`POST ${H}/deliveries/9/attempts`]: { status: 202 },
    });
    const fake = fakeIO();
    await runRedeliver({ client, json: true, owner: acme, id: '12', deliveryId: '9', waitMs: 0 }, fake.io);
    expect(client.calls()[2]).toBe(`POST ${H}/deliveries/9/attempts`);
    expect(JSON.parse(fake.stdout())).toMatchObject({ id: 10, guid: 'guid-9', redelivery: true });
  });

  it('redeliver --failed sends each failed event once, skipping those delivered since, and exits 1 when one is refused', async () => {
    const client = stubClient({
      [`GET ${H}/deliveries?per_page=100&status=failure`]: {
        body: [
          deliveryBody(4, { guid: 'a', status_code: 500 }),
          deliveryBody(3, { guid: 'b', status_code: 500 }),
          deliveryBody(2, { guid: 'a', status_code: 500 }),
          deliveryBody(1, { guid: 'c', status_code: 0 }),
        ],
      },
      [`GET ${H}/deliveries?per_page=100&status=success`]: { body: [deliveryBody(5, { guid: 'b' })] },
      [`POST ${H}/deliveries/4/attempts`]: { status: 202 },
      [`POST ${H}/deliveries/1/attempts`]: { status: 422, body: { message: 'too old' } },
    });
    const fake = fakeIO();
    await expect(runRedeliverFailed({ client, json: false, owner: acme, id: '12' }, fake.io)).rejects.toMatchObject({
      code: 1,
      message: 'hublet: 1 of 2 redeliveries failed',
    });
    expect(client.calls().filter((c) => c.startsWith('POST'))).toEqual([
      `POST ${H}/deliveries/1/attempts`,
      `POST ${H}/deliveries/4/attempts`,
    ]);
    expect(client.settled).toEqual([['hooks.deliver']]);
    expect(fake.stderr()).toBe('hublet: could not redeliver 1: 422 too old\n');
    expect(fake.stdout()).toBe(
      'redelivered 4  push  (was 500 OK, 2026-01-02T03:04:05Z)\n1 failed delivery of hook 12 redelivered (1 delivered successfully since, skipped; 1 could not be redelivered)\n',
    );
  });
});
