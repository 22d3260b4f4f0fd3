// Backups at their edges: one killed midway leaves nothing restore accepts (and the next backup clears it away); a gist
// and a repository deleted between the snapshot and their copy are left out and their rows deleted by restore; what
// restore refuses, each with its exit code and message (a non-empty target, a tampered, missing, cut or newer manifest,
// damaged data, the wrong kind of database); and restore --from a folder of backups takes the newest complete one.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, sandbox, type Sandbox } from '../helpers/cli.js';
import { runBackup } from '../../src/cli/commands/admin/backup.js';
import { runRestore } from '../../src/cli/commands/admin/restore.js';
import { fakeIO, runInProcess } from '../helpers/cli-inprocess.js';
import { onPostgres, scratchPostgresDatabase, type TestDatabase } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 120_000 });

let s: TestServer;
let sb: Sandbox;
/** An empty database for restores on PostgreSQL (refused restores leave it empty; the last test fills it). */
let target: TestDatabase | undefined;
let good: string;

const live = () => ['--data', s.dataDir, '--database', s.databaseUrl];
const cli = (args: string[], extraEnv: Record<string, string> = {}) => runInProcess(args, { env: sb.env, extraEnv });
/** `admin restore --from FROM` into `dir` (and the empty database on PostgreSQL). */
const restore = (from: string, dir: string) =>
  cli(['admin', 'restore', '--from', from, '--data', dir, ...(target ? ['--database', target.url] : [])]);
const fresh = (name: string) => path.join(sb.root, name);
/** A copy of the good backup to damage. */
function copyOfGood(name: string): string {
  const dir = fresh(name);
  fs.cpSync(good, dir, { recursive: true });
  return dir;
}
const editManifest = (dir: string, edit: (m: any) => void) => {
  const file = path.join(dir, 'manifest.json');
  const m = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(m);
  fs.writeFileSync(file, JSON.stringify(m, null, 2));
};

beforeAll(async () => {
  s = await startServer();
  sb = sandbox();
  if (onPostgres) target = await scratchPostgresDatabase(process.env.HUBLET_TEST_DATABASE_URL!, 'hublet_restore');
  const gist = await s.api('POST', '/gists', { token: s.adminToken, body: { files: { 'a.txt': { content: 'a\n' } } } });
  expect(gist.status).toBe(201);
  expect((await s.api('POST', '/user/repos', { token: s.adminToken, body: { name: 'kept', auto_init: true } })).status).toBe(201);
  const r = await cli([...live(), 'admin', 'backup', '--to', fresh('backups')]);
  expect(r.code, r.stderr).toBe(0);
  good = /^backup written to (\S+): /.exec(r.stdout)![1];
});
afterAll(async () => {
  await s?.close();
  await target?.drop();
  sb?.cleanup();
});

/** `admin backup --to TO` as a child process, once it says it paused at `stage` (resumed when `resume` exists). */
async function pausedBackup(to: string, stage: 'after-snapshot' | 'before-manifest', resume?: string) {
  const child = spawn(BIN, [...live(), 'admin', 'backup', '--to', to], {
    env: { ...sb.env, HUBLET_TEST_BACKUP_PAUSE: stage, ...(resume ? { HUBLET_TEST_BACKUP_RESUME: resume } : {}) } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  await new Promise<void>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (stderr.includes(`paused ${stage.replace('-', ' ')}`)) resolve();
    });
    void exited.then(() => reject(new Error(`backup exited before pausing: ${stderr}`)));
  });
  return { child, exited };
}

