// Webhook deliveries measured on delivery, not on ping intake: each event reaches 100 organization hooks (a repository
// created in the organization: one `repository` event, 100 deliveries), into one keep-alive receiver in its own
// process. Two rows: a burst (100 events at once, four creators: the capacity, deliveries recorded per second from the
// first event to the last delivery recorded) and a steady stream (22 events a second, 2,200 deliveries a second
// offered: what a receiver waits at a rate above the issue's 2,000/s, event-to-receipt latency from the event row's
// created_at to the receiver's arrival time). The ping case (hooks.ts) stays the intake row.
import { sql } from 'kysely';
import { atLeast, atMost, describeGoals } from '../goals.js';
import { quantile } from '../load.js';
import { peakRssMiB } from '../processes.js';
import { startReceiver, type Receiver } from '../receiver.js';
import { withDb } from '../seed.js';
import { rowOf, type Round } from '../stats.js';
import type { BenchCase, BenchContext } from '../types.js';
import { waitUntil } from '../wait.js';

const HOOKS = 100;
const BURST_GOALS = [atLeast('value', 2000, ' deliveries/s recorded')];
const PACED_GOALS = [atLeast('value', 2000, ' deliveries/s recorded'), atMost('p99', 100, ' ms', 'event-to-receipt p99 ')];
/** The steady stream's events per second (each 100 deliveries). */
const EVENTS_PER_SECOND = 22;

const round1 = (v: number) => Math.round(v * 10) / 10;

/** One measured batch: when its first event was sent and how long until its last delivery was recorded. */
interface Fired {
  started: number;
  seconds: number;
}

/** The organization, its 100 hooks to one receiver, and how to create repositories and wait for their deliveries. */
async function fanOut<T>(ctx: BenchContext, body: (run: FanOut) => Promise<T>): Promise<T> {
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
      const create = () => ctx.api('POST', '/orgs/fanorg/repos', { name: `fan-${made++}` });
      /** Sends `count` events through `send`; resolves when every delivery of them is recorded. */
      const fire = async (count: number, send: (count: number) => Promise<void>): Promise<Fired> => {
        const expected = (await recorded()) + count * HOOKS;
        const started = Date.now();
        const allRecorded = waitUntil(
          async () => (await recorded()) >= expected,
          ctx.quick ? 60_000 : 600_000,
          `${count * HOOKS} deliveries`,
        ).then(() => Date.now());
        await send(count);
        return { started, seconds: ((await allRecorded) - started) / 1000 };
      };
      /** Event-to-receipt latencies (ms, sorted) of the deliveries of events created since `started`. */
      const latencies = async (started: number): Promise<number[]> => {
        const { arrivals } = await receiver.stats();
        const events = await sql<{
          guid: string;
          created_at: string;
        }>`select guid, created_at from events where name = 'repository'`.execute(db);
        const createdAt = new Map(events.rows.map((e) => [e.guid, Date.parse(e.created_at)]));
        return arrivals
          .map((a) => ({ at: a.at, t: createdAt.get(a.guid) }))
          .filter((x): x is { at: number; t: number } => x.t !== undefined && x.t >= started - 1)
          .map((x) => x.at - x.t)
          .sort((a, b) => a - b);
      };
      return body({ receiver, create, fire, latencies });
    });
  } finally {
    await receiver.stop();
  }
}

interface FanOut {
  receiver: Receiver;
  create(): Promise<unknown>;
  fire(count: number, send: (count: number) => Promise<void>): Promise<Fired>;
  latencies(started: number): Promise<number[]>;
}

/** `count` repositories created by four clients at once, as fast as they are answered. */
const burst = (run: FanOut) => async (count: number) => {
  let left = count;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (left-- > 0) await run.create();
    }),
  );
};

/** `count` repositories created at EVENTS_PER_SECOND, each sent on its schedule whether the last was answered or not. */
const paced = (run: FanOut) => async (count: number) => {
  const start = performance.now();
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / EVENTS_PER_SECOND - performance.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
    sent.push(run.create());
  }
  await Promise.all(sent);
};

export const fanOutCase: BenchCase = {
  name: 'webhook fan-out: 1 event to 100 hooks (repositories created), one keep-alive receiver',
  target: describeGoals(BURST_GOALS),
  goals: BURST_GOALS,
  serverEnv: { HUBLET_HOOK_LIMIT_PER_EVENT: '1000' },
  run: (ctx) =>
    fanOut(ctx, async (run) => {
      const eventsPerRound = ctx.quick ? 5 : 100;
      if (!ctx.quick) await run.fire(10, burst(run)); // a warm-up, not measured
      const rounds: Round[] = [];
      for (let i = 0; i < ctx.rounds; i++) {
        const { started, seconds } = await run.fire(eventsPerRound, burst(run));
        const latencies = await run.latencies(started);
        rounds.push({
          value: Math.round((eventsPerRound * HOOKS) / seconds),
          p50: round1(quantile(latencies, 0.5)),
          p99: round1(quantile(latencies, 0.99)),
          seconds: round1(seconds),
          arrivals: latencies.length,
        });
      }
      return rowOf({
        case: `webhook fan-out: ${eventsPerRound} events × 100 hooks at once (repositories created)${ctx.quick ? ' (QUICK)' : ''}`,
        unit: 'deliveries/s',
        rounds,
        peakRssMiB: peakRssMiB(ctx.server.pid),
        goals: BURST_GOALS,
        target: describeGoals(BURST_GOALS),
        note: `the capacity: ${eventsPerRound * HOOKS} deliveries a round from ${eventsPerRound} repository events sent at once (the latency is the queue's drain): ${rounds.map((r) => `${r.value}/s in ${r.seconds} s`).join('; ')}`,
      });
    }),
};

export const fanOutPacedCase: BenchCase = {
  name: `webhook fan-out: ${EVENTS_PER_SECOND} events/s × 100 hooks (repositories created), one keep-alive receiver`,
  target: describeGoals(PACED_GOALS),
  goals: PACED_GOALS,
  serverEnv: { HUBLET_HOOK_LIMIT_PER_EVENT: '1000' },
  run: (ctx) =>
    fanOut(ctx, async (run) => {
      const seconds = ctx.quick ? 2 : 10;
      const eventsPerRound = seconds * EVENTS_PER_SECOND;
      if (!ctx.quick) await run.fire(EVENTS_PER_SECOND, paced(run)); // a warm-up second, not measured
      const rounds: Round[] = [];
      for (let i = 0; i < ctx.rounds; i++) {
        const fired = await run.fire(eventsPerRound, paced(run));
        const latencies = await run.latencies(fired.started);
        rounds.push({
          value: Math.round((eventsPerRound * HOOKS) / fired.seconds),
          p50: round1(quantile(latencies, 0.5)),
          p99: round1(quantile(latencies, 0.99)),
          seconds: round1(fired.seconds),
          arrivals: latencies.length,
        });
      }
      return rowOf({
        case: `webhook fan-out: ${EVENTS_PER_SECOND} events/s × 100 hooks for ${seconds} s (repositories created)${ctx.quick ? ' (QUICK)' : ''}`,
        unit: 'deliveries/s',
        rounds,
        peakRssMiB: peakRssMiB(ctx.server.pid),
        goals: PACED_GOALS,
        target: describeGoals(PACED_GOALS),
        note: `${EVENTS_PER_SECOND * HOOKS} deliveries/s offered for ${seconds} s; recorded per second from the first event to the last delivery recorded: ${rounds.map((r) => `${r.value}/s, p99 ${r.p99} ms`).join('; ')}`,
      });
    }),
};
