// A server with one organization (acme, owned by ops) and a receiver: the set-up of the tests of hublet's delivery
// extras (retries, throttling, disabling, 410 Gone), with polling for what the job queue delivers later.
import { expect } from 'vitest';
import type { ConfigInput } from '../../src/config.js';
import { startServer } from '../helpers/server.js';
import type { Receiver } from './receiver.js';

export interface Delivery {
  id: number;
  guid: string;
  redelivery: boolean;
  status_code: number;
  delivered_at: string;
  throttled_at: string | null;
}

/** A server (with `config` and `clock`) where ops owns acme; `hook(path)` makes an acme hook to `rcv`'s path. */
export async function orgSite(rcv: Receiver, config: ConfigInput = {}, clock?: { now(): Date }) {
  const s = await startServer({ config, clock });
  const o = await s.userWithToken('ops');
  await s.createOrg('acme', 'ops');
  const api = (method: string, p: string, body?: unknown) => s.api(method, p, { token: o.token, body });
  return {
    s,
    api,
    async hook(path: string, config: Record<string, unknown> = {}) {
      const r = await api('POST', '/orgs/acme/hooks', { name: 'web', config: { url: rcv.url + path, ...config } });
      expect(r.status, r.text).toBe(201);
      return r.body.id as number;
    },
    /** Newest first, once every delivery due so far has run. */
    async deliveries(id: number): Promise<Delivery[]> {
      await s.app.hublet.jobs.idle();
      return (await api('GET', `/orgs/acme/hooks/${id}/deliveries?per_page=100`)).body;
    },
  };
}

/** Polls `get` until `check` holds, for at most `ms` (retries wait in the queue between attempts); answers the last value. */
export async function eventually<T>(get: () => Promise<T>, check: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (check(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