describe('a backup killed midway', () => {
  it('leaves only a .partial- folder, which restore refuses (exit 1) and the next backup removes', async () => {
    const to = fresh('killed');
    const { child, exited } = await pausedBackup(to, 'before-manifest');
    child.kill('SIGKILL');
    expect((await exited).signal).toBe('SIGKILL');
    const [partial, ...others] = fs.readdirSync(to);
    expect(others).toEqual([]);
    expect(partial).toMatch(/^\.partial-/);
    // Everything but the manifest is there; still nothing restore accepts.
    expect(fs.existsSync(path.join(to, partial, 'git'))).toBe(true);

    const fromFolder = await restore(to, fresh('from-killed'));
    expect(fromFolder.code).toBe(1);
    expect(fromFolder.stderr).toBe(
      `hublet: admin restore: no complete backup in ${to} (${partial}: a backup that did not finish, which cannot be restored)\n`,
    );
    const fromPartial = await restore(path.join(to, partial), fresh('from-killed'));
    expect(fromPartial.code).toBe(1);
    expect(fromPartial.stderr).toMatch(/is not a complete backup: it has no manifest\.json/);
    expect(fs.existsSync(fresh('from-killed'))).toBe(false);

    const next = await cli([...live(), 'admin', 'backup', '--to', to]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toBe(`removed ${path.join(to, partial)}, a backup that did not finish\n`);
    const [done, ...rest] = fs.readdirSync(to);
    expect(rest).toEqual([]);
    expect(next.stdout).toContain(`backup written to ${path.join(to, done)}: 1 gists, 1 repositories`);
  });
});

describe('a gist and a repository deleted between the snapshot and their copy', () => {
  it('are left out of the backup, and restore deletes their rows: the restored installation is whole', async () => {
    const gist = await s.api('POST', '/gists', { token: s.adminToken, body: { files: { 'doomed.txt': { content: 'x\n' } } } });
    const repo = await s.api('POST', '/user/repos', { token: s.adminToken, body: { name: 'doomed', auto_init: true } });
    expect([gist.status, repo.status]).toEqual([201, 201]);
    const resume = fresh('resume');
    const { exited } = await pausedBackup(fresh('racing'), 'after-snapshot', resume);
    expect((await s.api('DELETE', `/gists/${gist.body.id}`, { token: s.adminToken })).status).toBe(204);
    expect((await s.api('DELETE', '/repos/admin/doomed', { token: s.adminToken })).status).toBe(204);
    fs.writeFileSync(resume, '');
    const done = await exited;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain('note: deleted while the backup ran, left out: 1 gists, 1 repositories, 0 archives\n');
    const dir = /^backup written to (\S+): 1 gists, 1 repositories/.exec(done.stdout)![1];
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.deleted_during_backup).toEqual({ gists: [gist.body.id], repositories: [repo.body.id], archives: [] });

    const into = onPostgres ? await scratchPostgresDatabase(process.env.HUBLET_TEST_DATABASE_URL!, 'hublet_restore') : undefined;
    try {
      const args = ['--data', fresh('racing-restored'), ...(into ? ['--database', into.url] : [])];
      const r = await cli(['admin', 'restore', '--from', dir, ...args]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('deleted 1 gists and 1 repositories that were deleted while the backup ran\n');
      const fsck = await cli([...args, 'admin', 'fsck']);
      expect({ code: fsck.code, stdout: fsck.stdout }).toEqual({ code: 0, stdout: 'checked 1 gists and 1 repositories: no problems\n' });
    } finally {
      await into?.drop();
    }
  });
});

describe('a gist whose repository was missing before the backup began', () => {
  it('is backed up as it is, with a note, and not taken for a deletion', async () => {
    const gist = await s.api('POST', '/gists', { token: s.adminToken, body: { files: { 'lost.txt': { content: 'x\n' } } } });
    expect(gist.status).toBe(201);
    fs.rmSync(path.join(s.dataDir, 'git', 'gists', `${gist.body.id}.git`), { recursive: true });
    try {
      const r = await cli([...live(), 'admin', 'backup', '--to', fresh('broken')]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(
        `note: gist ${gist.body.id}: its repository is missing from the data dir (admin fsck reports it); backed up without it\n`,
      );
      const dir = /^backup written to (\S+): /.exec(r.stdout)![1];
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).deleted_during_backup.gists).toEqual([]);
    } finally {
      expect((await s.api('DELETE', `/gists/${gist.body.id}`, { token: s.adminToken })).status).toBe(204);
    }
  });
});

