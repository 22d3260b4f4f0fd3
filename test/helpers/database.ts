// Test databases: a SQLite file in the test's data dir, or (HUBLET_TEST_DB=postgres) a fresh PostgreSQL database per server.
import crypto from 'node:crypto';
import path from 'node:path';
import pg from 'pg';

export const onPostgres = process.env.HUBLET_TEST_DB === 'postgres';

function postgresAdminUrl(): string {
  const url = process.env.HUBLET_TEST_DATABASE_URL;
  if (!url) throw new Error('HUBLET_TEST_DB=postgres needs HUBLET_TEST_DATABASE_URL');
  return url;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(dataDir: string): Promise<TestDatabase> {
  if (!onPostgres) return { url: path.join(dataDir, 'hublet.sqlite'), drop: async () => {} };
  return scratchPostgresDatabase(postgresAdminUrl(), 'hublet_t');
}

/** A new, empty database on the PostgreSQL server `adminUrl` names, and how to drop it (tests and `make bench`). */
export async function scratchPostgresDatabase(adminUrl: string, prefix: string): Promise<TestDatabase> {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
