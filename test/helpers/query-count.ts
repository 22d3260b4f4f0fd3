// Counts the statements a test server runs while a callback runs (a Kysely plugin on the app's database handle).
import type { KyselyPlugin } from 'kysely';
import { registerWriteVersions, writeVersions } from '../../src/db/write-observer.js';
import type { TestServer } from './server.js';

/**
 * How many statements the server ran during `fn`, leaving out what runs on a clock whatever the request: the job
 * queue's polls, the shared rate counts' flush, and the token lookup (cached, re-read once the cache entry is 2 s old).
 * The app's handle is swapped for a counting one sharing the same connection pool and write counters, then put back.
 */
export async function countQueries(s: TestServer, fn: () => Promise<void>): Promise<number> {
  const queries: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      queries.push(JSON.stringify(args.node));
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  const original = s.app.hublet.db;
  const counting = original.withPlugin(plugin);
  const versions = writeVersions(original);
  if (versions) registerWriteVersions(counting, versions);
  s.app.hublet.db = counting;
  try {
    await fn();
  } finally {
    s.app.hublet.db = original;
  }
  const onClock = ['"jobs"', 'rate_limit_counts', '"name":"tokens"'];
  return queries.filter((q) => !onClock.some((mark) => q.includes(mark))).length;
}
