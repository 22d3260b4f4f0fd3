// Bench processes: a real `hublet serve` on a fresh data dir, and the baseline, a bare node:http server answering from memory;
// also the stack's reference (stack-server.mjs), a minimal Fastify server reading the same database.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchPostgresDatabase } from '../../test/helpers/database.js';

export interface Served {
  url: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/**
 * The executable to measure: dist/hublet when built (what ships), else bin/hublet through tsx (also with
 * HUBLET_BENCH_BIN=tsx). HUBLET_BENCH_PROFILE=DIR runs bin/hublet under `node --cpu-prof` (Node 20 refuses the flag in
 * NODE_OPTIONS, and the single executable takes no node flags), writing a .cpuprofile into DIR when it stops.
 */
export function hubletCommand(): { cmd: string; args: string[]; label: string } {
  const bin = path.join(root, 'bin', 'hublet');
  const profile = process.env.HUBLET_BENCH_PROFILE;
  if (profile)
    return {
      cmd: process.execPath,
      args: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`, bin],
      label: 'bin/hublet (tsx, --cpu-prof)',
    };
  const dist = path.join(root, 'dist', 'hublet');
  if (fs.existsSync(dist) && process.env.HUBLET_BENCH_BIN !== 'tsx') return { cmd: dist, args: [], label: 'dist/hublet' };
  return { cmd: bin, args: [], label: 'bin/hublet (tsx)' };
}

/**
 * Children still alive, killed when the bench exits; and every data dir made, removed only then. Not when its server
 * stops: this machine's ext4 has no journal, and there each new inode is checked against the recently deleted ones
 * (`recently_deleted` in the kernel's ialloc.c, for 1 to 6 minutes after a delete), so removing one case's hundred
 * thousand files made the next case's file creations several times slower (`perf record` of POST /gists: 45% of the
 * server's time in find_inode_bit and recently_deleted; 848 creates/s on a fresh file system, 190–450 after a case's
 * data dir was removed). A bench that measures its own cleanup measures nothing of hublet.
 */
const live = new Set<ChildProcess>();
const dirs = new Set<string>();

export function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
}

process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
  // HUBLET_BENCH_KEEP_DATA=1 leaves them for later removal (runs back to back, which a removal would slow the same way).
  if (process.env.HUBLET_BENCH_KEEP_DATA === '1') return;
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/** Waits for a line in a log file the child writes (from byte `from` on); returns the pattern's first group. */
async function waitForLog(child: ChildProcess, file: string, from: number, pattern: RegExp, timeoutMs: number): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const text = fs.readFileSync(file).subarray(from).toString();
    const m = pattern.exec(text);
    if (m) return m[1];
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`exited with ${child.exitCode ?? child.signalCode} before ready:\n${text}`);
    if (Date.now() > end) throw new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${text}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        done();
        resolve(m);
      }
    };
    const onErr = (d: Buffer) => (out += d.toString());
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`exited with ${code} before ready:\n${out}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${out}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onErr);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onErr);
    child.once('exit', onExit);
  });
}

/** Stops a child (SIGTERM, then SIGKILL after 10 s) and resolves when it has exited. */
export function stopperOf(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
}

export interface HubletOptions {
  /** A PostgreSQL URL: each server gets a fresh database created beside the one named (dropped on stop). */
  database?: string;
  env?: Record<string, string>;
  /** Server processes on the one data dir and database (PostgreSQL only beyond 1): an installation of several. */
  processes?: number;
}

export interface HubletServer extends Served {
  /** Every process's URL (the first is `url`): load meant for the whole installation is spread over them. */
  urls: string[];
  adminToken: string;
  dataDir: string;
  /** Where the server's database is: the SQLite file in the data dir, or the PostgreSQL URL. */
  databaseUrl: string;
  /** Stops the process and starts it again on the same data dir and database (url and pid change). */
  restart(): Promise<void>;
}

