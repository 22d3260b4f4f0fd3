// `hublet serve` as a real process: start problems are one line without a stack (a port in use, a data dir that cannot
// be written), the site admin and its one-time token are made only once the port is bound (a failed start uses up
// nothing; a later start says how to make another token, and that command works), `init`'s token serves; and the URL
// serve listens on is recorded in the data dir, so local-mode links (a repository's clone URL, a gist clone's origin,
// webhook payloads) point at it, over HTTPS too, unless --base-url says otherwise.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ok, ROOT, runCli, runServe, type CliResult, type Env } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-inprocess.js';
import { onPostgres } from '../helpers/database.js';
import { serveProcesses } from '../helpers/serve-process.js';
import { makeTestCertificates } from '../helpers/tls.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

const execGit = promisify(execFile);

const serving = serveProcesses();
const { serve } = serving;

/** A fresh data dir and its database: its options (--data, and --database on PostgreSQL). */
async function freshDataDir(name: string): Promise<{ dir: string; args: string[] }> {
  const fresh = await serving.freshDataDir(name);
  return { dir: fresh.dir, args: ['--data', fresh.dir, ...fresh.args] };
}

async function whoAmI(url: string, token: string): Promise<{ status: number; login?: string; scopes: string | null }> {
  const res = await fetch(`${url}/user`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { login?: string };
  return { status: res.status, login: body.login, scopes: res.headers.get('x-oauth-scopes') };
}

const tokenIn = (stdout: string) => /^created site admin "admin"; its token \(shown once\): (hlp_\w+)$/m.exec(stdout)?.[1];
const noStack = (r: CliResult) => expect(r.stderr).not.toMatch(/\n\s+at |node:internal|\.ts:\d+/);

describe('serve start problems', { timeout: 120_000 }, () => {
  it('a port in use: one line naming port and host, exit 1; nothing made for the admin, so the next start prints the one-time token', async () => {
    const fresh = await freshDataDir('port-in-use');
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const failed = await runServe(['--host', '127.0.0.1', '--port', String(port), ...fresh.args], { env: serving.sandbox.env });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toBe(
        `hublet: port ${port} on 127.0.0.1 is in use (another server? choose another with --port, or 0 for a free one)\n`,
      );
      expect(failed.stdout).toBe('');
      noStack(failed);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }

    const p = await serve(['--port', '0', ...fresh.args, '--log-level', 'silent']);
    await p.waitFor(/its token \(shown once\)/);
    const token = tokenIn(p.stdout())!;
    expect(await whoAmI(p.url, token)).toMatchObject({ status: 200, login: 'admin' });
    expect(await p.stop()).toEqual({ code: 0, signal: null });

    // Later starts print no token, but the documented way to make another; that command works while the server runs.
    const again = await serve(['--port', '0', ...fresh.args, '--log-level', 'silent']);
    await again.waitFor(/lost it\? make another: .*\n/);
    expect(again.stdout()).not.toMatch(/hlp_/);
    const command = /lost it\? make another: hublet (.*)\n/.exec(again.stdout())![1].split(' ');
    expect(command.slice(0, 4)).toEqual(['admin', 'token', 'create', 'admin']);
    expect(command).toContain(fresh.dir);
    if (onPostgres) expect(command).toContain('--database');
    const made = await runCli(command, { env: serving.sandbox.env });
    const second = ok(made).stdout.trim();
    expect(await whoAmI(again.url, second)).toMatchObject({ status: 200, login: 'admin', scopes: expect.stringContaining('site_admin') });
    expect(await whoAmI(again.url, token)).toMatchObject({ status: 200, login: 'admin' });
    expect(await again.stop()).toEqual({ code: 0, signal: null });
  });

  it('a data dir that cannot be created or written: one line naming the path, exit 1', async () => {
    const file = path.join(serving.sandbox.root, 'a-file');
    fs.writeFileSync(file, 'not a directory\n');
    const under = await runServe(['--port', '0', '--data', path.join(file, 'data')], { env: serving.sandbox.env });
    expect(under.code).toBe(1);
    expect(under.stderr).toBe(`hublet: cannot create data dir ${path.join(file, 'data')}: a part of the path is a file, not a directory\n`);
    noStack(under);

    // A directory the server's user may not write (root may write anywhere: the server then runs as nobody).
    const open = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-readonly-'));
    try {
      fs.chmodSync(open, 0o755);
      const readOnly = path.join(open, 'data');
      fs.mkdirSync(readOnly, { mode: 0o555 });
      fs.chmodSync(readOnly, 0o555);
      const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', BIN] : [BIN];
      const r = await runAs(asUser, ['serve', '--port', '0', '--data', readOnly], serving.sandbox.env);
      expect(r.stderr).toBe(`hublet: data dir ${readOnly} is not writable: permission denied\n`);
      expect(r.code).toBe(1);
      expect(fs.readdirSync(readOnly)).toEqual([]);
    } finally {
      fs.rmSync(open, { recursive: true, force: true });
    }
  });

  it('serves a data dir made by `hublet init`: the token init printed works, and serve prints none', async () => {
    const fresh = await freshDataDir('from-init');
    const init = ok(await runInProcess(['init', ...fresh.args], { env: serving.sandbox.env }));
    const token = tokenIn(init.stdout)!;
    expect(token).toBeTruthy();
    const p = await serve(['--port', '0', ...fresh.args, '--log-level', 'silent']);
    await p.waitFor(/lost it\?/);
    expect(p.stdout()).not.toMatch(/hlp_/);
    expect(await whoAmI(p.url, token)).toMatchObject({ status: 200, login: 'admin' });
    expect(await p.stop()).toEqual({ code: 0, signal: null });
  });
});

