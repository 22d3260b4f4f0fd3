// Fair delivery: one destination (a hook URL's origin) that answers slowly takes at most a bounded share of this process's
// delivery slots; its other deliveries wait as held jobs (rows) in a queue of their own until it has room again.
//
// The invariants, per process (several processes on one PostgreSQL each bound their own share):
// - An origin is *slow* once a delivery to it has been in flight longer than `slowMs`, or its last one took longer;
//   its next quick answer makes it fast again. A fast origin is not bounded (one quick receiver may use every slot).
// - A slow origin has at most `share` deliveries started while it is slow; a delivery to it beyond that is *held*:
//   its job row moves, unstarted and its attempt not counted, to the queue `hooks.deliver@<origin>`, which no worker
//   claims from. Nothing spins on it and nothing fails.
// - Of a slow origin's deliveries in flight, at most `share` hold a worker slot; the others (started before it was
//   seen to be slow) release theirs (JobRun.releaseSlot), so other destinations' deliveries are claimed in their place.
// - Held jobs come back, oldest first, into the delivery queue: as many as the origin has room for each time one of its
//   deliveries ends, and every `recoverMs` (the hook timeout, within 1 … 5 s) for every holding queue (also jobs held
//   by a process that stopped or crashed).
import type { AppContext } from '../core/context.js';
import { Batcher } from '../db/batch.js';
import { holdRunsIn, type JobRun } from '../jobs/worker.js';
import { moveWaiting, waitingQueues } from '../jobs/queue.js';
import { DELIVER_QUEUE } from './outbox.js';

/** Where held deliveries of an origin wait: `hooks.deliver@https://example.com:8443`. */
const HELD_PREFIX = `${DELIVER_QUEUE}@`;

/** Origins remembered at most (idle ones are forgotten first). */
const MAX_ORIGINS = 10_000;

export interface FairnessOptions {
  /** The delivery queue's concurrency in this process. */
  slots: number;
  /** The delivery timeout: what counts as slow is derived from it. */
  timeoutMs: number;
}

/** One delivery in flight. */
interface Ticket {
  readonly started: number;
  readonly run: JobRun;
  /** Still counted against the queue's concurrency. */
  holdsSlot: boolean;
  /** In flight longer than slowMs. */
  slow: boolean;
}

interface Origin {
  readonly inFlight: Set<Ticket>;
  slow: boolean;
  /** Deliveries in flight longer than slowMs. */
  hanging: number;
  /** Held jobs this process moved back that it has not seen start yet (reset at each recovery pass). */
  coming: number;
  /** Jobs this process held and has not moved back (a hint; the holding queue is the truth). */
  held: number;
}

interface Hold {
  origin: string;
  run: JobRun;
}

/** The origin of a hook URL (scheme, host, port), or undefined when it is not a URL. */
function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? undefined : u.origin;
  } catch {
    return undefined;
  }
}

/** A started delivery, to be ended with `Fairness.leave` once its request is done. */
export type Admission = { origin: string; ticket: Ticket } | { origin: undefined };

/** One per app: tracks every origin's deliveries in flight in this process and holds back those of slow origins. */
export class Fairness {
  /** Deliveries a slow origin may have in flight (and slots it may hold): max(2, 10 % of the slots). */
  readonly share: number;
  /** In flight longer than this makes an origin slow: a twentieth of the timeout, within 50 ms … 1 s. */
  readonly slowMs: number;
  private readonly slots: number;
  private readonly recoverMs: number;
  private readonly origins = new Map<string, Origin>();
  private readonly holder: Batcher<Hold, undefined>;
  private sweepTimer?: NodeJS.Timeout;
  private recoverTimer?: NodeJS.Timeout;

  constructor(
    private readonly ctx: AppContext,
    options: FairnessOptions,
  ) {
    this.slots = options.slots;
    this.share = Math.max(2, Math.floor(options.slots / 10));
    this.slowMs = Math.min(1000, Math.max(50, Math.round(options.timeoutMs / 20)));
    this.recoverMs = Math.min(5000, Math.max(1000, options.timeoutMs));
    this.holder = new Batcher((holds) => this.hold(holds));
  }

  /**
   * Starts a delivery to `url`, or holds its job back (undefined: the job is a pending row of the origin's holding
   * queue again, and the handler must return without sending).
   */
  async enter(url: string, run: JobRun): Promise<Admission | undefined> {
    const origin = originOf(url);
    if (!origin) return { origin: undefined };
    const o = this.state(origin);
    if (o.coming > 0) o.coming--;
    if (o.slow && o.inFlight.size >= this.share) {
      o.held++;
      await this.holder.add({ origin, run });
      return undefined;
    }
    const ticket: Ticket = { started: performance.now(), run, holdsSlot: true, slow: false };
    o.inFlight.add(ticket);
    this.startSweeping();
    return { origin, ticket };
  }

