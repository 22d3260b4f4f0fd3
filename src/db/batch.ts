// Coalesces concurrent calls into one batched call (one query or one transaction for many deliveries at once).

interface Pending<In, Out> {
  input: In;
  resolve(out: Out): void;
  reject(err: unknown): void;
}

export interface BatcherOptions {
  /** The most inputs handed to one call (100 by default). */
  max?: number;
  /**
   * One call at a time: calls made while a batch runs wait for it and then go together as the next batch (a group
   * commit: while one transaction holds the writer, the next fills up). By default each turn's batch starts at once.
   */
  oneAtATime?: boolean;
}

/**
 * Calls made in the same turn of the event loop are handed to `run` together, at most `max` at a time. `run` returns
 * one result per input, in order; if it throws, every call rejects.
 */
export class Batcher<In, Out> {
  private queue: Pending<In, Out>[] = [];
  private scheduled = false;
  private running = false;
  private readonly max: number;
  private readonly oneAtATime: boolean;

  constructor(
    private readonly run: (inputs: In[]) => Promise<Out[]>,
    options: BatcherOptions = {},
  ) {
    this.max = options.max ?? 100;
    this.oneAtATime = options.oneAtATime ?? false;
  }

  /** Inputs handed to `add` whose call has not settled yet (waiting for a batch, or in one that runs). */
  get size(): number {
    return this.queue.length + this.inBatches;
  }

  /** Inputs of the batches running now. */
  private inBatches = 0;

  add(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || (this.oneAtATime && this.running)) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = this.queue.splice(0, this.max);
      this.running = true;
      this.inBatches += batch.length;
      if (!this.oneAtATime) this.schedule();
      this.run(batch.map((b) => b.input))
        .then(
          (outs) => {
            for (const [i, b] of batch.entries()) b.resolve(outs[i]);
          },
          (err: unknown) => {
            for (const b of batch) b.reject(err);
          },
        )
        .finally(() => {
          this.inBatches -= batch.length;
          this.running = false;
          this.schedule();
        });
    });
  }
}
