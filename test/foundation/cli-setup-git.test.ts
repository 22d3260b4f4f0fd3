// `hublet auth setup-git` and `hublet auth git-credential`: hublet as git's credential helper, as gh is. In a sandboxed
// HOME, setup-git (the real executable, whose path git is given) writes credential.<server>.helper to the global git
// config; then a real `git push` from a `gist clone` (remote and local mode) and from a repository clone needs no
// prompt, while without it git fails without prompting and `gist clone` (at a terminal) says what to run. The credential protocol
// itself runs in-process: get (saved or environment token, by server), store and erase (no-ops), refusals.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { helperCommand } from '../../src/cli/git-credentials.js';
import { BIN, ok, runCli, sandbox, type CliResult, type Env, type Sandbox } from '../helpers/cli.js';
import { runInProcess, startInProcessCliServer, type InProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';

// Each git push runs the helper, a process of the executable (~1 s of tsx start-up, more on a busy machine).
vi.setConfig({ testTimeout: 240_000 });
const PROCESS_TIMEOUT_MS = 120_000;
const exec = promisify(execFile);

let c: InProcessCliServer;
let s: TestServer;
let alice: { login: string; token: string };
let origin: string;
const sandboxes: Sandbox[] = [];

beforeAll(async () => {
  c = await startInProcessCliServer();
  s = c.server;
  alice = await s.userWithToken('alice', ['gist', 'repo']);
  origin = new URL(s.url).origin;
});
afterAll(async () => {
  for (const sb of sandboxes) sb.cleanup();
  await c?.close();
});

/** A home of its own (git's global config in it), git never prompting, and no git settings from this process. */
function home(): { sb: Sandbox; env: Env } {
  const sb = sandbox();
  sandboxes.push(sb);
  const env: Env = {
    ...sb.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_CONFIG_NOSYSTEM: '1',
    HUBLET_BASE_URL: s.url,
  };
  for (const k of Object.keys(env)) if (/^GIT_(CONFIG_(GLOBAL|COUNT|KEY_|VALUE_|PARAMETERS)|DIR|WORK_TREE)/.test(k)) delete env[k];
  Object.assign(env, {
    GIT_AUTHOR_NAME: 'Alice',
    GIT_AUTHOR_EMAIL: 'alice@example.com',
    GIT_COMMITTER_NAME: 'Alice',
    GIT_COMMITTER_EMAIL: 'alice@example.com',
  });
  return { sb, env };
}

const clean = (env: Env): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;

/** git in `cwd` with the sandbox's environment: exit code, stdout and stderr. */
async function git(args: string[], env: Env, cwd?: string): Promise<CliResult> {
  try {
    const r = await exec('git', args, { cwd, env: clean(env) });
    return { code: 0, signal: null, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, signal: null, stdout: err.stdout, stderr: err.stderr };
  }
}

const globalHelpers = async (env: Env) => (await git(['config', '--global', '--get-all', `credential.${origin}.helper`], env)).stdout;
const EXPECTED_HELPER = helperCommand(BIN);

/** Commits a change to `file` in the clone and pushes it: git's result. */
async function commitAndPush(dir: string, file: string, content: string, env: Env): Promise<CliResult> {
  fs.writeFileSync(path.join(dir, file), content);
  expect((await git(['-C', dir, 'add', '--', file], env)).code).toBe(0);
  const committed = await git(['-C', dir, 'commit', '-qm', 'change'], env);
  expect(committed.code, committed.stdout + committed.stderr).toBe(0);
  return git(['-C', dir, 'push', '--quiet', 'origin', 'HEAD'], env);
}

async function newGist(content: string): Promise<any> {
  const r = await s.api('POST', '/gists', { token: alice.token, body: { files: { 'g.txt': { content } } } });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

const contentOf = async (id: string) => (await s.api('GET', `/gists/${id}`)).body.files['g.txt'].content;

describe('hublet auth setup-git', () => {
  it('with no server signed in: exit 4 saying so; the global git config untouched', async () => {
    const { sb, env } = home();
    const r = await runInProcess(['auth', 'setup-git'], { env });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'hublet: not signed in to any server: nothing to set up\nhint: sign in first: `hublet auth login --server URL`, then run `hublet auth setup-git`\n',
    );
    expect(fs.existsSync(path.join(sb.home, '.gitconfig'))).toBe(false);
    const noToken = await runInProcess(['--server', s.url, 'auth', 'setup-git'], { env });
    expect(noToken.code).toBe(4);
    expect(noToken.stderr).toMatch(new RegExp(`^hublet: no token for ${s.url}: git could not be answered there\\n`));
  });

  it('writes a blank helper and then `!<hublet> auth git-credential` for the server, in HOME or $GIT_CONFIG_GLOBAL; twice is the same', async () => {
    const { sb, env } = home();
    ok(await runInProcess(['auth', 'login', '--server', s.url, '--token', alice.token], { env }));
    const first = await runCli(['auth', 'setup-git'], { env, timeoutMs: PROCESS_TIMEOUT_MS });
    expect(ok(first).stdout).toBe(
      `git now asks hublet for the token for ${origin} (credential.${origin}.helper in the global git config)\n`,
    );
    ok(await runCli(['auth', 'setup-git'], { env, timeoutMs: PROCESS_TIMEOUT_MS }));
    expect(await globalHelpers(env)).toBe(`\n${EXPECTED_HELPER}\n`);
    expect(fs.readFileSync(path.join(sb.home, '.gitconfig'), 'utf8')).toContain(`[credential "${origin}"]`);

    const elsewhere = path.join(sb.root, 'elsewhere.gitconfig');
    const json = await runInProcess(['--json', 'auth', 'setup-git'], { env, extraEnv: { GIT_CONFIG_GLOBAL: elsewhere } });
    expect(JSON.parse(ok(json).stdout)).toEqual([
      { server: origin, key: `credential.${origin}.helper`, helper: expect.stringMatching(/ auth git-credential$/) },
    ]);
    expect(fs.readFileSync(elsewhere, 'utf8')).toContain(`[credential "${origin}"]`);
  });

  it('the helper command quotes an executable path a shell would split', () => {
    expect(helperCommand('/usr/local/bin/hublet')).toBe('!/usr/local/bin/hublet auth git-credential');
    expect(helperCommand('/opt/my tools/hublet')).toBe("!'/opt/my tools/hublet' auth git-credential");
    expect(helperCommand("/o'brien/$HOME/hublet")).toBe(`!'/o'\\''brien/$HOME/hublet' auth git-credential`);
  });

  it('remote mode: gist clone hints at setup-git and git push fails without a prompt; after setup-git it pushes, and so does a repository clone', async () => {
    const { sb, env } = home();
    ok(await runInProcess(['auth', 'login', '--server', s.url, '--token', alice.token], { env }));
    const g = await newGist('one\n');
    const before = path.join(sb.root, 'before');
    // The hint is for a person: at a terminal (a script's clone prints none, test/gists/cli.test.ts).
    const cloned = await runInProcess(['gist', 'clone', g.id, before], { env, stderrIsTTY: true });
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(cloned.stderr).toBe(
      `hint: to push with git without a password prompt, run \`hublet auth setup-git\` once (git then asks hublet for the token for ${origin})\n`,
    );
    const refused = await commitAndPush(before, 'g.txt', 'two\n', env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/could not read Username|terminal prompts disabled/);
    expect(await contentOf(g.id)).toBe('one\n');

    ok(await runCli(['auth', 'setup-git'], { env, timeoutMs: PROCESS_TIMEOUT_MS }));
    const pushed = await git(['-C', before, 'push', '--quiet', 'origin', 'HEAD'], env);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await contentOf(g.id)).toBe('two\n');
    // The token is git's for the push only: nothing of it in the clone's config.
    expect(fs.readFileSync(path.join(before, '.git', 'config'), 'utf8')).not.toContain(alice.token);

    // Cloned now: no hint; the next push goes through the helper too.
    const after = path.join(sb.root, 'after');
    const again = await runInProcess(['gist', 'clone', g.id, after], { env, stderrIsTTY: true });
    expect(ok(again).stdout).toBe(`cloned gist ${g.id} into ${after}\n`);
    expect((await commitAndPush(after, 'g.txt', 'three\n', env)).code).toBe(0);
    expect(await contentOf(g.id)).toBe('three\n');

    // A private repository: git clones and pushes through the same helper.
    const repo = await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'pushed', private: true, auto_init: true } });
    expect(repo.status, repo.text).toBe(201);
    const repoDir = path.join(sb.root, 'repo');
    const repoClone = await git(['clone', '--quiet', repo.body.clone_url, repoDir], env);
    expect(repoClone.code, repoClone.stderr).toBe(0);
    expect((await commitAndPush(repoDir, 'pushed.txt', 'pushed through the helper\n', env)).code).toBe(0);
    const head = (await git(['-C', repoDir, 'rev-parse', 'HEAD'], env)).stdout.trim();
    expect((await git(['-C', repoDir, 'ls-remote', 'origin', 'HEAD'], env)).stdout).toMatch(new RegExp(`^${head}\\s+HEAD`));
  });

  it("local mode: a local clone's origin is the server itself (the gateway is gone), so its push needs the helper too", async () => {
    const { sb, env } = home();
    const g = await newGist('local\n');
    const local = (args: string[]) =>
      runInProcess(['--data', s.dataDir, '--database', s.databaseUrl, '--as', 'alice', ...args], { env, stderrIsTTY: true });
    const dir = path.join(sb.root, 'local-clone');
    const cloned = await local(['gist', 'clone', g.id, dir]);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(cloned.stderr).toBe(
      `hint: pushing with git needs a token for ${origin}: sign in with \`hublet auth login --server ${origin}\`, then \`hublet auth setup-git\`\n`,
    );
    expect((await git(['-C', dir, 'remote', 'get-url', 'origin'], env)).stdout.trim()).toBe(g.git_pull_url);
    expect((await commitAndPush(dir, 'g.txt', 'pushed locally\n', env)).code).not.toBe(0);
    expect(await contentOf(g.id)).toBe('local\n');

    ok(await runInProcess(['auth', 'login', '--server', s.url, '--token', alice.token], { env }));
    ok(await runCli(['auth', 'setup-git'], { env, timeoutMs: PROCESS_TIMEOUT_MS }));
    const pushed = await git(['-C', dir, 'push', '--quiet', 'origin', 'HEAD'], env);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await contentOf(g.id)).toBe('pushed locally\n');
    const quiet = await local(['gist', 'clone', g.id, path.join(sb.root, 'local-again')]);
    expect(ok(quiet).stderr).toBe('');
  });
});