describe('admin restore refuses', () => {
  it('a data dir that is not empty, a --from that does not exist, no --data (exit 2)', async () => {
    const full = fresh('full');
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, 'notes.txt'), 'mine\n');
    const r = await restore(good, full);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`hublet: admin restore: --data ${full} is not empty (notes.txt); restore into a new or empty directory\n`);
    expect(fs.readdirSync(full)).toEqual(['notes.txt']);

    const missing = await restore(fresh('nowhere'), fresh('t1'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`hublet: admin restore: --from ${fresh('nowhere')}: no such directory\n`);
    const noData = await cli(['admin', 'restore', '--from', good]);
    expect(noData.code).toBe(2);
    expect(noData.stderr).toMatch(/needs --data NEWDIR/);
  });

  it('a manifest that was edited, is missing, is not JSON, or is of a newer format (exit 1)', async () => {
    const edited = copyOfGood('edited');
    editManifest(edited, (m) => (m.gists += 1));
    const missing = copyOfGood('no-manifest');
    fs.rmSync(path.join(missing, 'manifest.json'));
    const cut = copyOfGood('cut-manifest');
    fs.writeFileSync(path.join(cut, 'manifest.json'), fs.readFileSync(path.join(good, 'manifest.json'), 'utf8').slice(0, 100));
    const newer = copyOfGood('newer');
    editManifest(newer, (m) => {
      m.format_version = 2;
      m.hublet_version = '9.0.0';
    });
    const expected: [string, RegExp][] = [
      [edited, /manifest\.json does not match its checksum: it was changed or damaged; refusing to restore from it/],
      [missing, /is not a complete backup: it has no manifest\.json/],
      [cut, /manifest\.json is damaged \(not JSON\)/],
      [newer, /was made by a newer hublet \(9\.0\.0, backup format 2\); this hublet reads format 1/],
    ];
    for (const [dir, message] of expected) {
      const r = await restore(dir, fresh('t2'));
      expect(r.code, dir).toBe(1);
      expect(r.stderr, dir).toMatch(message);
      expect(fs.existsSync(fresh('t2')), dir).toBe(false);
    }
  });

  it('damaged data: a git object gone, a database dump changed (exit 1, nothing left behind)', async () => {
    const lost = copyOfGood('lost-object');
    const objects = path.join(lost, 'git', 'repos', fs.readdirSync(path.join(lost, 'git', 'repos'))[0], 'objects');
    const fanout = fs.readdirSync(objects).find((d) => /^[0-9a-f]{2}$/.test(d))!;
    fs.rmSync(path.join(objects, fanout, fs.readdirSync(path.join(objects, fanout))[0]));
    const r = await restore(lost, fresh('t3'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the backup is damaged: its git data has \d+ files \(\d+ bytes\), its manifest says \d+ \(\d+ bytes\)/);
    expect(fs.existsSync(fresh('t3'))).toBe(false);

    const changed = copyOfGood('changed-dump');
    const dump = onPostgres ? 'database.pgdump' : 'database.sqlite';
    fs.appendFileSync(path.join(changed, dump), 'x');
    const d = await restore(changed, fresh('t3'));
    expect(d.code).toBe(1);
    expect(d.stderr).toBe(
      `hublet: admin restore: the backup is damaged: ${dump} is not the file its manifest names (size or SHA-256 differ)\n`,
    );
    expect(fs.existsSync(fresh('t3'))).toBe(false);
  });

  it('the other kind of database, or a database that is not empty (exit 2)', async () => {
    if (onPostgres) {
      const none = await cli(['admin', 'restore', '--from', good, '--data', fresh('t4')]);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(
        /is a backup of a PostgreSQL database: give --database postgres:\/\/… naming an existing, empty database/,
      );
      const full = await cli(['admin', 'restore', '--from', good, '--data', fresh('t4'), '--database', s.databaseUrl]);
      expect(full.code).toBe(2);
      expect(full.stderr).toMatch(/is not empty \(it has \d+ tables, sequences or indexes\); restore into a new, empty database/);
    } else {
      const pg = await cli(['admin', 'restore', '--from', good, '--data', fresh('t4'), '--database', 'postgres://nobody@127.0.0.1:1/none']);
      expect(pg.code).toBe(2);
      expect(pg.stderr).toMatch(/is a backup of a SQLite database: restore it into SQLite/);
      const taken = fresh('taken.sqlite');
      fs.writeFileSync(taken, 'something');
      const full = await cli(['admin', 'restore', '--from', good, '--data', fresh('t4'), '--database', taken]);
      expect(full.code).toBe(2);
      expect(full.stderr).toMatch(/the database file .*taken\.sqlite exists and is not empty/);
    }
    expect(fs.existsSync(fresh('t4'))).toBe(false);
  });
});

describe('admin backup refuses', () => {
  it('remote mode, a data dir without a hublet database, a database with the wrong data dir (exit 2)', async () => {
    const remote = await cli(['--server', s.url, 'admin', 'backup', '--to', fresh('nope')]);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/has no remote mode/);
    const empty = fresh('empty-data');
    fs.mkdirSync(empty);
    const args = target ? ['--data', empty, '--database', target.url] : ['--data', empty];
    const r = await cli([...args, 'admin', 'backup', '--to', fresh('nope')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hublet: admin backup: no hublet database/);
    // The servers' database with another data dir: nothing of its git data there, refused rather than left out.
    const wrong = await cli(['--data', empty, '--database', s.databaseUrl, 'admin', 'backup', '--to', fresh('nope')]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /the data dir .*empty-data has no git data, but the database names \d+ gists and \d+ repositories: give --data/,
    );
    expect(fs.readdirSync(fresh('nope'))).toEqual([]);
  });
});

describe('admin restore --from a folder of backups', () => {
  it('takes the newest complete one (the run functions, as scripts call them with --json)', async () => {
    const folder = path.dirname(good);
    const backupIO = fakeIO();
    await runBackup(
      { data: s.dataDir, database: s.databaseUrl, to: folder, includeSecretKey: false, keep: 1, json: true, env: {} },
      backupIO.io,
    );
    const newer = JSON.parse(backupIO.stdout());
    expect(newer.removed).toEqual([good]);
    expect(newer.manifest).toMatchObject({ format: 'hublet-backup', format_version: 1, gists: 1, repositories: 1, secret_key: null });
    expect(backupIO.stderr()).toBe(`removed ${good} (--keep 1)\n`);
    const restoreIO = fakeIO();
    const into = fresh('restored');
    await runRestore({ from: folder, data: into, database: target?.url, json: true, env: {} }, restoreIO.io);
    expect(JSON.parse(restoreIO.stdout())).toMatchObject({
      backup: newer.dir,
      data_dir: into,
      manifest: { checksum: newer.manifest.checksum },
    });
    expect(restoreIO.stderr()).toMatch(/^note: the backup holds no secret key/);
  });
});
