// Shared by the tests that start `hublet serve` as real processes: a sandbox, fresh data dirs (each with its own
// database on PostgreSQL), and serve processes started in it, all stopped, dropped and removed after the file's tests.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type Env, sandbox, type Sandbox, type ServeProcess, startServe } from './cli.js';
import { createTestDatabase, onPostgres, type TestDatabase } from './database.js';

export interface FreshDataDir {
  dir: string;
  db: TestDatabase;
  /** `--database URL` on PostgreSQL; none on SQLite (the data dir's default file). */
  args: string[];
}

export interface ServeProcesses {
  /** The file's sandbox (made in beforeAll). */
  readonly sandbox: Sandbox;
  /** A new data dir `name` under the sandbox, with a fresh database on PostgreSQL. */
  freshDataDir(name: string): Promise<FreshDataDir>;
  /** `hublet serve ARGS…` in the sandbox's environment, once it printed its listening line (within `timeoutMs`). */
  serve(args: string[], extraEnv?: Env, timeoutMs?: number): Promise<ServeProcess>;
}

/** Registers the file's beforeAll/afterAll and returns what its tests use. */
export function serveProcesses(): ServeProcesses {
  let sb: Sandbox | undefined;
  const databases: TestDatabase[] = [];
  const running: ServeProcess[] = [];
  beforeAll(() => {
    sb = sandbox();
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop('SIGKILL')));
    for (const d of databases) await d.drop();
    sb?.cleanup();
  });
  const current = (): Sandbox => {
    if (!sb) throw new Error('serveProcesses: the sandbox is made in beforeAll');
    return sb;
  };
  return {
    get sandbox() {
      return current();
    },
    async freshDataDir(name) {
      const dir = path.join(current().root, name);
      fs.mkdirSync(dir);
      const db = await createTestDatabase(dir);
      databases.push(db);
      return { dir, db, args: onPostgres ? ['--database', db.url] : [] };
    },
    async serve(args, extraEnv = {}, timeoutMs) {
      const p = await startServe(args, { env: current().env, extraEnv, timeoutMs });
      running.push(p);
      return p;
    },
  };
}
