// Fair delivery: 50 organization hooks whose receiver never answers (each delivery times out) and one hook to a fast
// receiver, all 51 sent the same events together, in waves (each wave one `repository` edited event of the
// organization, which fans out to the 51 hooks at once); the fast receiver's event-to-receipt latency (the event row's
// created_at to its arrival) must stay low while the slow deliveries hang until the hook timeout (2 s here,
// HUBLET_HOOK_TIMEOUT_MS).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { atLeast, atMost, describeGoals } from '../goals.js';
import { quantile } from '../load.js';
import { peakRssMiB } from '../processes.js';
import { startReceiver } from '../receiver.js';
import { withDb } from '../seed.js';
import { rowOf, type Round } from '../stats.js';
import type { BenchCase } from '../types.js';

const SLOW_HOOKS = 50;
const TIMEOUT_MS = 2000;
const GOALS = [
  atMost('p99', 100, ' ms', 'fast receiver event-to-receipt p99 '),
  atLeast('slowTimedOut', 1, ' slow deliveries timed out'),
  atMost('slowAnswered', 0, ' slow deliveries not timed out'),
];
const TARGET = describeGoals(GOALS);

/** A receiver that reads each request and never answers (the server's timeout ends it); counts what arrived. */
async function startHangingReceiver(): Promise<{ url: string; arrived(): number; stop(): Promise<void> }> {
  let arrived = 0;
  const server = http.createServer((req) => {
    req.resume();
    req.on('end', () => arrived++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived: () => arrived,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const fairHookCases: BenchCase[] = [
  {
    name: 'fair delivery: 50 hooks to a hanging receiver + 1 to a fast one, sent each event together',
    target: TARGET,
    goals: GOALS,
    serverEnv: { HUBLET_HOOK_LIMIT_PER_EVENT: '1000', HUBLET_HOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    async run(ctx) {
      const waves = ctx.quick ? 15 : 50;
      const waveGapMs = 100;
      const fast = await startReceiver();
      const slow = await startHangingReceiver();
      try {
        await ctx.api('POST', '/admin/organizations', { login: 'fairorg', admin: 'admin' });
        await ctx.api('POST', '/orgs/fairorg/repos', { name: 'app' });
        // Created turned off (no creation pings), then turned on: every delivery measured is a wave's event.
        const createHook = async (url: string) => {
          const { id } = await ctx.api('POST', '/orgs/fairorg/hooks', {
            name: 'web',
            active: false,
            config: { url, content_type: 'json' },
            events: ['repository'],
          });
          await ctx.api('PATCH', `/orgs/fairorg/hooks/${id}`, { active: true });
          return id as number;
        };
        await Promise.all(Array.from({ length: SLOW_HOOKS }, (_, i) => createHook(`${slow.url}/slow/${i}`)));
        const fastId = await createHook(`${fast.url}/fast`);
        return await withDb(ctx.server.databaseUrl, async (db) => {
          const rounds: Round[] = [];
          for (let r = 0; r < ctx.rounds; r++) {
            const started = Date.now();
            for (let w = 0; w < waves; w++) {
              const waveAt = started + w * waveGapMs;
              await new Promise((res) => setTimeout(res, Math.max(0, waveAt - Date.now())));
              // One event to the 51 hooks at once.
              await ctx.api('PATCH', '/repos/fairorg/app', { description: `wave ${r}.${w}` });
            }
            // Until every fast delivery arrived and the first slow ones have timed out.
            const deadline = Date.now() + 30_000;
            const fastPings = async () =>
              Number(
                (
                  await sql<{
                    n: number;
                  }>`select count(*) as n from hook_deliveries where hook_id = ${fastId} and delivered_at >= ${new Date(started).toISOString()}`.execute(
                    db,
                  )
                ).rows[0].n,
              );
            while ((await fastPings()) < waves || Date.now() < started + waves * waveGapMs + TIMEOUT_MS + 500) {
              if (Date.now() > deadline) throw new Error('the fast receiver did not get every event in 30 s');
              await new Promise((res) => setTimeout(res, 50));
            }
            const { arrivals } = await fast.stats();
            const events = await sql<{
              guid: string;
              created_at: string;
            }>`select guid, created_at from events where name = 'repository' and created_at >= ${new Date(started).toISOString()}`.execute(
              db,
            );
            const createdAt = new Map(events.rows.map((e) => [e.guid, Date.parse(e.created_at)]));
            const latencies = arrivals
              .map((a) => createdAt.get(a.guid) !== undefined && a.at - createdAt.get(a.guid)!)
              .filter((x): x is number => x !== false)
              .sort((a, b) => a - b);
            const slowRows = await sql<{
              status: string;
              n: number;
            }>`select status, count(*) as n from hook_deliveries where hook_id <> ${fastId} and delivered_at >= ${new Date(started).toISOString()} group by status`.execute(
              db,
            );
            const timedOut = Number(slowRows.rows.find((x) => x.status === 'timed out')?.n ?? 0);
            const answered = slowRows.rows.reduce((n, x) => n + Number(x.n), 0) - timedOut;
            const round = (v: number) => Math.round(v * 10) / 10;
            rounds.push({
              value: latencies.length,
              p50: round(quantile(latencies, 0.5)),
              p99: round(quantile(latencies, 0.99)),
              max: round(latencies[latencies.length - 1] ?? NaN),
              slowTimedOut: timedOut,
              slowAnswered: answered,
              slowArrived: slow.arrived(),
            });
          }
          const last = rounds[rounds.length - 1];
          return rowOf({
            case: ctx.quick
              ? `fair delivery: 50 hanging hooks + 1 fast, ${waves} events (QUICK)`
              : 'fair delivery: 50 hooks to a hanging receiver + 1 to a fast one, sent each event together',
            unit: 'fast deliveries',
            rounds,
            peakRssMiB: peakRssMiB(ctx.server.pid),
            goals: GOALS,
            target: TARGET,
            note:
              `${waves} events a round, 100 ms apart, each to 51 hooks at once (50 to a receiver that never answers, hook timeout ${TIMEOUT_MS} ms, 1 to a fast one); ` +
              `fast p50/p99/max ${last.p50}/${last.p99}/${last.max} ms; slow deliveries recorded ${last.slowTimedOut} (all timed out: ${last.slowAnswered === 0}), ` +
              `${last.slowArrived} slow requests reached the hanging receiver in all (the rest wait, held, for their origin's share of the 100 slots)`,
            details: { waves, slowHooks: SLOW_HOOKS, timeoutMs: TIMEOUT_MS },
          });
        });
      } finally {
        await Promise.all([fast.stop(), slow.stop()]);
      }
    },
  },
];
