// Fair delivery (src/webhooks/fairness.ts): a receiver that hangs, behind many hooks, takes only its share of the delivery
// slots; a fast receiver's delivery goes out while every slow one still hangs, the slow origin's other deliveries wait
// as held job rows, and every one of them is delivered once the receiver answers again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

const SLOTS = 4;
const SLOW_HOOKS = 12;

let s: TestServer;
let slow: Receiver;
let fast: Receiver;
let owner: { login: string; id: number; token: string };

beforeAll(async () => {
  // Four slots (a slow origin's share is two of them); a timeout far longer than the test needs, so nothing times out.
  s = await startServer({ config: { hookConcurrency: SLOTS, hookTimeoutMs: 8000 } });
  slow = await startReceiver();
  fast = await startReceiver();
  owner = await s.userWithToken('octo');
  await s.createOrg('acme', 'octo');
});
afterAll(async () => {
  slow?.answer({ status: 200 });
  await s?.close();
  await slow?.close();
  await fast?.close();
});

/** Creates an active hook; its creation sends it a `ping`. */
async function createHook(url: string): Promise<number> {
  const r = await s.api('POST', '/orgs/acme/hooks', { token: owner.token, body: { name: 'web', config: { url, content_type: 'json' } } });
  if (r.status !== 201) throw new Error(`create hook: ${r.status} ${r.text}`);
  return r.body.id as number;
}

async function deliveriesOf(hookId: number): Promise<{ status_code: number; status: string; event: string }[]> {
  const r = await s.api('GET', `/orgs/acme/hooks/${hookId}/deliveries`, { token: owner.token });
  expect(r.status).toBe(200);
  return r.body;
}

/** Pending delivery jobs waiting in a destination's holding queue (`hooks.deliver@<origin>`). */
async function heldJobs(): Promise<{ queue: string; n: number }[]> {
  const rows = await s.db
    .selectFrom('jobs')
    .select('queue')
    .where('state', '=', 'pending')
    .where('queue', 'like', 'hooks.deliver@%')
    .execute();
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.queue, (counts.get(r.queue) ?? 0) + 1);
  return [...counts].map(([queue, n]) => ({ queue, n }));
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('fair delivery across destinations', () => {
  it('delivers to a fast receiver while a hanging one holds only its share, then delivers every held ping', async () => {
    slow.answer('hang');
    const slowHooks: number[] = [];
    for (let i = 0; i < SLOW_HOOKS; i++) slowHooks.push(await createHook(`${slow.url}/slow/${i}`));

    // Every slot was taken by the hanging receiver at first; once it is seen to be slow, it keeps its share and the rest
    // of its pings wait as rows of its own holding queue (not failed, not retried).
    const held = await until('the slow pings to be held', async () => {
      const h = await heldJobs();
      return h.length === 1 && h[0].n === SLOW_HOOKS - SLOTS ? h : undefined;
    });
    expect(held[0].queue).toBe(`hooks.deliver@${new URL(slow.url).origin}`);
    expect(slow.received).toHaveLength(SLOTS);

    // The fast receiver's ping goes out while every slow request is still hanging: nothing of theirs is recorded yet.
    const fastHook = await createHook(`${fast.url}/fast`);
    const [got] = await fast.waitFor(1);
    expect(got.headers['x-service-event']).toBe('ping');
    expect(slow.received).toHaveLength(SLOTS);
    for (const id of slowHooks) expect(await deliveriesOf(id)).toEqual([]);
    await until('the fast delivery record', async () => ((await deliveriesOf(fastHook)).length === 1 ? true : undefined));
    expect((await deliveriesOf(fastHook))[0]).toMatchObject({ event: 'ping', status_code: 200, status: 'OK' });

    // The receiver answers again: the hanging requests end, its origin is fast again, and the held pings come back.
    slow.answer({ status: 200 });
    await slow.waitFor(SLOW_HOOKS);
    await s.app.hublet.jobs.idle();
    for (const id of slowHooks) {
      const list = await deliveriesOf(id);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ event: 'ping', status_code: 200, status: 'OK' });
    }
    expect(await heldJobs()).toEqual([]);
    expect(slow.received.map((r) => r.path).sort()).toEqual(slowHooks.map((_, i) => `/slow/${i}`).sort());
  });
});

describe('held deliveries nobody is waiting for', () => {
  it('are brought back by the periodic recovery (jobs held by a process that stopped) and delivered', async () => {
    fast.answer({ status: 200 });
    const hookId = await createHook(`${fast.url}/orphan`);
    const [first] = await fast.waitFor(1, (r) => r.path === '/orphan');
    const guid = String(first.headers['x-service-delivery']);
    const event = await s.db.selectFrom('events').select('id').where('guid', '=', guid).executeTakeFirstOrThrow();
    // A delivery held back by a process that is gone: a pending row in the destination's holding queue, no lease.
    await s.db
      .insertInto('jobs')
      .values({
        queue: `hooks.deliver@${new URL(fast.url).origin}`,
        payload: JSON.stringify({ hookId, eventId: event.id, redelivery: true }),
        run_at: new Date().toISOString(),
        max_attempts: 10,
        locked_until: null,
        locked_by: null,
        last_error: null,
        created_at: new Date().toISOString(),
        finished_at: null,
      })
      .execute();
    const [again] = await fast.waitFor(2, (r) => r.path === '/orphan', 20_000).then((list) => list.slice(1));
    expect(again.headers['x-service-delivery']).toBe(guid);
    await s.app.hublet.jobs.idle();
    expect(await heldJobs()).toEqual([]);
    const list = await deliveriesOf(hookId);
    expect(list.map((d) => d.status_code)).toEqual([200, 200]);
  });
});
