// Automatic retries on Standard Webhooks' schedule (off by default, as GitHub: HUBLET_HOOK_RETRIES turns them on,
// HUBLET_HOOK_RETRY_BASE_MS scales the schedule), each retry a delivery record of the same GUID marked `redelivery`;
// and a receiver answering 410 Gone, which turns its hook off (retries on or off), is not retried, and is audited.
import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config.js';
import { eventually, orgSite } from './org-site.js';
import { startReceiver, type Receiver } from './receiver.js';

let rcv: Receiver;
beforeAll(async () => {
  rcv = await startReceiver();
  // Each path answers as its name says; `/flaky-*` fails twice, then takes it.
  const calls = new Map<string, number>();
  rcv.answer((r) => {
    const n = (calls.get(r.path) ?? 0) + 1;
    calls.set(r.path, n);
    if (r.path.startsWith('/down')) return { status: 503 };
    if (r.path.startsWith('/gone')) return { status: 410, body: 'no longer here' };
    if (r.path.startsWith('/flaky')) return { status: n <= 2 ? 500 : 200 };
    return { status: 200 };
  });
});
afterAll(async () => rcv?.close());

/** The extras' site, its hooks sending JSON. */
async function site(config: ConfigInput = {}) {
  const x = await orgSite(rcv, config);
  return { ...x, hook: (path: string, more: Record<string, unknown> = {}) => x.hook(path, { content_type: 'json', ...more }) };
}

const received = (path: string) => rcv.received.filter((r) => r.path === path);

describe('automatic retries', () => {
  it('are off by default: a failed delivery is one record, never retried', async () => {
    const x = await site();
    try {
      const id = await x.hook('/down-default');
      expect((await x.deliveries(id)).map((d) => [d.status_code, d.redelivery])).toEqual([[503, false]]);
      await new Promise((r) => setTimeout(r, 200));
      expect(await x.deliveries(id)).toHaveLength(1);
      expect(received('/down-default')).toHaveLength(1);
    } finally {
      await x.s.close();
    }
  });

  it('follow the schedule scaled by HUBLET_HOOK_RETRY_BASE_MS: N more records of the same GUID marked redelivery, in order, then stop', async () => {
    // The first step (5 s) lasts 1 ms, so the next ones 60, 360 and 1440 ms.
    const x = await site({ hookRetries: 4, hookRetryBaseMs: 1 });
    try {
      const secret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
      const id = await x.hook('/down-retried', { secret, signature_format: 'standard' });
      const list = await eventually(
        () => x.deliveries(id),
        (l) => l.length >= 5,
      );
      expect(list.map((d) => d.status_code)).toEqual([503, 503, 503, 503, 503]);
      expect(list.map((d) => d.redelivery)).toEqual([true, true, true, true, false]);
      expect(new Set(list.map((d) => d.guid)).size).toBe(1);
      const times = list.map((d) => Date.parse(d.delivered_at)).reverse();
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      // The receiver got every attempt, each with the same delivery GUID and webhook-id, each signed anew.
      const got = received('/down-retried');
      expect(got).toHaveLength(5);
      expect(new Set(got.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([list[0].guid]));
      expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set([list[0].guid]));
      const last = got[4];
      const headers = Object.fromEntries(Object.entries(last.headers).map(([k, v]) => [k, String(v)]));
      expect(new Webhook(secret).verify(last.body.toString('utf8'), headers)).toEqual(last.payload);
      // Four retries, then no more.
      await new Promise((r) => setTimeout(r, 300));
      expect(await x.deliveries(id)).toHaveLength(5);
    } finally {
      await x.s.close();
    }
  });

  it('stop at the first success', async () => {
    const x = await site({ hookRetries: 5, hookRetryBaseMs: 1 });
    try {
      const id = await x.hook('/flaky-retried');
      const list = await eventually(
        () => x.deliveries(id),
        (l) => l.some((d) => d.status_code === 200),
      );
      expect(list.map((d) => [d.status_code, d.redelivery])).toEqual([
        [200, true],
        [500, true],
        [500, false],
      ]);
      await new Promise((r) => setTimeout(r, 500));
      expect(await x.deliveries(id)).toHaveLength(3);
      expect(received('/flaky-retried')).toHaveLength(3);
    } finally {
      await x.s.close();
    }
  });
});

describe('a receiver answering 410 Gone', () => {
  for (const [label, config] of [
    ['retries off', {}],
    ['retries on', { hookRetries: 3, hookRetryBaseMs: 1 }],
  ] as const) {
    it(`turns its hook off, is not retried, and shows in last_response and the audit log (${label})`, async () => {
      const x = await site(config);
      const path = `/gone-${label.replace(' ', '-')}`;
      try {
        const id = await x.hook(path);
        const list = await x.deliveries(id);
        expect(list.map((d) => [d.status_code, d.redelivery])).toEqual([[410, false]]);
        await new Promise((r) => setTimeout(r, 300));
        expect(await x.deliveries(id)).toHaveLength(1);
        expect(received(path)).toHaveLength(1);

        const hook = (await x.api('GET', `/orgs/acme/hooks/${id}`)).body;
        expect(hook.active).toBe(false);
        expect(hook.last_response).toEqual({ code: 410, status: 'misconfigured', message: 'Invalid HTTP Response: 410' });
        const listed = (await x.api('GET', '/orgs/acme/hooks')).body.find((h: { id: number }) => h.id === id);
        expect(listed).toMatchObject({ active: false, last_response: { code: 410 } });

        const log = await x.api('GET', '/orgs/acme/audit-log?phrase=action:hook.active_changed');
        expect(log.status).toBe(200);
        expect(log.body).toHaveLength(1);
        expect(log.body[0]).toMatchObject({
          action: 'hook.active_changed',
          operation_type: 'modify',
          org: 'acme',
          hook_id: id,
          active: false,
          active_was: true,
          reason: 'the receiver answered 410 Gone',
          delivery_guid: list[0].guid,
        });
        expect(log.body[0]).not.toHaveProperty('actor');

        // PATCH active true turns it back on.
        const on = await x.api('PATCH', `/orgs/acme/hooks/${id}`, { active: true });
        expect(on.body.active).toBe(true);
      } finally {
        await x.s.close();
      }
    });
  }

  it('turns a repository hook off too, its audit entry naming the repository and its organization', async () => {
    const x = await site();
    try {
      const repo = await x.api('POST', '/orgs/acme/repos', { name: 'app' });
      expect(repo.status, repo.text).toBe(201);
      const created = await x.api('POST', '/repos/acme/app/hooks', { config: { url: `${rcv.url}/gone-repo`, content_type: 'json' } });
      expect(created.status, created.text).toBe(201);
      await x.s.app.hublet.jobs.idle();
      const hook = (await x.api('GET', `/repos/acme/app/hooks/${created.body.id}`)).body;
      expect(hook).toMatchObject({ active: false, last_response: { code: 410 } });
      const log = (await x.api('GET', '/orgs/acme/audit-log?phrase=action:hook.active_changed')).body;
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ org: 'acme', repo: 'acme/app', repo_id: repo.body.id, hook_id: created.body.id, active: false });
    } finally {
      await x.s.close();
    }
  });
});
