// The git side of `hublet gist import`: a scratch bare repository per gist, into which the source's history is
// fetched and from which it is pushed to the copy, so every commit keeps its SHA. git may speak only http(s) here
// (GIT_ALLOW_PROTOCOL): a source's git_pull_url can never make git run a program (`ext::`) or read local files.
import { spawn } from 'node:child_process';
import { CliExit, EXIT } from '../../output.js';
import { gitEnv } from './clone.js';

/** A repository git reaches over HTTP, with the token to send there (as an Authorization header, never in the URL). */
export interface Remote {
  url: string;
  token?: string;
}

/** A git command that failed, with what git said (its `fatal:`, `error:`, `remote:` and `!` lines). */
export class GitFailed extends Error {}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** What git said about a failure, in one line. */
function said(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^(fatal|error|remote):|^!/.test(l) && !/^remote:\s*$/.test(l));
  return (lines.length ? lines : [stderr.trim()]).join('; ').slice(0, 2000);
}

/** A scratch bare repository of one gist's import; git runs against it as a separate process per step. */
export class Scratch {
  private constructor(
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** A new empty bare repository at `dir`; git's environment is `base` restricted to http(s). */
  static async create(dir: string, base: NodeJS.ProcessEnv): Promise<Scratch> {
    const scratch = new Scratch(dir, { ...base, GIT_TERMINAL_PROMPT: '0', GIT_ALLOW_PROTOCOL: 'http:https' });
    await scratch.must(['init', '--quiet', '--bare', dir], undefined, 'git init');
    return scratch;
  }

  private run(args: string[], remote?: Remote): Promise<Ran> {
    const env = remote ? gitEnv(this.env, remote.url, remote.token) : this.env;
    return new Promise((resolve, reject) => {
      const child = spawn('git', args[0] === 'init' ? args : ['--git-dir', this.dir, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.on('error', (e: NodeJS.ErrnoException) =>
        reject(
          new CliExit(
            EXIT.error,
            e.code === 'ENOENT'
              ? 'hublet: git is not installed (or not on PATH); gist import needs it'
              : `hublet: cannot run git: ${e.message}`,
          ),
        ),
      );
      child.on('close', (code) =>
        resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
      );
    });
  }

  private async must(args: string[], remote: Remote | undefined, what: string): Promise<string> {
    const r = await this.run(args, remote);
    if (r.code !== 0) throw new GitFailed(`${what} failed: ${said(r.stderr)}`);
    return r.stdout.trim();
  }

  /** Fetches the remote's HEAD (every commit behind it) into `ref`; returns the commit. */
  async fetchHead(remote: Remote, ref: string): Promise<string> {
    await this.must(['fetch', '--quiet', '--no-tags', '--', remote.url, `+HEAD:${ref}`], remote, `fetching ${remote.url}`);
    return this.must(['rev-parse', '--verify', `${ref}^{commit}`], undefined, 'reading the fetched head');
  }

  /** Whether this repository has the commit. */
  async has(sha: string): Promise<boolean> {
    return (await this.run(['cat-file', '-e', `${sha}^{commit}`])).code === 0;
  }

  /** Whether `a` is `b` or one of its ancestors. */
  async isAncestor(a: string, b: string): Promise<boolean> {
    return (await this.run(['merge-base', '--is-ancestor', a, b])).code === 0;
  }

  /** Commits on the first-parent chain of `tip` that `from` (if given) lacks: a gist's revisions. */
  async revisions(tip: string, from?: string): Promise<number> {
    return Number(
      await this.must(['rev-list', '--count', '--first-parent', from ? `${from}..${tip}` : tip], undefined, 'counting revisions'),
    );
  }

  /** The branch the remote's HEAD names (a gist's one branch). */
  async branchOf(remote: Remote): Promise<string> {
    const out = await this.must(['ls-remote', '--symref', '--', remote.url, 'HEAD'], remote, `reading ${remote.url}`);
    const m = /^ref:\s+(refs\/heads\/\S+)\s+HEAD$/m.exec(out);
    if (!m) throw new GitFailed(`${remote.url} names no branch as its HEAD`);
    return m[1];
  }

  /** Pushes `sha` to the remote's `branch`; `force` replaces what is there (a copy that only holds its placeholder). */
  async push(remote: Remote, sha: string, branch: string, force: boolean): Promise<void> {
    await this.must(['push', '--quiet', ...(force ? ['--force'] : []), '--', remote.url, `${sha}:${branch}`], remote, 'git push');
  }
}
