// Runs the stock clients the compatibility tests drive (Debian's gh, python3-github and ruby-octokit): finds them or fails with what
// to install, and runs one to its exit with captured output. A missing client fails its test file; it is never skipped.
import { spawn, spawnSync } from 'node:child_process';

export type Env = Record<string, string | undefined>;

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Debian's python: python3-github installs PyGithub for it (a pyenv python first on PATH does not have it). */
export const PYTHON = '/usr/bin/python3';

/** The absolute path of `name` on PATH; throws naming the Debian package when it is not there. */
export function requireExecutable(name: string, debianPackage: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const file = found.stdout.trim();
  if (found.status !== 0 || !file) {
    throw new Error(`the \`${name}\` client is missing: apt-get install -y ${debianPackage} (.ci/run installs it before the tests)`);
  }
  return file;
}

/** Debian's python with PyGithub importable; throws saying what to install otherwise. Answers PyGithub's version. */
export function requirePyGithub(): string {
  const probe = spawnSync(PYTHON, ['-c', 'import github, importlib.metadata as m; print(m.version("PyGithub"))'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `PyGithub is missing for ${PYTHON}: apt-get install -y python3-github (.ci/run installs it before the tests)\n${probe.error?.message ?? probe.stderr}`,
    );
  }
  return probe.stdout.trim();
}

/** Debian's ruby: ruby-octokit installs Octokit.rb for it (an rbenv or rvm ruby first on PATH does not have it). */
export const RUBY = '/usr/bin/ruby';

/** Debian's ruby with Octokit.rb loadable; throws saying what to install otherwise. Answers Octokit.rb's version. */
export function requireRubyOctokit(): string {
  const probe = spawnSync(RUBY, ['-e', 'require "octokit"; print Octokit::VERSION'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `Octokit.rb is missing for ${RUBY}: apt-get install -y ruby-octokit (.ci/run installs it before the tests)\n${probe.error?.message ?? probe.stderr}`,
    );
  }
  return probe.stdout.trim();
}

/** Runs `command ARGS…` to its exit (killed after `timeoutMs`), with exactly `env` as its environment. */
export function run(command: string, args: string[], opts: { env: Env; cwd?: string; stdin?: string; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) env[k] = v;
    // Without input, stdin is /dev/null: nothing to write to a child that may exit before reading it.
    const child = spawn(command, args, { cwd: opts.cwd, env, stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (opts.stdin !== undefined) {
      // A child that exits without reading all of its input closes the pipe: that is its answer, not the test's error.
      child.stdin!.on('error', () => {});
      child.stdin!.end(opts.stdin);
    }
  });
}

/** Throws with the command's output unless it exited 0; answers its stdout. */
export function succeeded(what: string, r: Run): string {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code ?? r.signal}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r.stdout;
}
