// The Batcher (src/db/batch.ts): calls of one turn go together, a one-at-a-time batcher gathers the calls made while
// its batch runs into the next, and `size` counts the calls not settled yet (the webhook recorder's backpressure).
import { describe, expect, it } from 'vitest';
import { Batcher } from '../../src/db/batch.js';

describe('Batcher', () => {
  it('hands the calls of one turn to one run, in order, and answers each its own result', async () => {
    const runs: number[][] = [];
    const b = new Batcher<number, number>(async (xs) => {
      runs.push(xs);
      return xs.map((x) => x * 10);
    });
    expect(await Promise.all([b.add(1), b.add(2), b.add(3)])).toEqual([10, 20, 30]);
    expect(runs).toEqual([[1, 2, 3]]);
  });

  it('one at a time: calls made while a batch runs go together as the next; size counts waiting and running calls', async () => {
    const runs: number[][] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const b = new Batcher<number, undefined>(
      async (xs) => {
        runs.push(xs);
        if (runs.length === 1) await held;
        return xs.map(() => undefined);
      },
      { oneAtATime: true, max: 500 },
    );
    expect(b.size).toBe(0);
    const first = b.add(1);
    expect(b.size).toBe(1);
    await new Promise((r) => setImmediate(r)); // the first batch is running, held
    const later = [b.add(2), b.add(3), b.add(4)];
    expect(b.size).toBe(4);
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([[1]]); // the others wait for the running batch
    release();
    await Promise.all([first, ...later]);
    expect(runs).toEqual([[1], [2, 3, 4]]);
    expect(b.size).toBe(0);
  });

  it('a failing run rejects every call of its batch, and size comes back to 0', async () => {
    const b = new Batcher<number, number>(async () => {
      throw new Error('boom');
    });
    const calls = [b.add(1), b.add(2)].map((p) => p.catch((e: Error) => e.message));
    expect(await Promise.all(calls)).toEqual(['boom', 'boom']);
    expect(b.size).toBe(0);
  });
});
