// PostgreSQL only (the SQLite pass leaves test/postgres/ out, vitest.config.ts): three `hublet serve` processes started
// at the same moment on one fresh database and data dir migrate the schema once and make the site admin and its token
// once, with HUBLET_ADMIN_TOKEN (every process starts, one token row) and without (one process prints the one-time token).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { schemaMigrations } from '../../src/db/schema-migrations/index.js';
import { serveProcesses } from '../helpers/serve-process.js';

const ROUNDS = 2;
const p = serveProcesses();

/** One query against a test database. */
async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Three serve processes started together on a fresh data dir and database; each is stopped before this returns. */
async function startThree(name: string, env: Record<string, string>): Promise<{ url: string; stdouts: string[] }> {
  const fresh = await p.freshDataDir(name);
  const args = ['--data', fresh.dir, '--port', '0', ...fresh.args];
  const started = await Promise.allSettled([0, 1, 2].map(() => p.serve(args, env, 90_000)));
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  // The site-admin line follows the listening line (none is printed when HUBLET_ADMIN_TOKEN is set).
  if (!env.HUBLET_ADMIN_TOKEN) await Promise.all(running.map((s) => s.waitFor(/shown once|already has a token/)));
  const stdouts = running.map((s) => s.stdout());
  await Promise.all(running.map((s) => s.stop()));
  const failures = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
  expect(failures).toEqual([]);
  return { url: fresh.db.url, stdouts };
}

describe('hublet serve ×3 on one fresh PostgreSQL database, started at the same moment', () => {
  it('all start with HUBLET_ADMIN_TOKEN: the schema migrated once, one admin, one token row', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const token = `hlp_startrace${round}${Date.now().toString(36)}`;
      const { url } = await startThree(`fixed${round}`, { HUBLET_ADMIN_TOKEN: token });
      expect(await query(url, `select note from tokens`)).toEqual([{ note: 'HUBLET_ADMIN_TOKEN' }]);
      expect(await query(url, `select login, site_admin from users`)).toEqual([{ login: 'admin', site_admin: expect.anything() }]);
      const applied = await query<{ name: string }>(url, `select name from kysely_migration order by name`);
      expect(applied.map((r) => r.name)).toEqual(Object.keys(schemaMigrations).sort());
    }
  }, 180_000);

  it('without HUBLET_ADMIN_TOKEN exactly one prints a one-time token, and that token is the admin’s only one', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { url, stdouts } = await startThree(`oneTime${round}`, {});
      const printed = stdouts.flatMap((out) => [...(/its token \(shown once\): (\S+)/.exec(out)?.slice(1) ?? [])]);
      expect(printed).toHaveLength(1);
      expect(stdouts.filter((out) => out.includes('already has a token'))).toHaveLength(2);
      expect(await query(url, `select note from tokens`)).toEqual([{ note: 'bootstrap' }]);
    }
  }, 180_000);
});
