// Runs jobs from the database queue in the server process: polls, claims with a lease, runs handlers with bounded concurrency.
import { AsyncResource } from 'node:async_hooks';
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect.js';
import type { JobRow } from '../db/schema.js';
import { claim, complete, completeMany, enqueue, enqueueMany, fail, holdIn, pendingCount, renewLease, type EnqueueInput } from './queue.js';

/** What the worker needs of its app. */
export interface WorkerContext {
  db: Db;
  clock: { now(): Date };
  log: FastifyBaseLogger;
}

/** What a handler may do with its own run besides returning or throwing. */
export interface JobRun {
  readonly jobId: number;
  /**
   * Marks the job done inside the handler's transaction, so what the job wrote and the job's completion land together
   * (a crash cannot leave the work recorded but the job still pending). The worker then does not complete it again.
   */
  completeIn(trx: Db): Promise<void>;
  /**
   * Keeps the lease fresh while a long run goes on (renewed every third of the queue's lease), so no other worker takes
   * the job over while this one is alive; call the returned function when the work is done.
   */
  keepLeased(): () => void;
  /**
   * Stops counting this run against its queue's concurrency while it goes on (a webhook delivery hanging on a slow
   * receiver beyond its destination's share): the worker claims another job in its place. The run still finishes as
   * usual, and stop() still waits for it. Once only; a no-op where slots are not counted (drain).
   */
  releaseSlot(): void;
}

class Run implements JobRun {
  completed = false;
  constructor(
    readonly jobId: number,
    private readonly workerId: string,
    private readonly leaseMs: number,
    private readonly ctx: WorkerContext,
    private readonly onRelease: () => void = () => {},
  ) {}

  releaseSlot(): void {
    this.onRelease();
  }

  async completeIn(trx: Db): Promise<void> {
    await complete(trx, this.jobId, this.ctx.clock.now());
    this.completed = true;
  }

  keepLeased(): () => void {
    const timer = setInterval(() => {
      renewLease(this.ctx.db, this.jobId, this.workerId, new Date(this.ctx.clock.now().getTime() + this.leaseMs)).catch((err: unknown) =>
        this.ctx.log.warn({ err, job: this.jobId }, 'could not renew the lease of a running job'),
      );
    }, this.leaseMs / 3);
    timer.unref?.();
    return () => clearInterval(timer);
  }
}

/**
 * Puts several claimed runs back, unstarted, as pending jobs of `queue` (a holding queue their handler brings them back
 * from with queue.ts moveWaiting), inside the handler's transaction; the worker then neither completes nor fails them.
 */
export async function holdRunsIn(trx: Db, runs: JobRun[], queue: string): Promise<void> {
  await holdIn(
    trx,
    runs.map((r) => r.jobId),
    queue,
  );
  for (const r of runs) if (r instanceof Run) r.completed = true;
}

/** Completes several runs with one statement inside one transaction (handlers that batch their writes). */
export async function completeRunsIn(trx: Db, runs: JobRun[], now: Date): Promise<void> {
  await completeMany(
    trx,
    runs.map((r) => r.jobId),
    now,
  );
  for (const r of runs) if (r instanceof Run) r.completed = true;
}

// biome-ignore lint/suspicious/noExplicitAny: the queue stores JSON; each queue's handler declares the payload type it enqueues
type JobHandler = (payload: any, job: JobRow, run: JobRun) => Promise<void>;

/** A queue and how its jobs run: what an area declares for each of its queues. */
export interface QueueDeclaration {
  queue: string;
  handler: JobHandler;
  /** Jobs of this queue running at once in this process (default 4). */
  concurrency?: number;
  /** How long a claimed job is reserved before another worker may take it again (default 60 s). */
  leaseMs?: number;
  /** Delay before the next attempt after `attempts` failures. */
  backoff?: (attempts: number) => number;
}

interface Registration {
  handler: JobHandler;
  concurrency: number;
  leaseMs: number;
  backoff: (attempts: number) => number;
}

const defaultBackoff = (attempts: number) => Math.min(60_000, 1000 * 2 ** (attempts - 1));

/** After an enqueue, poll quickly for a short while: on PostgreSQL the enqueueing transaction may commit after our first look. */
const HOT_MS = 250;
const HOT_POLL_MS = 10;

export class JobWorker {
  private readonly registrations = new Map<string, Registration>();
  private readonly running = new Map<string, Set<Promise<void>>>();
  /** Runs that released their slot (JobRun.releaseSlot) and go on: stop() and idle() still wait for them. */
  private readonly released = new Set<Promise<void>>();
  private readonly workerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  /** Queues worth a claim at the next poll: woken by an enqueue, a finished job, or the periodic tick. */
  private readonly dirty = new Set<string>();
  private timer?: NodeJS.Timeout;
  private timerDue = Infinity;
  private started = false;
  private polling = false;
  /** The poll in progress, if any: stop() waits for it so no query runs after the database closes. */
  private currentPoll?: Promise<void>;
  private wakeAgain = false;
  private hotUntil = 0;
  /**
   * The worker's own async context, where every poll runs: a poll woken by a request would otherwise run, and keep
   * scheduling the next, in that request's context (its trace, while traces are on: src/tracing/).
   */
  private readonly scope = new AsyncResource('hublet.jobs');

  constructor(
    private readonly ctx: WorkerContext,
    private readonly pollMs = 250,
  ) {}

