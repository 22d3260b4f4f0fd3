// Webhook deliveries measured on delivery, not on ping intake: each event reaches 100 organization hooks (a repository
// created in the organization: one `repository` event, 100 deliveries), into one keep-alive receiver in its own
// process. Deliveries recorded per second from the first event to the last delivery recorded, and event-to-receipt
// latency (the event row's created_at to the receiver's arrival time). The ping case (hooks.ts) stays the intake row.
import { sql } from 'kysely';
import { atLeast, atMost, describeGoals } from '../goals.js';
import { quantile } from '../load.js';
import { peakRssMiB } from '../processes.js';
import { startReceiver } from '../receiver.js';
import { withDb } from '../seed.js';
import { rowOf, type Round } from '../stats.js';
import type { BenchCase } from '../types.js';
import { waitUntil } from '../wait.js';

const HOOKS = 100;
const GOALS = [atLeast('value', 2000, ' deliveries/s recorded'), atMost('p99', 100, ' ms', 'event-to-receipt p99 ')];
const TARGET = describeGoals(GOALS);

export const fanOutCase: BenchCase = {
  name: 'webhook fan-out: 1 event to 100 hooks (repositories created), one keep-alive receiver',
  target: TARGET,
  goals: GOALS,
  serverEnv: { HUBLET_HOOK_LIMIT_PER_EVENT: '1000' },
  async run(ctx) {
    const eventsPerRound = ctx.quick ? 5 : 100;
    const receiver = await startReceiver();
    try {
      await ctx.api('POST', '/admin/organizations', { login: 'fanorg', admin: 'admin' });
      for (let i = 0; i < HOOKS; i++) {
        await ctx.api('POST', '/orgs/fanorg/hooks', {
          name: 'web',
          config: { url: `${receiver.url}/f/${i}`, content_type: 'json' },
          events: ['repository'],
        });
      }
      return await withDb(ctx.server.databaseUrl, async (db) => {
        const recorded = async () =>
          Number(
            (
              await db
                .selectFrom('hook_deliveries')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        await waitUntil(async () => (await recorded()) >= HOOKS, 60_000, 'the creation pings');
        let made = 0;
        /** Creates `count` repositories, four at a time; resolves when every delivery of their events is recorded. */
        const fire = async (count: number) => {
          const expected = (await recorded()) + count * HOOKS;
          const started = Date.now();
          const allRecorded = waitUntil(
            async () => (await recorded()) >= expected,
            ctx.quick ? 60_000 : 600_000,
            `${count * HOOKS} deliveries`,
          ).then(() => Date.now());
          const queue = Array.from({ length: count }, () => made++);
          await Promise.all(
            Array.from({ length: 4 }, async () => {
              for (let n = queue.shift(); n !== undefined; n = queue.shift())
                await ctx.api('POST', '/orgs/fanorg/repos', { name: `fan-${n}` });
            }),
          );
          return { started, seconds: ((await allRecorded) - started) / 1000 };
        };
        if (!ctx.quick) await fire(10); // a warm-up, not measured
        const rounds: Round[] = [];
        for (let i = 0; i < ctx.rounds; i++) {
          const { started, seconds } = await fire(eventsPerRound);
          const { arrivals } = await receiver.stats();
          const events = await sql<{
            guid: string;
            created_at: string;
          }>`select guid, created_at from events where name = 'repository'`.execute(db);
          const createdAt = new Map(events.rows.map((e) => [e.guid, Date.parse(e.created_at)]));
          const latencies = arrivals
            .map((a) => ({ at: a.at, t: createdAt.get(a.guid) }))
            .filter((x): x is { at: number; t: number } => x.t !== undefined && x.t >= started - 1)
            .map((x) => x.at - x.t)
            .sort((a, b) => a - b);
          const round = (v: number) => Math.round(v * 10) / 10;
          rounds.push({
            value: Math.round((eventsPerRound * HOOKS) / seconds),
            p50: round(quantile(latencies, 0.5)),
            p99: round(quantile(latencies, 0.99)),
            seconds: round(seconds),
            arrivals: latencies.length,
          });
        }
        return rowOf({
          case: `webhook fan-out: ${eventsPerRound} events × 100 hooks (repositories created)${ctx.quick ? ' (QUICK)' : ''}`,
          unit: 'deliveries/s',
          rounds,
          peakRssMiB: peakRssMiB(ctx.server.pid),
          goals: GOALS,
          target: TARGET,
          note: `${eventsPerRound * HOOKS} deliveries a round from ${eventsPerRound} repository events: ${rounds.map((r) => `${r.value}/s in ${r.seconds} s`).join('; ')}`,
        });
      });
    } finally {
      await receiver.stop();
    }
  },
};
