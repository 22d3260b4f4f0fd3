// Failure counts that throttle guessing (sign-in passwords, device codes): per key, the failures in a fixed window. The
// counts live in the database, so every server process on it shares them.
import type { Db } from '../db/connect.js';

export interface ThrottleRule {
  /** Failures allowed in one window; the next attempt in the window is refused. */
  limit: number;
  windowMs: number;
}

/** Whether any of these keys has used up its failures in the current window. */
export async function isThrottled(db: Db, keys: { key: string; rule: ThrottleRule }[], now: Date): Promise<boolean> {
  if (!keys.length) return false;
  const rows = await db
    .selectFrom('throttle_counts')
    .selectAll()
    .where(
      'key',
      'in',
      keys.map((k) => k.key),
    )
    .execute();
  return rows.some((row) => {
    const rule = keys.find((k) => k.key === row.key)?.rule;
    return rule !== undefined && Date.parse(row.window_started_at) + rule.windowMs > now.getTime() && row.failures >= rule.limit;
  });
}

/** Counts one failure against each key (a new window when the last one is over). */
export async function recordFailure(db: Db, keys: { key: string; rule: ThrottleRule }[], now: Date): Promise<void> {
  const at = now.toISOString();
  for (const { key, rule } of keys) {
    const cutoff = new Date(now.getTime() - rule.windowMs).toISOString();
    await db
      .insertInto('throttle_counts')
      .values({ key, failures: 1, window_started_at: at })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('throttle_counts.window_started_at', '<=', cutoff)
            .then(1)
            .else(eb('throttle_counts.failures', '+', 1))
            .end(),
          window_started_at: eb
            .case()
            .when('throttle_counts.window_started_at', '<=', cutoff)
            .then(at)
            .else(eb.ref('throttle_counts.window_started_at'))
            .end(),
        })),
      )
      .execute();
  }
}

/** Forgets a key's failures (a successful sign-in clears its account's count). */
export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom('throttle_counts').where('key', '=', key).execute();
}
