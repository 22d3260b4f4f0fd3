// PostgreSQL only (the SQLite pass leaves test/postgres/ out, vitest.config.ts): migration exports with three real
// `hublet serve` processes on one PostgreSQL database and one data dir. A migration started through one process is
// exported exactly once (one archive, one "migration exported" line among the three processes' logs), its state is the
// same through every process, and another process serves its archive. A process SIGKILLed mid-export loses nothing:
// once its lease has ended another process exports it again, and the archive is whole (tar lists every entry, the same
// entries as an uninterrupted export of the same repository, and its git data passes git fsck).
//
// The export is caught mid-way deterministically, not by racing a large repository: the processes run git through a
// wrapper on their PATH that runs the real git, except that while the test's `hold` file exists an export's repository
// copy (`git clone --mirror`) first names its hublet process and waits. The dead worker's lease (60 s) is ended in the
// database instead of waited for, as restart.test.ts does for a single process.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import type { ServeProcess } from '../helpers/cli.js';
import { serveProcesses } from '../helpers/serve-process.js';
import { callsAs, eventually } from './calls.js';

const run = promisify(execFile);
const ADMIN_TOKEN = `hlp_export${crypto.randomBytes(8).toString('hex')}`;
const { ok } = callsAs(ADMIN_TOKEN);
const p = serveProcesses();
let servers: ServeProcess[] = [];
let db: Db | undefined;
let gate = '';
let dataDir = '';

afterAll(async () => {
  if (gate) fs.rmSync(path.join(gate, 'hold'), { force: true });
  await db?.destroy();
});

/** The migration's state as each process answers it. */
async function states(id: number, through = servers): Promise<string[]> {
  return Promise.all(through.map(async (s) => (await ok(s, 'GET', `/user/migrations/${id}`)).state as string));
}

/** How many of the processes' logs say they exported migration `id`. */
function exportedLines(id: number): number {
  const lines = servers.flatMap((s) => s.stdout().split('\n'));
  return lines.filter((l) => l.includes('"msg":"migration exported"') && l.includes(`"migration":${id},`)).length;
}

/** How many times each export job was claimed, in the order the migrations were made. */
async function exportAttempts(): Promise<number[]> {
  const jobs = await db!.selectFrom('jobs').select(['attempts']).where('queue', '=', 'migration-export').orderBy('id').execute();
  return jobs.map((j) => Number(j.attempts));
}