/** Runs a command line (the first element the program) to its end; its stdin empty. */
function runAs(argv: string[], args: string[], env: Env): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const childEnv = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
    const child = spawn(argv[0], [...argv.slice(1), ...args], {
      cwd: ROOT,
      env: { ...childEnv, HOME: os.tmpdir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe('local mode links follow the URL serve records in the data dir', { timeout: 120_000 }, () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('a repository’s clone URL, a gist clone’s origin and webhook payloads carry the port serve listens on; --base-url overrides', async () => {
    const fresh = await freshDataDir('links');
    const p = await serve(['--port', '0', ...fresh.args, '--log-level', 'silent']);
    expect(p.port).not.toBe(3000);
    // Local mode, in-process, with no HUBLET_BASE_URL: what serve recorded is all it knows of the server.
    const local = (args: string[], stdin?: string) => runInProcess([...fresh.args, ...args], { env: serving.sandbox.env, stdin });

    const repo = ok(await local(['repo', 'create', 'admin/app']));
    expect(repo.stdout).toContain(`clone with: git clone ${p.url}/admin/app.git\n`);
    expect(JSON.parse(fs.readFileSync(path.join(fresh.dir, 'server.json'), 'utf8'))).toMatchObject({ base_url: p.url, port: p.port });
    const overridden = ok(await local(['--base-url', 'http://links.example.test:8080/', 'repo', 'create', 'admin/app2']));
    expect(overridden.stdout).toContain('clone with: git clone http://links.example.test:8080/admin/app2.git\n');
    const status = ok(await local(['auth', 'status']));
    expect(status.stdout).toMatch(new RegExp(`^links: ${p.url.replace(/\./g, '\\.')} \\(recorded by hublet serve at \\S+\\)$`, 'm'));

    const id = ok(await local(['gist', 'create', '--public', '--filename', 'hello.txt', '-'], 'hello\n'))
      .stdout.trim()
      .split('\n')
      .pop()!
      .replace(/^.*\//, '');
    const dir = path.join(serving.sandbox.root, 'gist-clone');
    ok(await local(['gist', 'clone', id, dir]));
    const origin = (await execGit('git', ['-C', dir, 'remote', 'get-url', 'origin'])).stdout.trim();
    expect(origin).toBe(`${p.url}/gist/${id}.git`);
    // The origin is the running server: a fetch from it works.
    await execGit('git', ['-C', dir, 'fetch', '--quiet', 'origin'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });

    ok(await local(['admin', 'org', 'create', 'acme', '--owner', 'admin']));
    ok(await local(['hook', 'create', '--org', 'acme', '--url', `${receiver.url}/links`, '--events', 'push']));
    const [ping] = await receiver.waitFor(1, (r) => r.path === '/links');
    const payload = JSON.stringify(ping.payload);
    expect(payload).toContain(`"${p.url}/orgs/acme"`);
    expect(payload).not.toContain('127.0.0.1:3000');
    expect(await p.stop()).toEqual({ code: 0, signal: null });
  });

  it('with TLS the recorded URL is https', async () => {
    const fresh = await freshDataDir('links-tls');
    const certs = await makeTestCertificates(path.join(serving.sandbox.root, 'certs'));
    const p = await serve([
      '--port',
      '0',
      ...fresh.args,
      '--tls-cert',
      certs.certFile,
      '--tls-key',
      certs.keyFile,
      '--log-level',
      'silent',
    ]);
    expect(p.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const repo = ok(await runInProcess([...fresh.args, 'repo', 'create', 'admin/secure'], { env: serving.sandbox.env }));
    expect(repo.stdout).toContain(`clone with: git clone ${p.url}/admin/secure.git\n`);
    expect(JSON.parse(fs.readFileSync(path.join(fresh.dir, 'server.json'), 'utf8'))).toMatchObject({ base_url: p.url });
    expect(await p.stop()).toEqual({ code: 0, signal: null });
  });
});
