// Beyond GitHub, each off by default: automatic retries with backoff, per-hook throttling (throttled_at), and turning a
// hook off after failures in a row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config.js';
import { eventually, orgSite } from './org-site.js';
import { startReceiver, type Receiver } from './receiver.js';

let rcv: Receiver;
beforeAll(async () => {
  rcv = await startReceiver();
});
afterAll(async () => rcv?.close());

const site = (config: ConfigInput, clock?: { now(): Date }) => orgSite(rcv, config, clock);

describe('automatic retries (HUBLET_HOOK_RETRIES)', () => {
  it('are off by default: a failed delivery is recorded once', async () => {
    const x = await site({});
    try {
      rcv.answer((r) => (r.path === '/once' ? { status: 500 } : { status: 200 }));
      const id = await x.hook('/once');
      expect((await x.deliveries(id)).map((d) => d.status_code)).toEqual([500]);
    } finally {
      await x.s.close();
    }
  });

  it('retry a failure up to N more times with backoff, as new deliveries of the same guid, and stop at a success', async () => {
    const x = await site({ hookRetries: 2, hookRetryBaseMs: 20 });
    try {
      rcv.answer((r) => (r.path === '/always-down' ? { status: 503 } : { status: 200 }));
      const down = await x.hook('/always-down');
      const list = await eventually(
        () => x.deliveries(down),
        (l) => l.length >= 3,
      );
      expect(list.map((d) => d.status_code)).toEqual([503, 503, 503]);
      expect(new Set(list.map((d) => d.guid)).size).toBe(1);
      expect(list.map((d) => d.redelivery)).toEqual([true, true, false]);
      await new Promise((r) => setTimeout(r, 300));
      expect(await x.deliveries(down)).toHaveLength(3);

      let calls = 0;
      rcv.answer((r) => (r.path === '/flaky' ? { status: ++calls === 1 ? 500 : 200 } : { status: 200 }));
      const flaky = await x.hook('/flaky');
      const healed = await eventually(
        () => x.deliveries(flaky),
        (l) => l.length >= 2,
      );
      expect(healed.map((d) => d.status_code)).toEqual([200, 500]);
      await new Promise((r) => setTimeout(r, 300));
      expect(await x.deliveries(flaky)).toHaveLength(2);
    } finally {
      rcv.answer({ status: 200 });
      await x.s.close();
    }
  });
});

describe('throttling (HUBLET_HOOK_THROTTLE_PER_MINUTE)', () => {
  it('holds deliveries past the per-minute limit back and marks them throttled_at', async () => {
    let offset = 0;
    const clock = { now: () => new Date(Date.now() + offset) };
    const x = await site({ hookThrottlePerMinute: 2 }, clock);
    try {
      const id = await x.hook('/throttled');
      for (let i = 0; i < 3; i++) {
        await x.s.app.hublet.jobs.idle();
        expect((await x.api('POST', `/orgs/acme/hooks/${id}/pings`)).status).toBe(204);
      }
      // Two went out this minute; the other two wait.
      const early = await x.deliveries(id);
      expect(early).toHaveLength(2);
      expect(early.every((d) => d.throttled_at === null)).toBe(true);
      const sent = rcv.received.filter((r) => r.path === '/throttled').length;
      expect(sent).toBe(2);
      // A minute later they go, carrying when they were first held back.
      offset = 61_000;
      const all = await eventually(
        () => x.deliveries(id),
        (l) => l.length >= 4,
      );
      expect(all).toHaveLength(4);
      const late = all.slice(0, 2);
      expect(late.every((d) => typeof d.throttled_at === 'string' && d.status_code === 200)).toBe(true);
    } finally {
      await x.s.close();
    }
  });
});

describe('turning a failing hook off (HUBLET_HOOK_DISABLE_AFTER_FAILURES)', () => {
  it('deactivates a hook after N failed deliveries in a row; PATCH active true turns it back on', async () => {
    const x = await site({ hookDisableAfterFailures: 3 });
    try {
      rcv.answer((r) => (r.path === '/broken' ? { status: 500 } : { status: 200 }));
      const id = await x.hook('/broken');
      await x.deliveries(id);
      expect((await x.api('GET', `/orgs/acme/hooks/${id}`)).body.active).toBe(true);
      for (let i = 0; i < 2; i++) {
        await x.api('POST', `/orgs/acme/hooks/${id}/pings`);
        await x.deliveries(id);
      }
      expect((await x.api('GET', `/orgs/acme/hooks/${id}`)).body.active).toBe(false);
      const reactivated = await x.api('PATCH', `/orgs/acme/hooks/${id}`, { active: true });
      expect(reactivated.body.active).toBe(true);
      rcv.answer({ status: 200 });
      await x.api('POST', `/orgs/acme/hooks/${id}/pings`);
      expect((await x.deliveries(id))[0].status_code).toBe(200);
      expect((await x.api('GET', `/orgs/acme/hooks/${id}`)).body.active).toBe(true);
    } finally {
      rcv.answer({ status: 200 });
      await x.s.close();
    }
  });
});
