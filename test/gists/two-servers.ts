// Shared by the gist tests that race writers of two processes: a test server and a second `hublet serve` process over
// the same data dir and database, both with room in their rate limits, and alice with a token.
import { afterAll, beforeAll } from 'vitest';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

export interface TwoServers {
  s: TestServer;
  sb: Sandbox;
  other: ServeProcess;
  alice: { login: string; token: string };
}

/** Starts both before the file's tests and stops them after; the fields are set once beforeAll has run. */
export function useTwoServers(): TwoServers {
  const t = {} as TwoServers;
  beforeAll(async () => {
    t.s = await startServer({ config: { rateLimitAuthenticated: 100_000, rateLimitAnonymous: 100_000 } });
    t.alice = await t.s.userWithToken('alice');
    t.sb = sandbox();
    t.other = await startServe(['--data', t.s.dataDir, '--database', t.s.databaseUrl, '--port', '0', '--log-level', 'fatal'], {
      env: t.sb.env,
      extraEnv: { HUBLET_RATE_LIMIT: '100000' },
    });
  });
  afterAll(async () => {
    await t.other?.stop();
    await t.s?.close();
    t.sb?.cleanup();
  });
  return t;
}
