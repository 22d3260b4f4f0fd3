// A keyed mutex for this process: runs with the same key take turns, in the order they asked; other keys do not wait.

/** Runs `run` once every earlier run under the same key has settled (resolved or thrown). */
export type KeyedLock = <T>(key: string, run: () => Promise<T>) => Promise<T>;

/** A new keyed lock with its own keys (two locks never wait for each other); keys no run holds or awaits are forgotten. */
export function keyedLock(): KeyedLock {
  const tails = new Map<string, Promise<void>>();
  return async (key, run) => {
    const previous = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const chain = previous.then(() => mine);
    tails.set(key, chain);
    await previous;
    try {
      return await run();
    } finally {
      release();
      if (tails.get(key) === chain) tails.delete(key);
    }
  };
}
