// `hublet migration …` in-process against a fake I/O, locally (the export runs in the CLI) and remotely: start, status,
// list, repos, download, unlock, delete-archive; and the executable drawing its progress bar on a terminal. (What a
// download keeps, refuses and resumes: cli-download.test.ts.)
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, type CliServer, type Sandbox } from '../helpers/cli.js';
import { runInProcess as runCli } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';
import { cliServerWithMonasRepos } from './cli-server.js';
import { tar } from './support.js';

let cli: CliServer;
let s: TestServer;
let sb: Sandbox;
let mona: { token: string };

beforeAll(async () => {
  ({ cli, mona } = await cliServerWithMonasRepos());
  ({ server: s, sandbox: sb } = cli);
});
afterAll(async () => {
  await cli?.close();
});

const local = (args: string[]) => cli.local(['--as', 'mona', ...args]);
const remote = (args: string[]) => cli.remote(mona.token, args);

function archiveOnDisk(guid: string): Buffer {
  return fs.readFileSync(path.join(s.dataDir, 'archives', 'migrations', `${guid}.tar.gz`));
}

describe('hublet migration (local mode)', { timeout: 120_000 }, () => {
  let id: number;
  let guid: string;

  it('start --org … --lock --wait runs the export in-process and prints the exported migration', async () => {
    const r = await local(['--json', 'migration', 'start', '--org', 'octo-org', 'alpha', '--lock', '--wait']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout);
    expect(m).toMatchObject({ state: 'exported', lock_repositories: true, owner: { login: 'octo-org' } });
    expect(m.repositories.map((x: { full_name: string }) => x.full_name)).toEqual(['octo-org/alpha']);
    id = m.id;
    guid = m.guid;
  });

  it('status, list and repos show it, as text and JSON', async () => {
    const status = await local(['migration', 'status', String(id), '--org', 'octo-org']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`migration ${id} (octo-org): exported`);
    expect(status.stdout).toContain('repositories: octo-org/alpha');
    expect(status.stdout).toContain('flags: lock_repositories');
    const list = await local(['migration', 'list', '--org', 'octo-org']);
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+STATE\s+REPOSITORIES\s+CREATED$/);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+exported\\s+octo-org/alpha\\s+`, 'm'));
    const repos = await local(['--json', 'migration', 'repos', String(id), '--org', 'octo-org']);
    expect(JSON.parse(repos.stdout).map((x: { full_name: string }) => x.full_name)).toEqual(['octo-org/alpha']);
  });

  it('download saves the archive and says where (resuming is test/migrations/cli-download.test.ts)', async () => {
    const file = path.join(sb.root, 'local.tar.gz');
    const first = await local(['migration', 'download', String(id), '--org', 'octo-org', '-o', file]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^saved the archive of migration ${id} to ${file.replace(/[.]/g, '\\.')} \\([\\d.]+ KB\\)\n$`));
    expect(fs.readFileSync(file).equals(archiveOnDisk(guid))).toBe(true);
  });

  it('unlock and delete-archive; a second unlock and a download after deletion fail with the API error', async () => {
    expect((await local(['migration', 'unlock', String(id), 'alpha', '--org', 'octo-org'])).stdout).toBe(
      `unlocked alpha (migration ${id})\n`,
    );
    const again = await local(['migration', 'unlock', String(id), 'alpha', '--org', 'octo-org']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('"status": "404"');
    expect((await local(['migration', 'delete-archive', String(id), '--org', 'octo-org'])).stdout).toBe(
      `deleted the archive of migration ${id}\n`,
    );
    const gone = await local(['migration', 'download', String(id), '--org', 'octo-org', '-o', path.join(sb.root, 'gone.tar.gz')]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('Not Found');
  });

  it('refuses bad usage with exit 2, before opening the data dir', async () => {
    const untouched = path.join(sb.root, 'untouched');
    const both = await runCli(['--data', untouched, 'migration', 'start', 'alpha', '--org', 'octo-org', '--user'], { env: sb.env });
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('hublet: --org ORG and --user name different owners: give one of them (or neither, for --user)\n');
    const badId = await runCli(['--data', untouched, 'migration', 'status', 'abc'], { env: sb.env });
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('expected a migration id');
    expect(fs.existsSync(untouched)).toBe(false);
  });
});

describe('hublet migration (remote mode)', { timeout: 120_000 }, () => {
  it('start --user --wait polls the server until exported; download over HTTP; an existing file is not replaced', async () => {
    const r = await remote(['--json', 'migration', 'start', '--user', 'mine', '--wait']);
    expect(r.stderr).toBe('');
    const m = JSON.parse(r.stdout);
    expect(m).toMatchObject({ state: 'exported', owner: { login: 'mona' } });
    const file = path.join(sb.root, 'remote.tar.gz');
    const whole = archiveOnDisk(m.guid);
    const d = await remote(['migration', 'download', String(m.id), '-o', file]);
    expect(d.code).toBe(0);
    expect(d.stdout).toBe(`saved the archive of migration ${m.id} to ${file} (${(whole.length / 1024).toFixed(1)} KB)\n`);
    expect(fs.readFileSync(file).equals(whole)).toBe(true);
    expect((await tar(['-tzf', file], sb.root)).split('\n')).toContain('repositories/mona/mine.git/HEAD');
    const again = await remote(['migration', 'download', String(m.id), '-o', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists: pass --clobber');
    const list = await remote(['--json', 'migration', 'list']);
    expect(JSON.parse(list.stdout).map((x: { id: number }) => x.id)).toContain(m.id);
  });

  it("start without --org is a user migration; naming an organization's repository says to add --org", async () => {
    const user = await remote(['--json', 'migration', 'start', 'mine']);
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout)).toMatchObject({ owner: { login: 'mona' } });
    const org = await remote(['migration', 'start', 'octo-org/alpha']);
    expect(org.code).toBe(1);
    expect(org.stderr).toContain('octo-org/alpha is not a repository of mona');
    expect(org.stderr).toContain("hublet: without --org this is a migration of your own repositories; for octo-org's add --org octo-org\n");
  });

  it('draws a progress bar with bytes and rate on a terminal', async () => {
    const m = JSON.parse((await remote(['--json', 'migration', 'start', '--user', 'mine', '--wait'])).stdout);
    const file = path.join(sb.root, 'tty.tar.gz');
    const cmd = [BIN, '--server', s.url, '--token', mona.token, 'migration', 'download', String(m.id), '-o', file]
      .map((a) => `'${a}'`)
      .join(' ');
    const { stdout } = await promisify(execFile)('script', ['-qec', cmd, '/dev/null'], {
      cwd: ROOT,
      env: { ...sb.env } as NodeJS.ProcessEnv,
    });
    expect(stdout).toMatch(/\[#{30}\] [\d.]+ KB \/ [\d.]+ KB\s+[\d.]+ (B|KB|MB)\/s/);
    expect(fs.readFileSync(file).equals(archiveOnDisk(m.guid))).toBe(true);
  });
});
