// Re-applying a gist change when another writer moved the head first (this process or another on the same database).
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a writer keeps re-applying its change while other writers keep winning the head's compare-and-set. */
const RETRY_WINDOW_MS = 60_000;
const MAX_PAUSE_MS = 50;

/**
 * Runs `attempt` until it returns something other than `undefined`. `undefined` means the head moved under it: every
 * such loss is another writer's win, so the writers as a whole always progress. Between attempts a short random pause
 * (growing up to 50 ms) keeps writers of several processes from colliding in step. Bounded by time, not by a count of
 * attempts (three were too few for two busy servers on one gist): `giveUp()` is thrown only after RETRY_WINDOW_MS.
 */
export async function untilHeadHolds<T>(attempt: () => Promise<T | undefined>, giveUp: () => Error): Promise<T> {
  const started = performance.now();
  for (let n = 0; ; n++) {
    const result = await attempt();
    if (result !== undefined) return result;
    if (performance.now() - started > RETRY_WINDOW_MS) throw giveUp();
    await sleep(Math.random() * Math.min(MAX_PAUSE_MS, 2 ** n));
  }
}
