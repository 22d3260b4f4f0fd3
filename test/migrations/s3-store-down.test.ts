// An S3 store that is down: the export is retried per the job rules, then fails with a clear failure_reason (no
// address, no key); once the store answers again a retried export succeeds. Also: path-style versus virtual-hosted URLs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../src/blob/s3.js';
import { loadConfig } from '../../src/config.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import type { TestServer } from '../helpers/server.js';
import { offsetClock, serverWithMonasRepos, waitForState, type MonaServer } from './support.js';

const clock = offsetClock();
let s3: TestS3;
let setup: MonaServer;
let server: TestServer;
let mona: { token: string };

beforeAll(async () => {
  s3 = await startS3();
  setup = await serverWithMonasRepos(clock, ['one'], s3.config('down'));
  ({ server, mona } = setup);
  await s3.stop();
});
afterAll(async () => {
  await setup?.close();
  await s3?.close();
});

async function startMigration(): Promise<number> {
  const r = await server.api('POST', '/user/migrations', { token: mona.token, body: { repositories: ['one'] } });
  expect(r.status).toBe(201);
  return r.body.id;
}

function exportJob(id: number) {
  return server.db
    .selectFrom('jobs')
    .select(['attempts', 'max_attempts', 'last_error', 'state', 'run_at', 'locked_by'])
    .where('queue', '=', 'migration-export')
    .where('payload', 'like', `%"migrationId":${id}}%`)
    .executeTakeFirstOrThrow();
}

/**
 * Waits until `done` says so, moving the clock to the export's next retry whenever it waits out its backoff (never while
 * it runs: its lease must not expire under it) and waking the worker.
 */
async function retryUntil(id: number, done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('the export did not get there in time');
    const job = await exportJob(id);
    const wait = Date.parse(job.run_at) - clock.now().getTime();
    if (job.state === 'pending' && job.locked_by === null && wait > 0) {
      clock.offsetMs += wait + 10;
      server.app.hublet.jobs.wake();
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const stateOf = async (id: number) => (await server.api('GET', `/user/migrations/${id}`, { token: mona.token })).body.state;

describe('an S3 store that is down', () => {
  it('fails the export after its three attempts with a failure_reason saying the storage is unreachable', async () => {
    const id = await startMigration();
    await retryUntil(id, async () => (await stateOf(id)) === 'failed');
    const m = await server.api('GET', `/user/migrations/${id}`, { token: mona.token });
    expect(m.body.failure_reason).toBe('the archive could not be stored: the archive storage is unreachable (ECONNREFUSED)');
    expect(m.body.archive_url).toBeUndefined();
    const job = await exportJob(id);
    expect(job.attempts).toBe(job.max_attempts);
    expect(job.max_attempts).toBe(3);
  });

  it('retries an export that failed while the store was down, and it succeeds once the store is back', async () => {
    const id = await startMigration();
    const deadline = Date.now() + 10_000;
    while ((await exportJob(id)).last_error === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const first = await exportJob(id);
    expect(first).toMatchObject({ attempts: 1, state: 'pending' });
    expect(first.last_error).toContain('the archive storage is unreachable (ECONNREFUSED)');
    expect(await stateOf(id)).not.toBe('failed');

    await s3.start();
    await retryUntil(id, async () => ['exported', 'failed'].includes(await stateOf(id)));
    const m = await waitForState(server, `/user/migrations/${id}`, mona.token);
    expect(m.state).toBe('exported');
    expect((await s3.list('down/')).map((o) => o.key)).toEqual([`down/migrations/${m.guid}.tar.gz`]);
  });
});

describe('S3 addressing', () => {
  const settings = (forcePathStyle: string) =>
    loadConfig(
      {
        archiveStorage: 's3',
        s3Bucket: 'hublet-archives',
        s3Endpoint: 'http://localhost:9000',
        s3ForcePathStyle: forcePathStyle,
        s3AccessKeyId: 'AKIDEXAMPLE',
        s3SecretAccessKey: 'not-a-real-secret',
      },
      {},
    );
  const url = (forcePathStyle: string) =>
    new S3BlobStore(settings(forcePathStyle)).downloadUrl('migrations/x.tar.gz', {
      now: new Date(),
      expiresInSeconds: 60,
      filename: 'x.tar.gz',
      contentType: 'application/gzip',
    });

  it('signs path-style URLs with HUBLET_S3_FORCE_PATH_STYLE=1, virtual-hosted ones without, never with the secret key', async () => {
    const pathStyle = new URL(await url('1'));
    expect([pathStyle.host, pathStyle.pathname]).toEqual(['localhost:9000', '/hublet-archives/migrations/x.tar.gz']);
    const virtual = new URL(await url('0'));
    expect([virtual.host, virtual.pathname]).toEqual(['hublet-archives.localhost:9000', '/migrations/x.tar.gz']);
    expect(pathStyle.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\//);
    expect(pathStyle.searchParams.get('response-content-disposition')).toBe('attachment; filename="x.tar.gz"');
    expect(`${pathStyle}${virtual}`).not.toContain('not-a-real-secret');
  });
});
