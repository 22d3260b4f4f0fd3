// deploy/nginx.conf in front of two hublet apps on one database and data dir (nginx from Debian, as .ci/run installs
// it): the config is accepted as written (only its ports moved to free ones), the API, git clone and a large chunked
// push go through, requests spread over both, health checks pass through unlogged, and one app stopping is covered by
// the other.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { startServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p)) ?? 'nginx';
const CONF = fileURLToPath(new URL('../../deploy/nginx.conf', import.meta.url));

let server: TestServer;
let second: FastifyInstance;
let secondPort: number;
let nginx: ChildProcess;
let base: string;
let tmp: string;
let token: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** deploy/nginx.conf with its upstream servers and listen port replaced, nothing else. */
function siteConfig(upstreams: number[], listen: number): string {
  const text = fs.readFileSync(CONF, 'utf8');
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=3 fail_timeout=10s;`).join('\n');
  const replaced = text
    .replace(/(?:^ {4}server 127\.0\.0\.1:\d+ [^\n]*\n)+/m, `${servers}\n`)
    .replace(/^ {4}listen 80;\n {4}listen \[::\]:80;\n/m, `    listen 127.0.0.1:${listen};\n`);
  expect(replaced).not.toBe(text);
  expect(replaced).toContain(`listen 127.0.0.1:${listen};`);
  return replaced;
}

async function git(args: string[], cwd: string): Promise<string> {
  const env = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'M',
    GIT_AUTHOR_EMAIL: 'm@e',
    GIT_COMMITTER_NAME: 'M',
    GIT_COMMITTER_EMAIL: 'm@e',
  };
  return (await run('git', args, { cwd, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
}

beforeAll(async () => {
  server = await startServer();
  // A second app on the same database and data dir: a second process as the deployment guide runs them.
  second = await buildApp({ config: server.app.hublet.config, db: server.db });
  await second.listen({ host: '127.0.0.1', port: 0 });
  secondPort = (second.server.address() as net.AddressInfo).port;
  const firstPort = Number(new URL(server.url).port);

  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-nginx-'));
  const listen = await freePort();
  fs.writeFileSync(path.join(tmp, 'hublet.conf'), siteConfig([firstPort, secondPort], listen));
  const main = [
    'daemon off;',
    'worker_processes 1;',
    `pid ${tmp}/nginx.pid;`,
    `error_log ${tmp}/error.log;`,
    'events { worker_connections 256; }',
    'http {',
    "  log_format upstream '$upstream_addr';",
    `  access_log ${tmp}/access.log upstream;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${tmp}/${t};`),
    `  include ${tmp}/hublet.conf;`,
    '}',
  ].join('\n');
  fs.writeFileSync(path.join(tmp, 'nginx.conf'), main);
  await run(NGINX, ['-t', '-p', tmp, '-c', path.join(tmp, 'nginx.conf')]);
  nginx = spawn(NGINX, ['-p', tmp, '-c', path.join(tmp, 'nginx.conf')], { stdio: 'ignore' });
  base = `http://127.0.0.1:${listen}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await fetch(`${base}/meta`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer: ${fs.readFileSync(path.join(tmp, 'error.log'), 'utf8')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  token = (await server.userWithToken('mona', ['gist', 'repo'])).token;
});

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((r) => nginx.once('exit', r));
    nginx.kill('SIGQUIT');
    await exited;
  }
  await second?.close();
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('deploy/nginx.conf', () => {
  it('passes the API through to both apps: a gist made through one is read through the other', async () => {
    const created = await fetch(`${base}/gists`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ public: true, files: { 'a.md': { content: 'through nginx' } } }),
    });
    expect(created.status).toBe(201);
    const gist = await created.json();
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`${base}/gists/${gist.id}`);
      expect(r.status).toBe(200);
      expect((await r.json()).files['a.md'].content).toBe('through nginx');
    }
    // Both apps answered (nginx's round robin): the access log names the upstream of each request.
    const upstreams = new Set(
      fs
        .readFileSync(path.join(tmp, 'access.log'), 'utf8')
        .split(/[\s,]+/)
        .filter(Boolean),
    );
    expect([...upstreams].sort()).toEqual([`127.0.0.1:${new URL(server.url).port}`, `127.0.0.1:${secondPort}`].sort());
    const clone = path.join(tmp, 'gist-clone');
    await git(['clone', '-q', `${base}/gist/${gist.id}.git`, clone], tmp);
    expect(fs.readFileSync(path.join(clone, 'a.md'), 'utf8')).toBe('through nginx');
  });

  it('passes a large chunked git push (12 MiB, Transfer-Encoding: chunked) and its clone back', async () => {
    expect((await server.api('POST', '/user/repos', { token, body: { name: 'big' } })).status).toBe(201);
    const work = path.join(tmp, 'big');
    fs.mkdirSync(work);
    await git(['init', '-q', '-b', 'main'], work);
    const blob = crypto.randomBytes(12 * 1024 * 1024);
    fs.writeFileSync(path.join(work, 'noise.bin'), blob);
    await git(['add', '.'], work);
    await git(['commit', '-qm', 'noise'], work);
    const url = new URL(`${base}/mona/big.git`);
    url.username = 'x';
    url.password = token;
    // A small postBuffer makes git send the pack with Transfer-Encoding: chunked.
    await git(['-c', 'http.postBuffer=65536', 'push', '-q', url.toString(), 'main'], work);
    const back = path.join(tmp, 'big-clone');
    await git(['clone', '-q', url.toString(), back], tmp);
    expect(fs.readFileSync(path.join(back, 'noise.bin')).equals(blob)).toBe(true);
  }, 120_000);

  it('passes the health checks through unlogged; a process whose ready fails (stopping) is passed over', async () => {
    const logged = () => fs.readFileSync(path.join(tmp, 'access.log'), 'utf8');
    const before = logged();
    for (const p of ['/_health/live', '/_health/ready', '/_health/ready']) {
      const r = await fetch(`${base}${p}`);
      expect(r.status).toBe(200);
      expect((await r.json()).status).toBe('pass');
    }
    // The second app stops (its ready answers 503): through nginx ready still passes, answered by the first.
    second.readiness.stop('SIGTERM');
    expect((await second.inject({ method: 'GET', url: '/_health/ready' })).statusCode).toBe(503);
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`${base}/_health/ready`);
      expect(r.status).toBe(200);
      expect((await r.json()).status).toBe('pass');
    }
    expect(logged()).toBe(before);
  });

  it('sends requests to the other app while one is stopped', async () => {
    await second.close();
    for (let i = 0; i < 6; i++) expect((await fetch(`${base}/meta`)).status).toBe(200);
  });
});
