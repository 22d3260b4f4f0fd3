// Runs hublet (bin/hublet through tsx, or dist/hublet when HUBLET_TEST_BIN=dist, as `make test` sets) as a child process in a sandbox (temp HOME and XDG dirs, no inherited HUBLET_* settings); starts `serve`; a test server with local- and remote-mode runners beside it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { TestServer } from './server.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * The executable under test. `make test` builds dist/hublet first and sets HUBLET_TEST_BIN=dist, so the CLI and serve
 * tests run what ships (and start in ~50 ms instead of tsx's ~1 s); a plain `npx vitest` runs the sources via tsx.
 */
export const BIN = process.env.HUBLET_TEST_BIN === 'dist' ? path.join(ROOT, 'dist', 'hublet') : path.join(ROOT, 'bin', 'hublet');

export type Env = Record<string, string | undefined>;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A home of its own: HOME, XDG_CONFIG_HOME and XDG_DATA_HOME in a temp dir, so no test reads or writes the real ones. */
export interface Sandbox {
  root: string;
  home: string;
  configHome: string;
  env: Env;
  /** Where `hublet auth login` saves credentials in this sandbox. */
  credentialsFile: string;
  cleanup(): void;
}

/** stderr without the CLI's `hint:` lines (src/cli/hints.ts): the API's error body alone, for parsing or comparing. */
export function withoutHints(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !line.startsWith('hint: '))
    .join('\n');
}

export function sandbox(): Sandbox {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-cli-'));
  const home = path.join(root, 'home');
  const configHome = path.join(root, 'config');
  const dataHome = path.join(root, 'data-home');
  for (const d of [home, configHome, dataHome]) fs.mkdirSync(d, { recursive: true });
  const env: Env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HUBLET_')) env[k] = v;
  // Passwords at scrypt's N=2^14 in the suite's own processes too (as test/helpers/server.ts says).
  Object.assign(env, { HOME: home, XDG_CONFIG_HOME: configHome, XDG_DATA_HOME: dataHome, NO_COLOR: '1', HUBLET_PASSWORD_COST: '14' });
  return {
    root,
    home,
    configHome,
    env,
    credentialsFile: path.join(configHome, 'hublet', 'credentials.json'),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

function childEnv(base: Env, extra: Env = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries({ ...base, ...extra })) if (v !== undefined) out[k] = v;
  return out;
}

/** Runs `hublet ARGS…` to completion. */
export function runCli(args: string[], opts: { env: Env; extraEnv?: Env; stdin?: string; timeoutMs?: number }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, [...args], { cwd: ROOT, env: childEnv(opts.env, opts.extraEnv), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

export interface ServeProcess {
  child: ChildProcess;
  /** `http://HOST:PORT` from the `hublet listening on …` line. */
  url: string;
  port: number;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout contains the text (rejects if the process exits first or after the timeout). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Sends a signal and resolves with the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `hublet serve ARGS…` and waits for its `hublet listening on` line. */
export async function startServe(args: string[], opts: { env: Env; extraEnv?: Env; timeoutMs?: number }): Promise<ServeProcess> {
  const child = spawn(BIN, ['serve', ...args], { cwd: ROOT, env: childEnv(opts.env, opts.extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of listeners) l();
  };
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    notify();
  });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => {
    err += c;
    notify();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
      notify();
    }),
  );
  const waitFor = (text: string | RegExp, timeoutMs = opts.timeoutMs ?? 20_000) =>
    new Promise<void>((resolve, reject) => {
      const seen = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
      const timer = setTimeout(() => done(new Error(`timed out waiting for ${text}; stdout: ${out}; stderr: ${err}`)), timeoutMs);
      const check = () => {
        if (seen()) done();
        else if (exit)
          done(new Error(`serve exited (${exit.code ?? exit.signal}) before printing ${text}; stdout: ${out}; stderr: ${err}`));
      };
      function done(e?: Error) {
        clearTimeout(timer);
        listeners.delete(check);
        if (e) reject(e);
        else resolve();
      }
      listeners.add(check);
      check();
    });
  try {
    await waitFor(/hublet listening on \S+\n/);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  const url = /hublet listening on (\S+)\n/.exec(out)![1];
  return {
    child,
    url,
    port: Number(new URL(url).port),
    stdout: () => out,
    stderr: () => err,
    waitFor,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (!exit) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** Runs `serve` to its exit (for starts that must fail). */
export function runServe(args: string[], opts: { env: Env; extraEnv?: Env }): Promise<CliResult> {
  return runCli(['serve', ...args], opts);
}

/** Runs tasks with at most `n` at a time (each is a process; the machine has two cores). */
export async function pool<T>(tasks: (() => Promise<T>)[], n = 4): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]();
      }
    }),
  );
  return out;
}

/** Expects a clean run (exit 0, nothing on stderr) and returns it. */
export function ok(r: CliResult): CliResult {
  expect(r.stderr, r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r;
}

/** A run that failed with `code` and printed nothing on stdout. */
export function failed(r: CliResult, code: number): CliResult {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  return r;
}

export type RunOptions = { stdin?: string; extraEnv?: Env };

/** A test server, a sandbox, and hublet run against both ways: in local mode and in remote mode. */
export interface CliServer {
  server: TestServer;
  sandbox: Sandbox;
  /** Local mode's environment: the sandbox's, with the server's public URL for links. */
  localEnv: Env;
  /** `hublet --data DIR --database URL ARGS…`: in-process over the server's own data dir and database. */
  local(args: string[], opts?: RunOptions): Promise<CliResult>;
  /** `hublet --server URL [--token TOKEN] ARGS…`: over HTTP against the server. */
  remote(token: string | null, args: string[], opts?: RunOptions): Promise<CliResult>;
  close(): Promise<void>;
}

/**
 * Starts a test server (with an anonymous rate limit high enough that it never answers for many anonymous calls) and a
 * sandbox beside it. `timeoutMs` is each process's limit (runCli's default when not given).
 */
export async function startCliServer(opts: { timeoutMs?: number } = {}): Promise<CliServer> {
  // Loaded here, not at the top: the serve and bin tests use this file without needing the app.
  const { startServer } = await import('./server.js');
  const server = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  const sb = sandbox();
  const localEnv: Env = { ...sb.env, HUBLET_BASE_URL: server.url };
  const { timeoutMs } = opts;
  return {
    server,
    sandbox: sb,
    localEnv,
    local: (args, o = {}) =>
      runCli(['--data', server.dataDir, '--database', server.databaseUrl, ...args], { env: localEnv, timeoutMs, ...o }),
    remote: (token, args, o = {}) =>
      runCli(['--server', server.url, ...(token ? ['--token', token] : []), ...args], { env: sb.env, timeoutMs, ...o }),
    async close() {
      await server.close();
      sb.cleanup();
    },
  };
}
