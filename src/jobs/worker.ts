// Runs jobs from the database queue in the server process: polls, claims with a lease, runs handlers with bounded concurrency.
import crypto from 'node:crypto';
import type { JobRow } from '../db/schema.js';
import type { AppContext } from '../server/context.js';
import { claim, complete, fail, pendingCount } from './queue.js';

export interface JobHandler {
  (payload: any, job: JobRow): Promise<void>;
}

interface Registration {
  handler: JobHandler;
  concurrency: number;
  leaseMs: number;
  /** Delay before the next attempt after `attempts` failures. */
  backoff: (attempts: number) => number;
}

const defaultBackoff = (attempts: number) => Math.min(60_000, 1000 * 2 ** (attempts - 1));

export class JobWorker {
  private readonly registrations = new Map<string, Registration>();
  private readonly running = new Map<string, Set<Promise<void>>>();
  private readonly workerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  private timer?: NodeJS.Timeout;
  private started = false;
  private polling = false;
  private wakeAgain = false;

  constructor(private readonly ctx: AppContext, private readonly pollMs = 250) {}

  /** Registers the handler of a queue; areas call this while the app is built. */
  register(queue: string, handler: JobHandler, opts: { concurrency?: number; leaseMs?: number; backoff?: (attempts: number) => number } = {}): void {
    this.registrations.set(queue, { handler, concurrency: opts.concurrency ?? 4, leaseMs: opts.leaseMs ?? 60_000, backoff: opts.backoff ?? defaultBackoff });
    this.running.set(queue, new Set());
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  /** Stops claiming and waits for running jobs; pending jobs stay in the database for the next start. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.running.values()].flatMap((s) => [...s]));
  }

  /** Asks for a poll now (after a request enqueued work), instead of at the next tick. */
  wake(): void {
    if (!this.started) return;
    if (this.polling) this.wakeAgain = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref?.();
  }

  private async poll(): Promise<void> {
    if (!this.started || this.polling) return;
    this.polling = true;
    let claimedAny = false;
    try {
      claimedAny = (await this.claimAndRun()) > 0;
    } catch (err) {
      this.ctx.log.error({ err }, 'job poll failed');
    } finally {
      this.polling = false;
    }
    if (!this.started) return;
    const again = this.wakeAgain || claimedAny;
    this.wakeAgain = false;
    this.schedule(again ? 0 : this.pollMs);
  }

  private async claimAndRun(): Promise<number> {
    let claimed = 0;
    for (const [queue, reg] of this.registrations) {
      const busy = this.running.get(queue)!;
      const free = reg.concurrency - busy.size;
      if (free <= 0) continue;
      const jobs = await claim(this.ctx.db, { queues: [queue], workerId: this.workerId, leaseMs: reg.leaseMs, limit: free, now: this.ctx.clock.now() });
      claimed += jobs.length;
      for (const job of jobs) {
        const p = this.runOne(job, reg).finally(() => {
          busy.delete(p);
          this.wake();
        });
        busy.add(p);
      }
    }
    return claimed;
  }

  private async runOne(job: JobRow, reg: Registration): Promise<void> {
    try {
      await reg.handler(JSON.parse(job.payload), job);
      await complete(this.ctx.db, job.id, this.ctx.clock.now());
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const now = this.ctx.clock.now();
      const outcome = await fail(this.ctx.db, job, message, new Date(now.getTime() + reg.backoff(job.attempts)), now).catch(() => 'unrecorded');
      this.ctx.log.warn({ job: job.id, queue: job.queue, attempts: job.attempts, outcome, err: message }, 'job failed');
    }
  }

  /**
   * Runs due jobs in this process until none are left (the CLI's local mode, which has no background worker).
   * Jobs scheduled for later (retries with backoff) are left for the server.
   */
  async drain(queues?: string[]): Promise<void> {
    const names = queues ?? [...this.registrations.keys()];
    for (;;) {
      let ran = 0;
      for (const queue of names) {
        const reg = this.registrations.get(queue);
        if (!reg) continue;
        const jobs = await claim(this.ctx.db, { queues: [queue], workerId: this.workerId, leaseMs: reg.leaseMs, limit: reg.concurrency, now: this.ctx.clock.now() });
        ran += jobs.length;
        await Promise.all(jobs.map((j) => this.runOne(j, reg)));
      }
      if (ran === 0) return;
    }
  }

  /** For tests: resolves once no job of these queues is pending and none is running. */
  async idle(queues?: string[], timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const busy = [...this.running.values()].some((s) => s.size > 0);
      if (!busy && (await pendingCount(this.ctx.db, queues)) === 0) return;
      if (Date.now() > deadline) throw new Error('jobs did not finish in time');
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
