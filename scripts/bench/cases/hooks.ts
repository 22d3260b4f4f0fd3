// Webhook deliveries: 100 organization hooks × 100 pings into one keep-alive receiver in its own process; deliveries
// recorded per second, and event-to-receipt latency (the event row's created_at to the receiver's arrival time).
import { sql } from 'kysely';
import { measure, quantile, type RawRequest } from '../load.js';
import { peakRssMiB } from '../processes.js';
import { startReceiver } from '../receiver.js';
import { withDb } from '../seed.js';
import type { BenchCase } from '../types.js';

const HOOKS = 100;
const TARGET = '≥ 2,000 deliveries/s recorded; event-to-receipt p99 ≤ 100 ms';

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const hookCases: BenchCase[] = [
  {
    name: 'webhook deliveries: 100 hooks × 100 pings, one keep-alive receiver',
    target: TARGET,
    // GitHub's limit of 20 hooks per event and organization would refuse the 21st hook.
    serverEnv: { HUBLET_HOOK_LIMIT_PER_EVENT: '1000' },
    async run(ctx) {
      const pingsPerHook = ctx.quick ? 5 : 100;
      const total = HOOKS * pingsPerHook;
      const receiver = await startReceiver();
      try {
        await ctx.api('POST', '/admin/organizations', { login: 'benchorg', admin: 'admin' });
        const ids: number[] = [];
        for (let i = 0; i < HOOKS; i++) {
          const hook = await ctx.api('POST', '/orgs/benchorg/hooks', { name: 'web', config: { url: `${receiver.url}/h/${i}`, content_type: 'json' }, events: ['push'] });
          ids.push(hook.id as number);
        }
        return await withDb(ctx.server.databaseUrl, async (db) => {
          const recorded = async () => Number((await db.selectFrom('hook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
          // Creating a hook pings it: those deliveries land first and are not measured.
          await waitUntil(async () => (await recorded()) >= HOOKS, 60_000, 'the creation pings');

          let n = 0;
          const setupRequest = (req: RawRequest): RawRequest => ({ ...req, path: `/orgs/benchorg/hooks/${ids[n++ % HOOKS]}/pings` });
          const started = Date.now();
          // Watched while the pings run: autocannon ends an `amount` run on its once-a-second tick, which would count up
          // to a second of idling as delivery time.
          const allRecorded = waitUntil(async () => (await recorded()) >= HOOKS + total, ctx.quick ? 30_000 : 300_000, `${total} deliveries recorded`).then(() => Date.now());
          const pings = await measure(
            ctx.server.url,
            [{ method: 'POST', path: `/orgs/benchorg/hooks/${ids[0]}/pings`, headers: { authorization: `Bearer ${ctx.server.adminToken}` }, setupRequest }],
            { connections: 20, durationSec: 600, warmupSec: 0 },
            total,
          );
          if (pings.errors || pings.non2xx) throw new Error(`${pings.errors + pings.non2xx} pings failed`);
          const seconds = ((await allRecorded) - started) / 1000;
          // The pings' own pace, from the events they recorded (the same clock as `started`).
          const lastPing = await sql<{ t: string }>`select max(created_at) as t from events where name = 'ping'`.execute(db);
          const pingSeconds = Math.max(0.001, (Date.parse(lastPing.rows[0].t) - started) / 1000);

          const { arrivals } = await receiver.stats();
          const events = await sql<{ guid: string; created_at: string }>`select guid, created_at from events where name = 'ping'`.execute(db);
          const createdAt = new Map(events.rows.map((e) => [e.guid, Date.parse(e.created_at)]));
          const latencies = arrivals
            .map((a) => ({ a, t: createdAt.get(a.guid) }))
            .filter((x): x is { a: (typeof arrivals)[number]; t: number } => x.t !== undefined && x.t >= started - 1)
            .map((x) => x.a.at - x.t)
            .sort((a, b) => a - b);
          const failed = Number(
            (await db.selectFrom('hook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('status_code', '!=', 200).executeTakeFirstOrThrow()).n,
          );
          const round = (v: number) => Math.round(v * 10) / 10;
          return {
            case: ctx.quick ? `webhook deliveries: 100 hooks × ${pingsPerHook} pings (QUICK)` : 'webhook deliveries: 100 hooks × 100 pings, one keep-alive receiver',
            unit: 'deliveries/s',
            value: Math.round(total / seconds),
            p50: round(quantile(latencies, 0.5)),
            p99: round(quantile(latencies, 0.99)),
            ratio: null,
            peakRssMiB: peakRssMiB(ctx.server.pid),
            target: TARGET,
            note: `${total} deliveries recorded in ${round(seconds)} s (pings accepted at ${Math.round(total / pingSeconds)}/s, ping p99 ${pings.p99} ms); latencies of ${latencies.length} arrivals${failed ? `; ${failed} deliveries not 200` : ''}`,
            details: { total, seconds, pingSeconds, pingP50: pings.p50, pingP99: pings.p99, arrivals: latencies.length, failed },
          };
        });
      } finally {
        await receiver.stop();
      }
    },
  },
];
