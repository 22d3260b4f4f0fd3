// Shared by the gist tests that drive stock git: a quiet git environment, run/fail helpers, `git fsck --full` of a repository.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

const gitEnv: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Alice',
  GIT_AUTHOR_EMAIL: 'alice@example.com',
  GIT_COMMITTER_NAME: 'Alice',
  GIT_COMMITTER_EMAIL: 'alice@example.com',
};

/** Runs git without blocking the event loop (a server under test may live in this process); its stdout. */
export async function git(args: string[], cwd: string, input?: string): Promise<string> {
  const child = run('git', args, { cwd, env: gitEnv, maxBuffer: 64 * 1024 * 1024 });
  if (input !== undefined) child.child.stdin!.end(input);
  return (await child).stdout;
}

/** git's stderr when it fails, '' when it unexpectedly succeeds. */
export async function gitFails(args: string[], cwd: string): Promise<string> {
  return git(args, cwd).then(
    () => '',
    (e: { stderr: string }) => String(e.stderr),
  );
}

/** `git fsck --full` of a bare repository: its complaints ('' when clean). */
export async function fsckProblems(bare: string): Promise<string> {
  return run('git', ['--git-dir', bare, 'fsck', '--full', '--no-dangling', '--no-progress'], { env: gitEnv }).then(
    (r) =>
      r.stderr
        .split('\n')
        .filter((l) => /error|missing|broken|bad|corrupt|fatal/i.test(l))
        .join('\n'),
    (e: { stderr: string; stdout: string }) => `${e.stdout}${e.stderr}`.trim() || 'git fsck failed',
  );
}

export const withCredentials = (url: string, login: string, token: string): string => url.replace('http://', `http://${login}:${token}@`);
