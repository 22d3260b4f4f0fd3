// Bench processes: a real `hublet serve` on a fresh data dir, and the baseline, a bare node:http server answering from memory.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Served {
  url: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface HubletServer extends Served {
  adminToken: string;
  dataDir: string;
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** The executable to measure: dist/hublet when built (what ships), else bin/hublet through tsx. */
export function hubletCommand(): { cmd: string; args: string[]; label: string } {
  const dist = path.join(root, 'dist', 'hublet');
  if (fs.existsSync(dist)) return { cmd: dist, args: [], label: 'dist/hublet' };
  return { cmd: path.join(root, 'bin', 'hublet'), args: [], label: 'bin/hublet (tsx)' };
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${out}`)), timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`exited with ${code} before ready:\n${out}`)));
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
}

export async function startHublet(opts: { database?: string; env?: Record<string, string> } = {}): Promise<HubletServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-bench-'));
  const adminToken = `hlp_bench${Math.random().toString(36).slice(2)}`;
  const { cmd, args } = hubletCommand();
  const child = spawn(cmd, [...args, '--data', dataDir, ...(opts.database ? ['--database', opts.database] : []), 'serve', '--port', '0', '--log-level', 'warn'], {
    env: {
      ...process.env,
      HUBLET_ADMIN_TOKEN: adminToken,
      HUBLET_RATE_LIMIT: '10000000',
      HUBLET_RATE_LIMIT_ANONYMOUS: '10000000',
      XDG_CACHE_HOME: path.join(dataDir, 'cache'),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const m = await waitForLine(child, /hublet listening on (http:\/\/\S+)/, 60_000);
  const stop = stopper(child);
  return {
    url: m[1],
    pid: child.pid!,
    child,
    adminToken,
    dataDir,
    stop: async () => {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The baseline: node:http in its own process answering every request with the given bytes. */
export async function startBaseline(body: Buffer, contentType: string): Promise<Served> {
  const script = `
    const http = require('node:http');
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', () => {
      const body = Buffer.concat(chunks);
      const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': ${JSON.stringify(contentType)}, 'content-length': body.length });
          res.end(body);
        });
      });
      server.keepAliveTimeout = 60000;
      server.listen(0, '127.0.0.1', () => console.log('baseline listening on http://127.0.0.1:' + server.address().port));
    });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(body);
  const m = await waitForLine(child, /baseline listening on (http:\/\/\S+)/, 10_000);
  return { url: m[1], pid: child.pid!, child, stop: stopper(child) };
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