describe("hublet auth git-credential: git's credential protocol", () => {
  const port = () => new URL(s.url).port;
  const get = (env: Env, request: string, extraEnv: Env = {}) =>
    runInProcess(['auth', 'git-credential', 'get'], { env, extraEnv, stdin: request });

  it('get: the saved token for the saved server, as its login; by url= too; nothing for another server', async () => {
    const { env } = home();
    ok(await runInProcess(['auth', 'login', '--server', s.url, '--token', alice.token], { env }));
    const answer = `protocol=http\nhost=127.0.0.1:${port()}\nusername=alice\npassword=${alice.token}\n`;
    expect(ok(await get(env, `protocol=http\nhost=127.0.0.1:${port()}\npath=gist/x.git\n\n`)).stdout).toBe(answer);
    expect(ok(await get(env, `url=http://127.0.0.1:${port()}/gist/x.git\n\n`)).stdout).toBe(answer);
    expect(ok(await get(env, `protocol=http\nhost=127.0.0.1:${port()}\nusername=alice\n`)).stdout).toBe(answer);

    const other = await get(env, 'protocol=http\nhost=127.0.0.1:1\n\n');
    expect(other.code).toBe(1);
    expect(other.stdout).toBe('');
    expect(other.stderr).toBe(
      'hublet auth git-credential: no token for http://127.0.0.1:1; sign in with `hublet auth login --server http://127.0.0.1:1`\n',
    );
    const https = await get(env, `protocol=https\nhost=127.0.0.1:${port()}\n\n`); // another origin
    expect(https.code).toBe(1);
    const ssh = await get(env, 'protocol=ssh\nhost=example.com\n\n');
    expect(ssh.code).toBe(1);
    expect(ssh.stdout).toBe('');
    const someoneElse = await get(env, `protocol=http\nhost=127.0.0.1:${port()}\nusername=bob\n\n`);
    expect(someoneElse.code).toBe(1);
    expect(someoneElse.stdout).toBe('');
  });

  it('get: HUBLET_SERVER with HUBLET_TOKEN answers for that server as x-access-token, before the saved token', async () => {
    const { env } = home();
    ok(await runInProcess(['auth', 'login', '--server', s.url, '--token', alice.token], { env }));
    const r = await get(env, `protocol=http\nhost=127.0.0.1:${port()}\n\n`, { HUBLET_SERVER: s.url, HUBLET_TOKEN: 'hlp_from_env' });
    expect(ok(r).stdout).toBe(`protocol=http\nhost=127.0.0.1:${port()}\nusername=x-access-token\npassword=hlp_from_env\n`);
    const noSaved = home();
    const envOnly = await get(noSaved.env, `protocol=http\nhost=127.0.0.1:${port()}\n\n`, {
      HUBLET_SERVER: `${s.url}/`,
      HUBLET_TOKEN: 'hlp_env_only',
    });
    expect(ok(envOnly).stdout).toContain('password=hlp_env_only\n');
  });

  it('store and erase do nothing (the saved token stays); other operations are refused', async () => {
    const { sb, env } = home();
    ok(await runInProcess(['auth', 'login', '--server', s.url, '--token', alice.token], { env }));
    const saved = fs.readFileSync(sb.credentialsFile, 'utf8');
    const request = `protocol=http\nhost=127.0.0.1:${port()}\nusername=alice\npassword=${alice.token}\n\n`;
    for (const op of ['store', 'erase']) {
      const r = await runInProcess(['auth', 'git-credential', op], { env, stdin: request });
      expect(ok(r).stdout).toBe('');
    }
    expect(fs.readFileSync(sb.credentialsFile, 'utf8')).toBe(saved);
    const bad = await runInProcess(['auth', 'git-credential', 'fill'], { env, stdin: request });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('hublet auth git-credential: "fill" operation not supported\n');
    // Hidden from help, as gh's.
    const help = await runInProcess(['auth', '--help'], { env });
    expect(help.stdout).toContain('setup-git');
    expect(help.stdout).toContain('token');
    expect(help.stdout).not.toContain('git-credential');
  });
});
