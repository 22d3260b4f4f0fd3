// Coalesces concurrent calls into one batched call (one query or one transaction for many deliveries at once).

interface Pending<In, Out> {
  input: In;
  resolve(out: Out): void;
  reject(err: unknown): void;
}

/**
 * Calls made in the same turn of the event loop (or while the previous batch is still running) are handed to `run`
 * together, at most `max` at a time. `run` returns one result per input, in order; if it throws, every call rejects.
 */
export class Batcher<In, Out> {
  private queue: Pending<In, Out>[] = [];
  private scheduled = false;

  constructor(
    private readonly run: (inputs: In[]) => Promise<Out[]>,
    private readonly max = 100,
  ) {}

  add(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = this.queue.splice(0, this.max);
      this.schedule();
      this.run(batch.map((b) => b.input)).then(
        (outs) => {
          for (const [i, b] of batch.entries()) b.resolve(outs[i]);
        },
        (err: unknown) => {
          for (const b of batch) b.reject(err);
        },
      );
    });
  }
}