  /** Ends a delivery `enter` started; brings back as many held jobs of its origin as it now has room for. */
  async leave(admission: Admission): Promise<void> {
    if (admission.origin === undefined) return;
    const o = this.origins.get(admission.origin);
    if (!o) return;
    const { ticket } = admission;
    o.inFlight.delete(ticket);
    const quick = performance.now() - ticket.started <= this.slowMs;
    // A quick answer makes the origin fast again, unless another delivery to it is hanging right now.
    if (ticket.slow) o.hanging--;
    o.slow = quick ? o.hanging > 0 : true;
    try {
      if (o.slow || o.held > 0) await this.bringBack(admission.origin, o);
    } catch (err) {
      this.ctx.log.warn({ err, origin: admission.origin }, 'could not bring back held webhook deliveries');
    }
    this.forget(admission.origin, o);
  }

  /** Starts the periodic recovery of held jobs (the app's onReady). */
  start(): void {
    if (this.recoverTimer) return;
    this.recoverTimer = setInterval(() => {
      this.recover().catch((err: unknown) => this.ctx.log.warn({ err }, 'could not bring back held webhook deliveries'));
    }, this.recoverMs);
    this.recoverTimer.unref?.();
  }

  /** Stops the timers (the app's onClose, once running deliveries ended). */
  stop(): void {
    clearInterval(this.recoverTimer);
    clearInterval(this.sweepTimer);
    this.recoverTimer = undefined;
    this.sweepTimer = undefined;
  }

  /** Moves every holding queue's jobs back, as many as each origin has room for (held by anyone, this process or not). */
  async recover(): Promise<void> {
    for (const o of this.origins.values()) o.coming = 0;
    for (const queue of await waitingQueues(this.ctx.db, HELD_PREFIX)) {
      const origin = queue.slice(HELD_PREFIX.length);
      await this.bringBack(origin, this.state(origin));
    }
  }

  private state(origin: string): Origin {
    let o = this.origins.get(origin);
    if (!o) {
      if (this.origins.size >= MAX_ORIGINS) this.forgetIdle();
      o = { inFlight: new Set(), slow: false, hanging: 0, coming: 0, held: 0 };
      this.origins.set(origin, o);
    }
    return o;
  }

  private async bringBack(origin: string, o: Origin): Promise<void> {
    const room = (o.slow ? this.share - o.inFlight.size : this.slots) - o.coming;
    if (room <= 0) return;
    const moved = await moveWaiting(this.ctx.db, HELD_PREFIX + origin, DELIVER_QUEUE, room);
    o.held = Math.max(0, o.held - moved);
    if (moved === 0) return;
    o.coming += moved;
    this.ctx.jobs.wake(DELIVER_QUEUE);
  }

  /** One transaction per batch of holds, one statement per origin. */
  private async hold(holds: Hold[]): Promise<undefined[]> {
    const byOrigin = new Map<string, JobRun[]>();
    for (const h of holds) byOrigin.set(h.origin, [...(byOrigin.get(h.origin) ?? []), h.run]);
    await this.ctx.db.transaction().execute(async (trx) => {
      for (const [origin, runs] of byOrigin) await holdRunsIn(trx, runs, HELD_PREFIX + origin);
    });
    return holds.map(() => undefined);
  }

  /** While deliveries are in flight: marks those running longer than slowMs, and frees slots a slow origin holds beyond its share. */
  private startSweeping(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => this.sweep(), Math.max(10, Math.floor(this.slowMs / 4)));
    this.sweepTimer.unref?.();
  }

  private sweep(): void {
    const now = performance.now();
    let inFlight = 0;
    for (const o of this.origins.values()) {
      inFlight += o.inFlight.size;
      for (const t of o.inFlight) {
        if (t.slow || now - t.started <= this.slowMs) continue;
        t.slow = true;
        o.hanging++;
        o.slow = true;
      }
      if (!o.slow) continue;
      // The oldest keep their slots (they end first); the rest give theirs up.
      const holding = [...o.inFlight].filter((t) => t.holdsSlot).sort((a, b) => a.started - b.started);
      for (const t of holding.slice(this.share)) {
        t.holdsSlot = false;
        t.run.releaseSlot();
      }
    }
    if (inFlight === 0) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = undefined;
    }
  }

  private forget(origin: string, o: Origin): void {
    if (o.inFlight.size === 0 && !o.slow && o.held === 0 && o.coming === 0) this.origins.delete(origin);
  }

  private forgetIdle(): void {
    for (const [origin, o] of this.origins) if (o.inFlight.size === 0 && o.held === 0) this.origins.delete(origin);
  }
}
