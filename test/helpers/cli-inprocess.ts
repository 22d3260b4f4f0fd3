// Runs the hublet program in this process (src/cli/program.ts) against a fake I/O: stdout and stderr captured, stdin
// given, terminals chosen, no process started; and a test server with local- and remote-mode runners beside it, the
// same interface as test/helpers/cli.ts gives with child processes (which the few end-to-end tests of the binary keep).
import { Readable, Writable } from 'node:stream';
import type { IO } from '../../src/cli/io.js';
import { run } from '../../src/cli/program.js';
import { sandbox, type CliResult, type CliServer, type Env, type RunOptions } from './cli.js';

export interface FakeIOOptions {
  /** What stdin holds (empty when not given, as a child's closed pipe). */
  stdin?: string | Buffer;
  /** stdout is a terminal. */
  isTTY?: boolean;
  stdinIsTTY?: boolean;
  stderrIsTTY?: boolean;
  columns?: number;
}

export interface FakeIO {
  io: IO;
  stdout(): string;
  stderr(): string;
  /** stdout's exact bytes. */
  stdoutBytes(): Buffer;
  /** Delivers a stop signal (what SIGINT or SIGTERM is to the process). */
  stop(signal?: string): void;
}

function collector(): { stream: Writable; bytes(): Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

export function fakeIO(opts: FakeIOOptions = {}): FakeIO {
  const out = collector();
  const err = collector();
  let stop!: (signal: string) => void;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const stdin = opts.stdin === undefined || opts.stdin.length === 0 ? Readable.from([]) : Readable.from([Buffer.from(opts.stdin)]);
  return {
    io: {
      stdout: out.stream,
      stderr: err.stream,
      stdin,
      isTTY: Boolean(opts.isTTY),
      stdinIsTTY: Boolean(opts.stdinIsTTY),
      stderrIsTTY: Boolean(opts.stderrIsTTY),
      columns: opts.columns,
      stopSignal: () => stopped,
    },
    stdout: () => out.bytes().toString('utf8'),
    stderr: () => err.bytes().toString('utf8'),
    stdoutBytes: () => out.bytes(),
    stop: (signal = 'SIGTERM') => stop(signal),
  };
}

function processEnv(base: Env, extra: Env = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries({ ...base, ...extra })) if (v !== undefined) out[k] = v;
  return out;
}

/** Runs `hublet ARGS…` in this process with the given environment; the result as runCli gives it (no signal, ever). */
export async function runInProcess(args: string[], opts: { env: Env; extraEnv?: Env } & FakeIOOptions): Promise<CliResult> {
  const fake = fakeIO(opts);
  const code = await run(['node', 'hublet', ...args], fake.io, processEnv(opts.env, opts.extraEnv));
  return { code, signal: null, stdout: fake.stdout(), stderr: fake.stderr() };
}

/** Runs tasks with at most `n` of them running at any time. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * Local-mode runs at the same time in this process. Each opens its own database connections, and they share this
 * process's libuv thread pool (4 threads under vitest; a hublet process has its own 8): a SQLite statement waiting for
 * the write lock sleeps on one of those threads, so with the test server's writer and two local writers waiting, a
 * thread is still free for the holder's COMMIT. With four, the holder can find none and every waiter fails with
 * SQLITE_BUSY after the busy timeout.
 */
const LOCAL_RUNS_AT_ONCE = 2;

export interface InProcessCliServer extends CliServer {
  /** `hublet ARGS…` in-process with the local environment, counted with the local runs (for options after the command). */
  run(args: string[], opts?: RunOptions): Promise<CliResult>;
}

/**
 * A test server (with an anonymous rate limit high enough that it never answers for many anonymous calls), a sandbox
 * beside it, and the program run in-process against both: locally over the server's data dir and database, remotely
 * over HTTP to the server.
 */
export async function startInProcessCliServer(): Promise<InProcessCliServer> {
  const { startServer } = await import('./server.js');
  const server = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  const sb = sandbox();
  const localEnv: Env = { ...sb.env, HUBLET_BASE_URL: server.url };
  const localRun = limiter(LOCAL_RUNS_AT_ONCE);
  return {
    server,
    sandbox: sb,
    localEnv,
    run: (args, o: RunOptions = {}) => localRun(() => runInProcess(args, { env: localEnv, ...o })),
    local: (args, o: RunOptions = {}) =>
      localRun(() => runInProcess(['--data', server.dataDir, '--database', server.databaseUrl, ...args], { env: localEnv, ...o })),
    remote: (token, args, o: RunOptions = {}) =>
      runInProcess(['--server', server.url, ...(token ? ['--token', token] : []), ...args], { env: sb.env, ...o }),
    async close() {
      await server.close();
      sb.cleanup();
    },
  };
}
