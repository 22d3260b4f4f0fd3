// Counts the statements a test server runs while a callback runs (a Kysely plugin on the app's database handle).
import type { KyselyPlugin } from 'kysely';
import { registerWriteVersions, writeVersions } from '../../src/db/write-observer.js';
import type { TestServer } from './server.js';

/**
 * How many statements the server ran during `fn`, leaving out what runs on a clock or by the moment whatever the
 * request: the job queue's polls, the shared rate counts' flush, the token lookup (cached, re-read after any commit),
 * and the change stamp (one query shared by the requests of a moment on PostgreSQL).
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
  const onClock = ['"jobs"', 'rate_limit_counts', '"name":"tokens"', 'change_counters', 'data_version'];
  return queries.filter((q) => !onClock.some((mark) => q.includes(mark))).length;
}
