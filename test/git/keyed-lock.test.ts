// The keyed lock behind per-gist writes and per-repository pushes: same key in turn and in order, other keys free, a failure releases.
import { describe, expect, it } from 'vitest';
import { keyedLock } from '../../src/git/keyed-lock.js';

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('keyedLock', () => {
  it('runs holders of one key one at a time, in the order they asked, while another key goes ahead', async () => {
    const lock = keyedLock();
    const log: string[] = [];
    const first = gate();
    const a1 = lock('a', async () => {
      log.push('a1 start');
      await first.opened;
      log.push('a1 end');
      return 1;
    });
    const a2 = lock('a', async () => {
      log.push('a2');
      return 2;
    });
    const b = await lock('b', async () => {
      log.push('b');
      return 'b';
    });
    expect(b).toBe('b');
    expect(log).toEqual(['a1 start', 'b']);
    first.open();
    expect(await Promise.all([a1, a2])).toEqual([1, 2]);
    expect(log).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
  });

  it('passes a failure to its caller and lets the next holder run', async () => {
    const lock = keyedLock();
    const failing = lock('k', async () => {
      throw new Error('boom');
    });
    const next = lock('k', async () => 'ran');
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('ran');
  });

  it('keeps two locks apart: the same key in another lock does not wait', async () => {
    const one = keyedLock();
    const two = keyedLock();
    const held = gate();
    const holding = one('k', () => held.opened);
    expect(await two('k', async () => 'free')).toBe('free');
    held.open();
    await holding;
  });
});
