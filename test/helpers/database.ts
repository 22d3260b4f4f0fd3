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
  const adminUrl = postgresAdminUrl();
  const name = `hublet_t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