export async function startHublet(opts: HubletOptions = {}): Promise<HubletServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-bench-'));
  dirs.add(dataDir);
  const adminToken = `hlp_bench${Math.random().toString(36).slice(2)}`;
  // A fresh database for each server on the PostgreSQL server the URL names; SQLite lives in the data dir.
  const pgDb = opts.database ? await scratchPostgresDatabase(opts.database, 'hublet_bench') : undefined;
  const databaseUrl = pgDb?.url ?? path.join(dataDir, 'hublet.sqlite');
  const { cmd, args } = hubletCommand();
  const processes = opts.processes ?? 1;
  if (processes > 1 && !pgDb) throw new Error('several server processes need PostgreSQL (--database)');
  // Each process logs at its default level (info: a line per request, as deployed) into a file, as a service would.
  const launch = async (n: number) => {
    const logFile = path.join(dataDir, n === 0 ? 'serve.log' : `serve-${n + 1}.log`);
    const from = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    const log = fs.openSync(logFile, 'a');
    const child = spawn(cmd, [...args, '--data', dataDir, '--database', databaseUrl, 'serve', '--port', '0'], {
      env: {
        ...process.env,
        HUBLET_ADMIN_TOKEN: adminToken,
        HUBLET_RATE_LIMIT: '10000000',
        HUBLET_RATE_LIMIT_ANONYMOUS: '10000000',
        XDG_CACHE_HOME: path.join(os.tmpdir(), 'hublet-bench-cache'),
        ...opts.env,
      },
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    track(child);
    const url = await waitForLog(child, logFile, from, /hublet listening on (http:\/\/\S+)/, 60_000);
    return { child, url };
  };
  // Several processes start at the same moment, as a deployment's would (start-up is race-free: migrate.ts).
  const launchAll = () => Promise.all(Array.from({ length: processes }, (_, n) => launch(n)));
  let all = await launchAll();
  const stopAll = () => Promise.all(all.map((p) => stopperOf(p.child)()));
  const server: HubletServer = {
    url: all[0].url,
    urls: all.map((p) => p.url),
    pid: all[0].child.pid!,
    child: all[0].child,
    adminToken,
    dataDir,
    databaseUrl,
    async restart() {
      await stopAll();
      all = await launchAll();
      server.url = all[0].url;
      server.urls = all.map((p) => p.url);
      server.pid = all[0].child.pid!;
      server.child = all[0].child;
    },
    stop: async () => {
      await stopAll();
      await pgDb?.drop();
      // The data dir stays until the bench exits (see `dirs`).
    },
  };
  return server;
}

/**
 * The baseline: node:http in its own process answering every request with the given bytes: the body and the headers
 * hublet sent with it (rate-limit, version, ETag, …), so both put the same bytes on the wire.
 */
export async function startBaseline(body: Buffer, headers: Record<string, string>): Promise<Served> {
  const script = `
    const http = require('node:http');
    const headers = JSON.parse(process.env.BASELINE_HEADERS);
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', () => {
      const body = Buffer.concat(chunks);
      headers['content-length'] = body.length;
      const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, headers);
          res.end(body);
        });
      });
      server.keepAliveTimeout = 60000;
      server.listen(0, '127.0.0.1', () => console.log('baseline listening on http://127.0.0.1:' + server.address().port));
    });`;
  const child = spawn(process.execPath, ['-e', script], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, BASELINE_HEADERS: JSON.stringify(headers) },
  });
  track(child);
  child.stdin!.end(body);
  const m = await waitForLine(child, /baseline listening on (http:\/\/\S+)/, 10_000);
  return { url: m[1], pid: child.pid!, child, stop: stopperOf(child) };
}

/**
 * The stack's reference (stack-server.mjs): a minimal Fastify server doing the read of hublet's authenticated
 * GET /users/{username} on the database of the server under test (its SQLite file read-only, or its PostgreSQL database).
 */
export async function startStackServer(databaseUrl: string): Promise<Served> {
  const script = fileURLToPath(new URL('./stack-server.mjs', import.meta.url));
  const profile = process.env.HUBLET_BENCH_PROFILE;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`] : [];
  const child = spawn(process.execPath, [...flags, script, databaseUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  const m = await waitForLine(child, /stack server listening on (http:\/\/\S+)/, 30_000);
  return { url: m[1], pid: child.pid!, child, stop: stopperOf(child) };
}

/** Peak resident memory of a process so far, in MiB (VmHWM). */
export function peakRssMiB(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}
