// `hublet migration download` never loses or mixes up data, locally (in-process, stopped by a signal mid-body) and
// remotely (through a proxy that cuts the connection mid-body, ignores Range or adds a digest): an existing file is
// refused without --clobber and left as it was; a download cut off keeps FILE.part and its record and the next run
// resumes it (If-Range with the recorded ETag) to the archive's exact bytes; a part of another migration, with another
// ETag, or with no record starts from zero; a digest that does not match fails. Also `migration unlock ID OWNER/NAME`
// and the --org hint for a migration not found.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import type { CliResult, Sandbox } from '../helpers/cli.js';
import { fakeIO, runInProcess, type InProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';
import { cliServerWithMonasRepos } from './cli-server.js';
import { authedUrl, git, tar, tempDir, waitForState } from './support.js';

let cli: InProcessCliServer;
let s: TestServer;
let sb: Sandbox;
let mona: { token: string };
/** octo-org's migration of alpha (locked), mona's of big (an archive of many chunks) and of mine. */
let org: { id: number; guid: string };
let big: { id: number; guid: string };
let mine: { id: number; guid: string };
let proxy: Proxy;

/** A repository with one commit holding `size` random bytes (they do not compress: the archive is about as large). */
async function repoWithBigFile(name: string, size: number): Promise<void> {
  const created = await s.api('POST', '/user/repos', { token: mona.token, body: { name } });
  if (created.status !== 201) throw new Error(`create ${name}: ${created.status} ${created.text}`);
  const work = tempDir('hublet-big-');
  try {
    await git(['init', '-q', '-b', 'main'], work);
    fs.writeFileSync(path.join(work, 'noise.bin'), crypto.randomBytes(size));
    await git(['add', '.'], work);
    await git(['commit', '-qm', 'noise'], work);
    await git(['push', '-q', authedUrl(s, mona.token, `mona/${name}`), 'main'], work);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function exported(scope: string, body: Record<string, unknown>): Promise<{ id: number; guid: string }> {
  const r = await s.api('POST', scope, { token: mona.token, body });
  if (r.status !== 201) throw new Error(`start: ${r.status} ${r.text}`);
  const m = await waitForState(s, `${scope}/${r.body.id}`, mona.token);
  if (m.state !== 'exported') throw new Error(`export failed: ${m.failure_reason}`);
  return { id: m.id, guid: m.guid };
}

function archiveOnDisk(guid: string): Buffer {
  return fs.readFileSync(path.join(s.dataDir, 'archives', 'migrations', `${guid}.tar.gz`));
}

/** What a proxy in front of the server saw of one archive request. */
interface Seen {
  range?: string;
  ifRange?: string;
  status: number;
}

/**
 * An HTTP proxy in front of the test server. It rewrites the archive redirect to come back through it, and can cut the
 * next archive response after `cutAfter` bytes of its body (closing the connection), drop Range and If-Range (a server
 * that does not resume), or add headers to archive responses (a digest).
 */
interface Proxy {
  url: string;
  cutAfter?: number;
  stripRange: boolean;
  extraHeaders: Record<string, string>;
  seen: Seen[];
  close(): Promise<void>;
}

async function startProxy(upstream: string): Promise<Proxy> {
  const p: Proxy = { url: '', stripRange: false, extraHeaders: {}, seen: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    const archive = req.url!.startsWith('/storage/migrations/');
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: new URL(upstream).host };
    if (archive && p.stripRange) {
      delete headers.range;
      delete headers['if-range'];
    }
    const up = http.request(`${upstream}${req.url}`, { method: req.method, headers }, (ur) => {
      const out = { ...ur.headers };
      if (out.location) out.location = out.location.replace(upstream, p.url);
      if (archive) {
        Object.assign(out, p.extraHeaders);
        p.seen.push({ range: req.headers.range, ifRange: req.headers['if-range'] as string | undefined, status: ur.statusCode! });
      }
      res.writeHead(ur.statusCode!, out);
      const limit = archive && req.method === 'GET' ? p.cutAfter : undefined;
      if (limit === undefined) {
        ur.pipe(res);
        return;
      }
      p.cutAfter = undefined;
      let sent = 0;
      ur.on('data', (chunk: Buffer) => {
        if (sent >= limit) return;
        const piece = chunk.subarray(0, limit - sent);
        sent += piece.length;
        if (sent < limit) res.write(piece);
        else {
          ur.destroy();
          res.write(piece, () => res.destroy());
        }
      });
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  p.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  p.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return p;
}

beforeAll(async () => {
  ({ cli, mona } = await cliServerWithMonasRepos());
  ({ server: s, sandbox: sb } = cli);
  await repoWithBigFile('big', 1024 * 1024);
  org = await exported('/orgs/octo-org/migrations', { repositories: ['alpha'], lock_repositories: true });
  big = await exported('/user/migrations', { repositories: ['big'] });
  mine = await exported('/user/migrations', { repositories: ['mine'] });
  proxy = await startProxy(s.url);
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await cli?.close();
});
beforeEach(() => {
  proxy.cutAfter = undefined;
  proxy.stripRange = false;
  proxy.extraHeaders = {};
  proxy.seen = [];
});

const local = (args: string[]) => cli.local(['--as', 'mona', ...args]);
/** Remote mode through the proxy. */
const remote = (args: string[]) => runInProcess(['--server', proxy.url, '--token', mona.token, ...args], { env: sb.env });

/** A local download that a SIGINT stops once the first chunk is on disk (when the progress bar is first drawn). */
async function localStopped(args: string[]): Promise<CliResult> {
  const fake = fakeIO({ stderrIsTTY: true });
  let stderr = '';
  const io = {
    ...fake.io,
    stderr: new Writable({
      write(chunk: Buffer, _encoding, done) {
        stderr += chunk.toString();
        if (chunk.toString().includes('] ')) fake.stop('SIGINT');
        done();
      },
    }),
  };
  const code = await run(['node', 'hublet', '--data', s.dataDir, '--database', s.databaseUrl, '--as', 'mona', ...args], io, {
    ...cli.localEnv,
  });
  return { code, signal: null, stdout: fake.stdout(), stderr };
}

const file = (name: string) => path.join(sb.root, name);
const exists = (f: string) => fs.existsSync(f);
const leftovers = (out: string) => [`${out}.part`, `${out}.part.json`].filter(exists);

async function tarList(f: string): Promise<string[]> {
  return (await tar(['-tzf', f], sb.root)).split('\n');
}

describe('hublet migration download (local mode)', { timeout: 120_000 }, () => {
  it('refuses an existing file at -o and leaves it as it was; --clobber replaces it with the archive', async () => {
    const out = file('local-notes.txt');
    fs.writeFileSync(out, 'my notes\n');
    const refused = await local(['migration', 'download', String(org.id), '--org', 'octo-org', '-o', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`hublet: ${out} already exists: pass --clobber to replace it, or -o to save elsewhere\n`);
    expect(fs.readFileSync(out, 'utf8')).toBe('my notes\n');
    expect(leftovers(out)).toEqual([]);

    const replaced = await local(['migration', 'download', String(org.id), '--org', 'octo-org', '-o', out, '--clobber']);
    expect(replaced.stderr).toBe('');
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toMatch(
      new RegExp(`^saved the archive of migration ${org.id} to ${out.replace(/[.]/g, '\\.')} \\([\\d.]+ KB\\)\\n$`),
    );
    expect(fs.readFileSync(out).equals(archiveOnDisk(org.guid))).toBe(true);
    expect(await tarList(out)).toContain('repositories/octo-org/alpha.git/HEAD');
    expect(leftovers(out)).toEqual([]);

    // A complete download is not done again over itself either.
    expect((await local(['migration', 'download', String(org.id), '--org', 'octo-org', '-o', out])).code).toBe(2);
  });

  it('the default file name is in the current directory and refused the same way', async () => {
    const cwd = process.cwd();
    const dir = fs.mkdtempSync(path.join(sb.root, 'cwd-'));
    process.chdir(dir);
    try {
      fs.writeFileSync(`migration_archive_${mine.id}.tar.gz`, 'other server’s archive');
      const refused = await local(['migration', 'download', String(mine.id)]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${path.join(dir, `migration_archive_${mine.id}.tar.gz`)} already exists`);
      expect(fs.readFileSync(`migration_archive_${mine.id}.tar.gz`, 'utf8')).toBe('other server’s archive');
    } finally {
      process.chdir(cwd);
    }
  });

  it('a download stopped mid-body keeps the prefix and its record; the next run resumes it to the same bytes', async () => {
    const out = file('big-local.tar.gz');
    const whole = archiveOnDisk(big.guid);
    const stopped = await localStopped(['migration', 'download', String(big.id), '-o', out]);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('(interrupted by SIGINT); the part is kept in');
    expect(stopped.stderr).toContain('run the same command again to resume');
    expect(exists(out)).toBe(false);
    const part = fs.readFileSync(`${out}.part`);
    expect(part.length).toBeGreaterThan(0);
    expect(part.length).toBeLessThan(whole.length);
    expect(part.equals(whole.subarray(0, part.length))).toBe(true);
    expect(JSON.parse(fs.readFileSync(`${out}.part.json`, 'utf8'))).toMatchObject({ id: big.id, guid: big.guid, size: whole.length });

    const resumed = await local(['--json', 'migration', 'download', String(big.id), '-o', out]);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toEqual({ id: big.id, file: out, size: whole.length, resumed_from: part.length, digest: null });
    expect(fs.readFileSync(out).equals(whole)).toBe(true);
    expect(leftovers(out)).toEqual([]);
  });

  it('a part recorded for another migration starts from zero', async () => {
    const out = file('mixed-local.tar.gz');
    expect((await localStopped(['migration', 'download', String(big.id), '-o', out])).code).toBe(1);
    expect(fs.statSync(`${out}.part`).size).toBeGreaterThan(0);
    const other = await local(['--json', 'migration', 'download', String(org.id), '--org', 'octo-org', '-o', out]);
    expect(other.code).toBe(0);
    expect(other.stderr).toContain(`hublet: starting over: ${out}.part is the start of another archive`);
    expect(JSON.parse(other.stdout)).toMatchObject({ resumed_from: 0 });
    expect(fs.readFileSync(out).equals(archiveOnDisk(org.guid))).toBe(true);
    expect(leftovers(out)).toEqual([]);
  });

  it('a truncated file with no record is not resumed: as FILE it is refused, as FILE.part it starts from zero', async () => {
    const whole = archiveOnDisk(big.guid);
    const out = file('truncated-local.tar.gz');
    fs.writeFileSync(out, whole.subarray(0, 100_000));
    const refused = await local(['migration', 'download', String(big.id), '-o', out]);
    expect(refused.code).toBe(2);
    expect(fs.readFileSync(out).equals(whole.subarray(0, 100_000))).toBe(true);

    const fresh = file('fresh-local.tar.gz');
    fs.writeFileSync(`${fresh}.part`, whole.subarray(0, 100_000));
    const r = await local(['--json', 'migration', 'download', String(big.id), '-o', fresh]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`hublet: starting over: ${fresh}.part has no record of which archive it is the start of`);
    expect(JSON.parse(r.stdout)).toMatchObject({ resumed_from: 0, size: whole.length });
    expect(fs.readFileSync(fresh).equals(whole)).toBe(true);
  });

  it('unlock takes OWNER/NAME and refuses another owner; a migration not found hints at --org', async () => {
    const wrong = await local(['migration', 'unlock', String(org.id), 'mona/alpha', '--org', 'octo-org']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(`hublet: migration ${org.id} is octo-org's: its repositories are octo-org/NAME, not mona/alpha\n`);
    const noOrg = await local(['migration', 'unlock', String(org.id), 'octo-org/alpha']);
    expect(noOrg.code).toBe(1);
    expect(noOrg.stderr).toContain('Not Found');
    expect(noOrg.stderr).toContain(
      `hublet: migration ${org.id} not found for your user; for an organization's migration add --org octo-org\n`,
    );
    // Refused before anything was unlocked: the lock is still there to release.
    const ok = await local(['migration', 'unlock', String(org.id), 'octo-org/alpha', '--org', 'octo-org']);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe(`unlocked octo-org/alpha (migration ${org.id})\n`);

    const status = await local(['migration', 'status', String(org.id)]);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('Not Found');
    expect(status.stderr).toContain(`hublet: migration ${org.id} not found for your user; for an organization's migration add --org ORG\n`);
    const asOrg = await local(['migration', 'status', String(mine.id), '--org', 'octo-org']);
    expect(asOrg.code).toBe(1);
    expect(asOrg.stderr).toContain(
      `hublet: migration ${mine.id} not found for organization octo-org (only its owners see its migrations); for your own user migration leave out --org\n`,
    );
  });
});

describe('hublet migration download (remote mode)', { timeout: 120_000 }, () => {
  it('refuses an existing file at -o and leaves it as it was; --clobber replaces it with the archive', async () => {
    const out = file('remote-notes.txt');
    fs.writeFileSync(out, 'notes');
    const refused = await remote(['migration', 'download', String(mine.id), '-o', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('already exists: pass --clobber');
    expect(fs.readFileSync(out, 'utf8')).toBe('notes');
    expect(proxy.seen).toEqual([]);
    const replaced = await remote(['migration', 'download', String(mine.id), '-o', out, '--clobber']);
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain(`saved the archive of migration ${mine.id} to ${out} (`);
    expect(fs.readFileSync(out).equals(archiveOnDisk(mine.guid))).toBe(true);
    expect(await tarList(out)).toContain('repositories/mona/mine.git/HEAD');
  });

  it('a connection cut mid-body keeps the prefix; the next run sends If-Range with the recorded ETag and resumes to the same bytes', async () => {
    const out = file('cut-remote.tar.gz');
    const whole = archiveOnDisk(org.guid);
    const cut = Math.floor(whole.length / 3);
    proxy.cutAfter = cut;
    const first = await remote(['migration', 'download', String(org.id), '--org', 'octo-org', '-o', out]);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(
      /^hublet: the download of migration \d+'s archive stopped at [\d.]+ (B|KB) of [\d.]+ KB \(other side closed\); the part is kept in .+: run the same command again to resume\n$/,
    );
    expect(exists(out)).toBe(false);
    expect(fs.readFileSync(`${out}.part`).equals(whole.subarray(0, cut))).toBe(true);
    const record = JSON.parse(fs.readFileSync(`${out}.part.json`, 'utf8'));
    expect(record.etag).toMatch(/^".+"$/);

    proxy.seen = [];
    const second = await remote(['migration', 'download', String(org.id), '--org', 'octo-org', '-o', out]);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/\([\d.]+ KB; resumed at [\d.]+ (B|KB)\)\n$/);
    expect(proxy.seen).toEqual([{ range: `bytes=${cut}-`, ifRange: record.etag, status: 206 }]);
    expect(fs.readFileSync(out).equals(whole)).toBe(true);
    expect(await tarList(out)).toContain('repositories/octo-org/alpha.git/HEAD');
    expect(leftovers(out)).toEqual([]);
  });

  it('a record whose ETag is not the archive’s now: the server answers If-Range with 200 and it starts from zero', async () => {
    const out = file('etag-remote.tar.gz');
    const whole = archiveOnDisk(mine.guid);
    proxy.cutAfter = 1000;
    expect((await remote(['migration', 'download', String(mine.id), '-o', out])).code).toBe(1);
    const record = JSON.parse(fs.readFileSync(`${out}.part.json`, 'utf8'));
    fs.writeFileSync(`${out}.part.json`, JSON.stringify({ ...record, etag: '"an-earlier-archive"' }));
    proxy.seen = [];
    const r = await remote(['--json', 'migration', 'download', String(mine.id), '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('hublet: starting over: the server sent the whole archive (it changed since, or does not resume)\n');
    expect(proxy.seen).toEqual([{ range: 'bytes=1000-', ifRange: '"an-earlier-archive"', status: 200 }]);
    expect(JSON.parse(r.stdout)).toMatchObject({ resumed_from: 0, size: whole.length });
    expect(fs.readFileSync(out).equals(whole)).toBe(true);
  });

  it('a server that ignores Range sends the whole archive again: it starts from zero', async () => {
    const out = file('norange-remote.tar.gz');
    proxy.cutAfter = 1000;
    expect((await remote(['migration', 'download', String(mine.id), '-o', out])).code).toBe(1);
    proxy.stripRange = true;
    const r = await remote(['--json', 'migration', 'download', String(mine.id), '-o', out]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ resumed_from: 0 });
    expect(fs.readFileSync(out).equals(archiveOnDisk(mine.guid))).toBe(true);
  });

  it('a part recorded for another migration starts from zero', async () => {
    const out = file('mixed-remote.tar.gz');
    proxy.cutAfter = 1000;
    expect((await remote(['migration', 'download', String(mine.id), '-o', out])).code).toBe(1);
    proxy.seen = [];
    const r = await remote(['--json', 'migration', 'download', String(org.id), '--org', 'octo-org', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('is the start of another archive');
    expect(proxy.seen).toEqual([{ status: 200 }]);
    expect(fs.readFileSync(out).equals(archiveOnDisk(org.guid))).toBe(true);
  });

  it('checks the digest the server sends: a match is said, a mismatch fails and saves nothing', async () => {
    const whole = archiveOnDisk(mine.guid);
    const sha256 = crypto.createHash('sha256').update(whole).digest('base64');
    proxy.extraHeaders = { 'repr-digest': `sha-256=:${sha256}:` };
    const good = file('digest-good.tar.gz');
    const r = await remote(['migration', 'download', String(mine.id), '-o', good]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/; sha-256 checked\)\n$/);

    proxy.extraHeaders = { 'repr-digest': `sha-256=:${crypto.createHash('sha256').update('something else').digest('base64')}:` };
    const bad = file('digest-bad.tar.gz');
    const f = await remote(['migration', 'download', String(mine.id), '-o', bad]);
    expect(f.code).toBe(1);
    expect(f.stderr).toBe(
      `hublet: the archive of migration ${mine.id} does not match the server's sha-256 digest (repr-digest); the download was removed: run the command again\n`,
    );
    expect([bad, ...leftovers(bad)].filter(exists)).toEqual([]);
  });

  it('unlock takes OWNER/NAME; a migration not found hints at --org', async () => {
    const relock = await exported('/orgs/octo-org/migrations', { repositories: ['alpha'], lock_repositories: true });
    const wrong = await remote(['migration', 'unlock', String(relock.id), 'someone/alpha', '--org', 'octo-org']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('its repositories are octo-org/NAME, not someone/alpha');
    const ok = await remote(['migration', 'unlock', String(relock.id), 'octo-org/alpha', '--org', 'octo-org']);
    expect(ok.stdout).toBe(`unlocked octo-org/alpha (migration ${relock.id})\n`);
    const status = await remote(['migration', 'status', String(relock.id)]);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain(
      `hublet: migration ${relock.id} not found for your user; for an organization's migration add --org ORG\n`,
    );
    const download = await remote(['migration', 'download', String(relock.id), '-o', file('nowhere.tar.gz')]);
    expect(download.code).toBe(1);
    expect(download.stderr).toContain("for an organization's migration add --org ORG");
    expect(exists(file('nowhere.tar.gz'))).toBe(false);
  });
});
