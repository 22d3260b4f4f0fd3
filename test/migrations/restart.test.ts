// Exports survive a dead worker: an expired lease re-runs the export from scratch; one that keeps dying, or keeps failing, ends `failed`.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import type { TestServer } from '../helpers/server.js';
import { downloadArchive, offsetClock, serverWithMonasRepos, tar, waitForState, type MonaServer } from './support.js';

const clock = offsetClock();
let setup: MonaServer;
let server: TestServer;
let mona: { token: string };
let tmp: string;

beforeAll(async () => {
  setup = await serverWithMonasRepos(clock, ['work', 'broken']);
  ({ server, mona, tmp } = setup);
  // The test server's own worker stays off: each test starts "the server after a restart", a second app on the same
  // database and data directory with a worker of its own.
  await server.app.hublet.jobs.stop();
});
let restarted: FastifyInstance | undefined;
afterEach(async () => {
  await restarted?.close();
  restarted = undefined;
});
afterAll(async () => {
  await setup?.close();
});

/** A new app over the same database and data dir, as after a restart, with its worker running. */
async function restart(): Promise<void> {
  restarted = await buildApp({ config: server.app.hublet.config, db: server.db, clock });
  await restarted.ready();
  restarted.hublet.jobs.start();
}

/** Starts a migration while no worker runs, then hands its job to a worker that "died" mid-export. */
async function interruptedExport(repositories: string[], attemptsUsed: number): Promise<{ id: number; guid: string }> {
  const r = await server.api('POST', '/user/migrations', { token: mona.token, body: { repositories } });
  expect(r.status).toBe(201);
  const past = new Date(clock.now().getTime() - 1000).toISOString();
  await server.db.updateTable('migrations').set({ state: 'exporting' }).where('id', '=', r.body.id).execute();
  const updated = await server.db
    .updateTable('jobs')
    .set({ locked_by: 'dead-worker', locked_until: past, attempts: attemptsUsed })
    .where('queue', '=', 'migration-export')
    .where('state', '=', 'pending')
    .executeTakeFirst();
  expect(Number(updated.numUpdatedRows)).toBe(1);
  return { id: r.body.id, guid: r.body.guid };
}

describe('a restart during an export', () => {
  it('re-runs the export of a worker that died (its lease expired), cleaning up what it left behind', async () => {
    const { id, guid } = await interruptedExport(['work'], 1);
    // What the dead worker left: half a staging directory and half an archive.
    const staging = path.join(server.dataDir, 'tmp', 'migrations', `${guid}-deadbeef`);
    fs.mkdirSync(path.join(staging, 'repositories'), { recursive: true });
    fs.writeFileSync(path.join(staging, 'schema.json'), '{"version"');
    const archives = path.join(server.dataDir, 'archives', 'migrations');
    fs.mkdirSync(archives, { recursive: true });
    const halfArchive = path.join(archives, `${guid}.tar.gz.tmp-deadbeef0000`);
    fs.writeFileSync(halfArchive, Buffer.alloc(1000, 1));
    const longAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(halfArchive, longAgo, longAgo);
    expect((await server.api('GET', `/user/migrations/${id}`, { token: mona.token })).body.state).toBe('exporting');

    await restart();
    const m = await waitForState(server, `/user/migrations/${id}`, mona.token);
    expect(m.state).toBe('exported');
    expect(fs.existsSync(staging)).toBe(false);
    expect(fs.existsSync(halfArchive)).toBe(false);
    expect(fs.readdirSync(archives)).toEqual([`${guid}.tar.gz`]);
    const file = path.join(tmp, 'resumed.tar.gz');
    await downloadArchive(server, `/user/migrations/${id}/archive`, mona.token, file);
    expect((await tar(['-tzf', file], tmp)).split('\n')).toEqual(
      expect.arrayContaining(['schema.json', 'repositories_000001.json', 'repositories/mona/work.git/HEAD']),
    );
    const job = await server.db
      .selectFrom('jobs')
      .selectAll()
      .where('queue', '=', 'migration-export')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('fails an export whose workers keep dying, instead of leaving it exporting forever', async () => {
    const { id } = await interruptedExport(['work'], 3);
    await restart();
    const m = await waitForState(server, `/user/migrations/${id}`, mona.token);
    expect(m.state).toBe('failed');
    expect(m.failure_reason).toMatch(/interrupted 3 times/);
    expect((await server.api('GET', `/user/migrations/${id}/archive`, { token: mona.token })).status).toBe(404);
  });
});

describe('an export that cannot be written', () => {
  it('is retried, then marked failed with the reason', async () => {
    const repo = await server.db.selectFrom('repositories').select('id').where('name', '=', 'broken').executeTakeFirstOrThrow();
    const dir = path.join(server.dataDir, 'git', 'repos', `${repo.id}.git`);
    expect(fs.existsSync(path.join(dir, 'HEAD'))).toBe(true);
    fs.rmSync(path.join(dir, 'objects'), { recursive: true, force: true });
    fs.writeFileSync(path.join(dir, 'objects'), 'not a directory');
    const r = await server.api('POST', '/user/migrations', { token: mona.token, body: { repositories: ['broken'] } });
    expect(r.status).toBe(201);
    await restart();
    // Each retry waits (backoff) on the server's clock: move it on until the export gives up.
    const deadline = Date.now() + 30_000;
    let m = r.body;
    while (m.state !== 'failed' && Date.now() < deadline) {
      // Only between attempts: moving the clock past a running attempt's lease would let a second worker claim it.
      const running = await server.db
        .selectFrom('jobs')
        .select('id')
        .where('queue', '=', 'migration-export')
        .where('locked_by', 'is not', null)
        .executeTakeFirst();
      if (!running) clock.offsetMs += 120_000;
      await new Promise((res) => setTimeout(res, 300));
      m = (await server.api('GET', `/user/migrations/${r.body.id}`, { token: mona.token })).body;
    }
    expect(m.state).toBe('failed');
    expect(m.failure_reason).toMatch(/^could not copy the git data of mona\/broken: (fatal|error): /);
    expect(m.failure_reason).not.toContain(server.dataDir);
    const job = await server.db
      .selectFrom('jobs')
      .selectAll()
      .where('queue', '=', 'migration-export')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'done', attempts: 3 });
    expect(fs.readdirSync(path.join(server.dataDir, 'tmp', 'migrations'))).toEqual([]);
  });
});
