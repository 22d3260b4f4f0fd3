// Shared by the tests that run `hublet serve` as child processes: a sandbox, a receiver, fresh data dirs (and
// PostgreSQL databases), servers started with a known admin token and stopped after the file, calls as that admin.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../helpers/cli.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.js';
import { startReceiver, type Receiver } from './receiver.js';

export interface ServeProcesses {
  sb: Sandbox;
  rcv: Receiver;
  /** A new data dir under the sandbox, and the `--data` (and on PostgreSQL `--database`) arguments naming it. */
  freshDataDir(name: string): Promise<{ dir: string; args: string[] }>;
  /** `hublet serve --port 0 …args` with HUBLET_ADMIN_TOKEN set (and `env`); stopped with SIGKILL after the file. */
  serve(args: string[], env?: Record<string, string>): Promise<ServeProcess>;
  /** A JSON call as the admin. */
  call(p: ServeProcess, method: string, url: string, body?: unknown): Promise<{ status: number; body: any; text: string }>;
}

/** Sets up before the file's tests and tears down after; `sb` and `rcv` are set once beforeAll has run. */
export function useServeProcesses(adminToken: string): ServeProcesses {
  const databases: TestDatabase[] = [];
  const running: ServeProcess[] = [];
  const t = {
    async freshDataDir(name: string) {
      const dir = path.join(t.sb.root, name);
      fs.mkdirSync(dir);
      const db = await createTestDatabase(dir);
      databases.push(db);
      return { dir, args: ['--data', dir, ...(onPostgres ? ['--database', db.url] : [])] };
    },
    async serve(args: string[], env: Record<string, string> = {}) {
      const p = await startServe(['--port', '0', ...args], { env: t.sb.env, extraEnv: { HUBLET_ADMIN_TOKEN: adminToken, ...env } });
      running.push(p);
      return p;
    },
    async call(p: ServeProcess, method: string, url: string, body?: unknown) {
      const res = await fetch(p.url + url, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json', accept: 'application/vnd.service+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, text };
    },
  } as ServeProcesses;
  beforeAll(async () => {
    t.sb = sandbox();
    t.rcv = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop('SIGKILL')));
    for (const d of databases) await d.drop();
    await t.rcv?.close();
    t.sb?.cleanup();
  });
  return t;
}