  /** Registers the handler of a queue; the app registers every area's queues while it is built. */
  register(declaration: QueueDeclaration): void {
    if (this.registrations.has(declaration.queue)) throw new Error(`queue ${declaration.queue} is registered twice`);
    this.registrations.set(declaration.queue, {
      handler: declaration.handler,
      concurrency: declaration.concurrency ?? 4,
      leaseMs: declaration.leaseMs ?? 60_000,
      backoff: declaration.backoff ?? defaultBackoff,
    });
    this.running.set(declaration.queue, new Set());
  }

  /**
   * Adds a job (pass the transaction that makes the change causing it, so both land or neither does) and, when this
   * app runs the queue, polls for it at once instead of at the next tick.
   */
  async enqueue(db: Db, input: EnqueueInput, now: Date): Promise<number> {
    const id = await enqueue(db, input, now);
    this.enqueued([input.queue]);
    return id;
  }

  /** Adds several jobs in few statements (an event fanning out to many webhooks); wakes as `enqueue` does. */
  async enqueueMany(db: Db, inputs: EnqueueInput[], now: Date): Promise<number[]> {
    const ids = await enqueueMany(db, inputs, now);
    this.enqueued(inputs.map((x) => x.queue));
    return ids;
  }

  private enqueued(queues: string[]): void {
    for (const queue of new Set(queues)) {
      if (!this.started || !this.registrations.has(queue)) continue;
      this.hotUntil = Date.now() + HOT_MS;
      this.wake(queue);
    }
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const q of this.registrations.keys()) this.dirty.add(q);
    this.schedule(0);
  }

  /** Stops claiming and waits for running jobs; pending jobs stay in the database for the next start. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.currentPoll;
    await Promise.allSettled([...[...this.running.values()].flatMap((s) => [...s]), ...this.released]);
  }

  /** Asks for a poll now (after a request enqueued work), instead of at the next tick. */
  wake(queue?: string): void {
    if (!this.started) return;
    if (queue) this.dirty.add(queue);
    else for (const q of this.registrations.keys()) this.dirty.add(q);
    if (this.polling) this.wakeAgain = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    const due = Date.now() + ms;
    // Several wakes in a row coalesce into one poll; a sooner wake replaces a later tick.
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(
      () =>
        this.scope.runInAsyncScope(() => {
          this.timer = undefined;
          this.timerDue = Infinity;
          this.currentPoll = this.poll();
        }),
      ms,
    );
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
    if (again) return this.schedule(0);
    if (Date.now() < this.hotUntil) {
      for (const q of this.registrations.keys()) this.dirty.add(q);
      return this.schedule(HOT_POLL_MS);
    }
    // The periodic tick looks at every queue: jobs due later (retries, schedules) and jobs other processes enqueued.
    for (const q of this.registrations.keys()) this.dirty.add(q);
    this.schedule(this.pollMs);
  }

  private async claimAndRun(): Promise<number> {
    let claimed = 0;
    const queues = [...this.dirty];
    this.dirty.clear();
    for (const queue of queues) {
      const reg = this.registrations.get(queue);
      if (!reg) continue;
      const busy = this.running.get(queue)!;
      const free = reg.concurrency - busy.size;
      if (free <= 0) continue;
      const jobs = await claim(this.ctx.db, {
        queues: [queue],
        workerId: this.workerId,
        leaseMs: reg.leaseMs,
        limit: free,
        now: this.ctx.clock.now(),
      });
      claimed += jobs.length;
      // A full batch may mean more are waiting.
      if (jobs.length === free) this.dirty.add(queue);
      for (const job of jobs) {
        let p: Promise<void> | undefined;
        const freeSlot = () => {
          if (!p || !busy.delete(p)) return;
          // Claim again once half the slots are free: one claim per batch, not one per finished job.
          if (busy.size <= reg.concurrency / 2) this.wake(queue);
          else this.dirty.add(queue);
        };
        const release = () => {
          if (p && busy.has(p)) this.released.add(p);
          freeSlot();
        };
        const run = this.runOne(job, reg, release).finally(() => {
          this.released.delete(run);
          freeSlot();
        });
        p = run;
        busy.add(run);
      }
    }
    return claimed;
  }

  private async runOne(job: JobRow, reg: Registration, release?: () => void): Promise<void> {
    const run = new Run(job.id, this.workerId, reg.leaseMs, this.ctx, release);
    try {
      await reg.handler(JSON.parse(job.payload), job, run);
      if (!run.completed) await complete(this.ctx.db, job.id, this.ctx.clock.now());
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const now = this.ctx.clock.now();
      const outcome = await fail(this.ctx.db, job, message, new Date(now.getTime() + reg.backoff(job.attempts)), now).catch(
        () => 'unrecorded',
      );
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
        const jobs = await claim(this.ctx.db, {
          queues: [queue],
          workerId: this.workerId,
          leaseMs: reg.leaseMs,
          limit: reg.concurrency,
          now: this.ctx.clock.now(),
        });
        ran += jobs.length;
        await Promise.all(jobs.map((j) => this.runOne(j, reg)));
      }
      if (ran === 0) return;
    }
  }

  /** For tests: resolves once no job of these queues is due (jobs scheduled for later do not count) and none is running. */
  async idle(queues?: string[], timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const busy = [...this.running.entries()].some(([q, s]) => s.size > 0 && (!queues || queues.includes(q))) || this.released.size > 0;
      if (!busy && (await pendingCount(this.ctx.db, queues, this.ctx.clock.now())) === 0) return;
      if (Date.now() > deadline) throw new Error('jobs did not finish in time');
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