/** Downloads the archive through `s` (the API's redirect to the signed URL followed) and lists it with tar. */
async function downloadAndList(s: ServeProcess, id: number, name: string): Promise<string[]> {
  const res = await fetch(`${s.url}/user/migrations/${id}/archive`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  const file = path.join(p.sandbox.root, `${name}.tar.gz`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  const listed = await run('tar', ['-tzf', file], { maxBuffer: 64 * 1024 * 1024 });
  const dir = path.join(p.sandbox.root, name);
  fs.mkdirSync(dir);
  await run('tar', ['-xzf', file, '-C', dir]);
  await run('git', ['--git-dir', path.join(dir, 'repositories', 'admin', 'exported.git'), 'fsck', '--strict']);
  return listed.stdout.trim().split('\n').sort();
}

beforeAll(async () => {
  const fresh = await p.freshDataDir('shared');
  dataDir = fresh.dir;
  db = connect(fresh.db.url);
  gate = path.join(p.sandbox.root, 'gate');
  fs.mkdirSync(gate);
  const realGit = (await run('sh', ['-c', 'command -v git'])).stdout.trim();
  // hublet runs git with PATH and HOME only: the wrapper knows its gate directory itself.
  fs.writeFileSync(
    path.join(gate, 'git'),
    [
      '#!/bin/sh',
      `if [ "$1" = clone ] && [ -e '${gate}/hold' ]; then`,
      `  echo "$PPID $$" > '${gate}/held.tmp' && mv '${gate}/held.tmp' '${gate}/held'`,
      `  while [ -e '${gate}/hold' ]; do sleep 0.05; done`,
      'fi',
      `exec '${realGit}' "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const args = ['--data', fresh.dir, '--port', '0', ...fresh.args, '--log-level', 'info'];
  const env = { HUBLET_ADMIN_TOKEN: ADMIN_TOKEN, PATH: `${gate}:${process.env.PATH}` };
  servers = await Promise.all([0, 1, 2].map(() => p.serve(args, env, 90_000)));
  await ok(servers[0], 'POST', '/user/repos', { name: 'exported', auto_init: true }, 201);
}, 120_000);

describe('migration exports across processes', () => {
  let uninterrupted: string[] = [];
  let firstGuid = '';

  it('a migration started through one process is exported once, seen by all, and downloaded through another', async () => {
    const [a, b, c] = servers;
    const m = await ok(a, 'POST', '/user/migrations', { repositories: ['admin/exported'] }, 201);
    await eventually('exported through every process', async () =>
      (await states(m.id)).every((s) => s === 'exported') ? true : undefined,
    );
    firstGuid = m.guid;
    expect(fs.readdirSync(path.join(dataDir, 'archives', 'migrations'))).toEqual([`${m.guid}.tar.gz`]);
    expect(await exportAttempts()).toEqual([1]);
    await eventually('the log line written', () => (exportedLines(m.id) > 0 ? true : undefined), 5000);
    expect(exportedLines(m.id)).toBe(1);
    uninterrupted = await downloadAndList(b, m.id, 'first');
    expect(uninterrupted).toContain('repositories_000001.json');
    expect(uninterrupted).toContain('repositories/admin/exported.git/HEAD');
    // The same archive through the third process as well.
    expect(await downloadAndList(c, m.id, 'first-again')).toEqual(uninterrupted);
  }, 60_000);

  it('a process killed mid-export loses nothing: after its lease another exports it, and the archive is whole', async () => {
    fs.writeFileSync(path.join(gate, 'hold'), '');
    const m = await ok(servers[0], 'POST', '/user/migrations', { repositories: ['admin/exported'] }, 201);
    const held = await eventually('an export to start copying', () =>
      fs.existsSync(path.join(gate, 'held')) ? fs.readFileSync(path.join(gate, 'held'), 'utf8') : undefined,
    );
    const [hubletPid, wrapperPid] = held.trim().split(' ').map(Number);
    const holder = servers.find((s) => s.child.pid === hubletPid);
    expect(holder).toBeDefined();
    expect(await states(m.id)).toEqual(['exporting', 'exporting', 'exporting']);

    expect(await holder!.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    process.kill(wrapperPid, 'SIGKILL');
    fs.rmSync(path.join(gate, 'hold'));
    const alive = servers.filter((s) => s !== holder);
    // Still exporting: the dead worker's lease holds the job until it ends.
    expect(await states(m.id, alive)).toEqual(['exporting', 'exporting']);
    const ended = await db!
      .updateTable('jobs')
      .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
      .where('queue', '=', 'migration-export')
      .where('locked_by', 'like', `${hubletPid}-%`)
      .executeTakeFirst();
    expect(Number(ended.numUpdatedRows)).toBe(1);

    await eventually('exported by a surviving process', async () =>
      (await states(m.id, alive)).every((s) => s === 'exported') ? true : undefined,
    );
    await eventually('the log line written', () => (exportedLines(m.id) > 0 ? true : undefined), 5000);
    expect(exportedLines(m.id)).toBe(1);
    // Claimed twice (the dead worker, then the one that finished it); one archive each, no half-written leftovers.
    expect(await exportAttempts()).toEqual([1, 2]);
    expect(fs.readdirSync(path.join(dataDir, 'archives', 'migrations')).sort()).toEqual([`${firstGuid}.tar.gz`, `${m.guid}.tar.gz`].sort());
    expect(await downloadAndList(alive[0], m.id, 'second')).toEqual(uninterrupted);
  }, 90_000);
});
