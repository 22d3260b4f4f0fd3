// GET /_health/live and /_health/ready on one server (anonymous limit 1): ready fails with 503 naming the check when the
// database, a schema migration, the data dir or the archive store (a directory, or S3 on s3rver) is wrong, each made
// wrong then right again, with no error logged; both answer a client whose limit is used up, and one sending a token
// that does not authenticate.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Config, loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import { startS3 } from '../helpers/s3.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ config: { rateLimitAnonymous: 1 } });
});

afterAll(async () => {
  await server?.close();
});

const PASS = { status: 'pass' };
const ALL_PASS = { status: 'pass', checks: { database: PASS, migrations: PASS, data_dir: PASS, archive_store: PASS } };

async function ready(prefix = '') {
  const r = await server.api('GET', `${prefix}/_health/ready`);
  return { status: r.status, body: r.body, headers: r.headers };
}

/** Ready while the app's config is replaced by `changes` (read at each check), the config restored after. */
async function readyWithConfig(changes: Partial<Config>) {
  const original = server.app.hublet.config;
  server.app.hublet.config = Object.freeze({ ...original, ...changes });
  try {
    return await ready();
  } finally {
    server.app.hublet.config = original;
  }
}

describe('health checks', () => {
  it('live and ready answer 200 with every check passing, at the root and under /api/v3, never cached', async () => {
    for (const prefix of ['', '/api/v3']) {
      const live = await server.api('GET', `${prefix}/_health/live`);
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'pass' });
      const r = await ready(prefix);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(ALL_PASS);
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('ready fails (503) naming a schema migration not applied, or one this hublet does not know', async () => {
    const { rows } = await sql<{
      name: string;
      timestamp: string;
    }>`select name, "timestamp" from kysely_migration order by name desc limit 1`.execute(server.db);
    const [last] = rows;
    await sql`delete from kysely_migration where name = ${last.name}`.execute(server.db);
    try {
      const r = await ready();
      expect(r.status).toBe(503);
      expect(r.body).toEqual({
        status: 'fail',
        checks: { ...ALL_PASS.checks, migrations: { status: 'fail', error: `not applied: ${last.name}` } },
      });
    } finally {
      await sql`insert into kysely_migration (name, "timestamp") values (${last.name}, ${last.timestamp})`.execute(server.db);
    }
    expect((await ready()).status).toBe(200);

    await sql`insert into kysely_migration (name, "timestamp") values (${'2999-01-01T00-00-later'}, ${last.timestamp})`.execute(server.db);
    try {
      const r = await ready();
      expect(r.status).toBe(503);
      expect(r.body.checks.migrations).toEqual({ status: 'fail', error: 'applied by a newer hublet: 2999-01-01T00-00-later' });
    } finally {
      await sql`delete from kysely_migration where name = ${'2999-01-01T00-00-later'}`.execute(server.db);
    }
    expect((await ready()).status).toBe(200);
  });

  it('ready fails (503) naming the data dir when no file can be made in it, and the archive store when it cannot be reached', async () => {
    // Root writes through any mode bits: the data dir's path is a file instead.
    const file = path.join(server.dataDir, 'not-a-dir');
    fs.writeFileSync(file, '');
    const dataDir = await readyWithConfig({ dataDir: file });
    expect(dataDir.status).toBe(503);
    expect(dataDir.body).toEqual({ status: 'fail', checks: { ...ALL_PASS.checks, data_dir: { status: 'fail', error: 'ENOTDIR' } } });

    const store = await readyWithConfig({ archiveStorage: 'filesystem', archiveDir: file });
    expect(store.status).toBe(503);
    expect(store.body).toEqual({ status: 'fail', checks: { ...ALL_PASS.checks, archive_store: { status: 'fail', error: 'ENOTDIR' } } });

    // No archive storage configured: nothing to reach.
    expect((await readyWithConfig({ archiveStorage: 'none' })).body).toEqual(ALL_PASS);
    expect(fs.readdirSync(server.dataDir).filter((f) => f.startsWith('.health-'))).toEqual([]);
  });

  it('ready passes with archives in S3 (a HEAD of a missing object answers 404), and fails naming the store once it is down', async () => {
    // As the store itself does (src/blob/s3.ts): the SDK's notice about later Node versions is not this test's output.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const s3 = await startS3('health-archives');
    try {
      // The SDK's modules, loaded on a store's first use, are loaded here first: the check's 2 s are for the store.
      await Promise.all([import('@aws-sdk/lib-storage'), import('@aws-sdk/s3-request-presigner')]);
      const { archiveStorage, s3Bucket, s3Endpoint, s3Region, s3Prefix, s3ForcePathStyle, s3AccessKeyId, s3SecretAccessKey } = loadConfig(
        { dataDir: server.dataDir, ...s3.config('hublet') },
        {},
      );
      const settings = { archiveStorage, s3Bucket, s3Endpoint, s3Region, s3Prefix, s3ForcePathStyle, s3AccessKeyId, s3SecretAccessKey };
      expect(await readyWithConfig(settings)).toMatchObject({ status: 200, body: ALL_PASS });
      await s3.stop();
      const down = await readyWithConfig(settings);
      expect(down.status).toBe(503);
      expect(down.body.checks.archive_store).toEqual({ status: 'fail', error: expect.stringMatching(/archive storage/) });
      expect(down.body.checks.database).toEqual(PASS);
    } finally {
      await s3.close();
    }
    expect((await ready()).body).toEqual(ALL_PASS);
  });

  it('ready fails (503) naming the database when it does not answer, logging the change once as a warning, never an error', async () => {
    const log = server.app.log;
    const warn = vi.spyOn(log, 'warn');
    const error = vi.spyOn(log, 'error');
    // A database that is closed: every query fails.
    const closed = connect(server.databaseUrl);
    await sql`select 1`.execute(closed);
    await closed.destroy();
    const db = server.app.hublet.db;
    server.app.hublet.db = closed;
    try {
      for (let i = 0; i < 2; i++) {
        const r = await ready();
        expect(r.status).toBe(503);
        expect(r.body.status).toBe('fail');
        expect(r.body.checks.database).toEqual({ status: 'fail', error: expect.any(String) });
        expect(r.body.checks.data_dir).toEqual(PASS);
      }
    } finally {
      server.app.hublet.db = db;
    }
    expect((await ready()).body).toEqual(ALL_PASS);
    const notReady = warn.mock.calls.filter((c) => String(c[1]).startsWith('not ready'));
    expect(notReady.map((c) => c[1])).toEqual(['not ready: database, migrations failing']);
    expect(error).not.toHaveBeenCalled();
    warn.mockRestore();
    error.mockRestore();
  });

  it('live and ready answer a client over its rate limit, and one sending a token that does not authenticate', async () => {
    // The anonymous limit is 1: the second call to another route is refused.
    await server.api('GET', '/meta');
    expect((await server.api('GET', '/meta')).status).toBe(403);
    for (let i = 0; i < 3; i++) {
      expect((await server.api('GET', '/_health/live')).status).toBe(200);
      expect((await ready()).status).toBe(200);
    }
    const stale = await server.api('GET', '/_health/ready', { token: 'hlp_no_such_token' });
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(ALL_PASS);
  });

  it('ready fails (503) once the server is stopping, while live still answers 200', async () => {
    server.app.readiness.stop('SIGTERM');
    const r = await ready();
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ status: 'fail', checks: { shutdown: { status: 'fail', error: 'the server is stopping (SIGTERM)' } } });
    expect((await server.api('GET', '/_health/live')).status).toBe(200);
  });
});
