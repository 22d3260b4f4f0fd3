// The change stamp's query (src/db/change-stamp.ts, as PostgreSQL runs it): the callers of one turn of the event loop
// share one query, and a caller that asks while a query runs gets the next one, never the running one's answer (it may
// predate a commit that caller has seen).
import { describe, expect, it } from 'vitest';
import { changeStamp, registerStampQuery } from '../../src/db/change-stamp.js';
import type { Db } from '../../src/db/schema.js';

/** Past the check phase in which a query of the callers so far starts. */
const afterCheck = async () => {
  for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
};

describe('the change stamp query', () => {
  it('is one query for the callers of a turn, and a new one for a caller that asked while it ran', async () => {
    const db = {} as Db;
    const started: Array<(stamp: string) => void> = [];
    registerStampQuery(db, () => new Promise<string>((resolve) => started.push(resolve)));

    const turn = Array.from({ length: 10 }, () => changeStamp(db));
    await afterCheck();
    expect(started).toHaveLength(1);

    const late = changeStamp(db); // asked while the first query runs
    started[0]('stamp-1');
    expect(await Promise.all(turn)).toEqual(Array(10).fill('stamp-1'));
    await afterCheck();
    expect(started).toHaveLength(2);
    started[1]('stamp-2');
    expect(await late).toBe('stamp-2');
  });
});
