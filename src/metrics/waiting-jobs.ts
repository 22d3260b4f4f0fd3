// Job gauges read at scrape time: per queue, the jobs waiting (pending, due and not held by a worker's lease) and how
// long the oldest of them has been due. One query of the jobs table per scrape (its state/queue/run_at index), shared
// by both gauges; nothing is counted on the request path.
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/connect.js';

interface Waiting {
  count: number;
  /** Seconds since the oldest waiting job became due. */
  oldestAgeSeconds: number;
}

interface JobGaugeContext {
  db: Db;
  clock: { now(): Date };
  log: { warn(obj: object, msg: string): void };
}

/**
 * The queue a job is counted under: held webhook deliveries wait in a queue per destination
 * (`hooks.deliver@https://host`), counted with their queue (`hooks.deliver`) so the labels stay bounded.
 */
function queueLabel(queue: string): string {
  const at = queue.indexOf('@');
  return at < 0 ? queue : queue.slice(0, at);
}

/** Waiting jobs by queue label, as of `now`. */
async function waitingJobs(db: Db, now: Date): Promise<Map<string, Waiting>> {
  const nowIso = now.toISOString();
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => ['queue', eb.fn.countAll<number>().as('n'), eb.fn.min('run_at').as('oldest')])
    .where('state', '=', 'pending')
    .where('run_at', '<=', nowIso)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso)]))
    .groupBy('queue')
    .execute();
  const out = new Map<string, Waiting>();
  for (const row of rows) {
    const label = queueLabel(row.queue);
    const age = Math.max(0, (now.getTime() - Date.parse(String(row.oldest))) / 1000);
    const known = out.get(label);
    out.set(label, {
      count: (known?.count ?? 0) + Number(row.n),
      oldestAgeSeconds: Math.max(known?.oldestAgeSeconds ?? 0, age),
    });
  }
  return out;
}

/** Registers `hublet_jobs_waiting` and `hublet_jobs_oldest_waiting_age_seconds`; `queues` are reported even when empty. */
export function registerJobGauges(registry: Registry, ctx: JobGaugeContext, queues: ReadonlySet<string>): void {
  let reading: Promise<Map<string, Waiting> | undefined> | undefined;
  // Both gauges collect at once during a scrape: they share one read.
  const read = () => {
    reading ??= waitingJobs(ctx.db, ctx.clock.now())
      .catch((err: unknown) => {
        ctx.log.warn({ err }, 'metrics: could not count the waiting jobs');
        return undefined;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  const fill = async (gauge: Gauge<'queue'>, value: (w: Waiting) => number) => {
    const waiting = await read();
    if (!waiting) return; // the last values stay
    gauge.reset();
    for (const queue of new Set([...queues, ...waiting.keys()])) {
      const w = waiting.get(queue);
      gauge.set({ queue }, w ? value(w) : 0);
    }
  };
  new Gauge({
    name: 'hublet_jobs_waiting',
    help: 'Jobs waiting to run: pending, due, and not leased by a worker (webhook deliveries held back per destination included)',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      await fill(this, (w) => w.count);
    },
  });
  new Gauge({
    name: 'hublet_jobs_oldest_waiting_age_seconds',
    help: 'How long the oldest waiting job of the queue has been due (0 when none waits)',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      await fill(this, (w) => w.oldestAgeSeconds);
    },
  });
}
