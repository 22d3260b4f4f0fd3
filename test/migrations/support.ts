// Shared steps of the migration tests: a server on a movable clock with mona's repositories, repositories with real git history, waiting for exports, downloading and extracting archives.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Clock } from '../../src/core/context.js';
import type { ConfigInput } from '../../src/config.js';
import { startServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);

const gitEnv = {
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Mona',
  GIT_AUTHOR_EMAIL: 'mona@example.com',
  GIT_COMMITTER_NAME: 'Mona',
  GIT_COMMITTER_EMAIL: 'mona@example.com',
};

/** Runs git without blocking the event loop (the server under test lives in this process). */
export async function git(args: string[], cwd: string): Promise<string> {
  return (await run('git', args, { cwd, env: gitEnv, maxBuffer: 64 * 1024 * 1024 })).stdout;
}

/** Runs GNU tar (asynchronously). */
export async function tar(args: string[], cwd: string): Promise<string> {
  return (await run('tar', args, { cwd, maxBuffer: 64 * 1024 * 1024 })).stdout;
}

export function tempDir(prefix = 'hublet-mig-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Real time plus an offset the tests move (`clock.offsetMs += …`). */
export function offsetClock(): Clock & { offsetMs: number } {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  return clock;
}

export interface MonaServer {
  server: TestServer;
  /** mona's classic token, scopes repo and user. */
  mona: { token: string };
  /** A scratch dir, removed by close(). */
  tmp: string;
  close(): Promise<void>;
}

/** A test server on `clock` (and `config`), a scratch dir, and mona owning the named repositories, each with git history. */
export async function serverWithMonasRepos(clock: Clock, repos: string[], config?: ConfigInput): Promise<MonaServer> {
  const server = await startServer({ clock, config });
  const tmp = tempDir();
  const close = async () => {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    const mona = await server.userWithToken('mona', ['repo', 'user']);
    for (const name of repos) await repoWithHistory(server, mona.token, {}, name);
    return { server, mona, tmp, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** A URL git can push to with the token (Basic auth, token as password). */
export function authedUrl(server: TestServer, token: string, fullName: string): string {
  const u = new URL(`${server.url}/${fullName}.git`);
  u.username = 'x';
  u.password = token;
  return u.toString();
}

/**
 * Creates a repository over the API and pushes real history to it: two commits on main, a `feature` branch and an
 * annotated tag `v1`. Returns the refs it pushed.
 */
export async function repoWithHistory(
  server: TestServer,
  token: string,
  owner: { org?: string },
  name: string,
  opts: { private?: boolean; description?: string } = {},
): Promise<{ fullName: string; refs: Record<string, string> }> {
  const created = await server.api('POST', owner.org ? `/orgs/${owner.org}/repos` : '/user/repos', {
    token,
    body: { name, private: opts.private ?? false, description: opts.description ?? `the ${name} repository` },
  });
  if (created.status !== 201) throw new Error(`create ${name}: ${created.status} ${created.text}`);
  const fullName = created.body.full_name as string;
  const work = tempDir('hublet-work-');
  try {
    await git(['init', '-q', '-b', 'main'], work);
    fs.writeFileSync(path.join(work, 'README.md'), `# ${name}\n`);
    await git(['add', '.'], work);
    await git(['commit', '-qm', 'first'], work);
    fs.mkdirSync(path.join(work, 'src'));
    fs.writeFileSync(path.join(work, 'src', 'main.ts'), `export const name = ${JSON.stringify(name)};\n`);
    await git(['add', '.'], work);
    await git(['commit', '-qm', 'second'], work);
    await git(['tag', '-a', 'v1', '-m', 'version 1'], work);
    await git(['checkout', '-qb', 'feature'], work);
    fs.writeFileSync(path.join(work, 'feature.txt'), 'feature\n');
    await git(['add', '.'], work);
    await git(['commit', '-qm', 'feature'], work);
    await git(['push', '-q', authedUrl(server, token, fullName), 'main', 'feature', 'v1'], work);
    const refs: Record<string, string> = {};
    for (const line of (await git(['show-ref'], work)).trim().split('\n')) {
      const [sha, ref] = line.split(' ');
      refs[ref] = sha;
    }
    return { fullName, refs };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Polls a migration until it reaches one of `states` (the server's worker runs the export). */
export async function waitForState(
  server: TestServer,
  url: string,
  token: string,
  states: string[] = ['exported', 'failed'],
  timeoutMs = 60_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await server.api('GET', url, { token });
    if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${r.text}`);
    if (states.includes(r.body.state)) return r.body;
    if (Date.now() > deadline) throw new Error(`migration stayed ${r.body.state}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Follows the archive redirect by hand: the 302, then the signed URL without credentials. */
export async function downloadArchive(
  server: TestServer,
  archivePath: string,
  token: string,
  dest: string,
): Promise<{ location: string; bytes: Buffer }> {
  const redirect = await fetch(`${server.url}${archivePath}`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
  if (redirect.status !== 302) throw new Error(`GET ${archivePath}: ${redirect.status} ${await redirect.text()}`);
  const location = redirect.headers.get('location')!;
  const res = await fetch(location);
  if (res.status !== 200) throw new Error(`GET ${location}: ${res.status} ${await res.text()}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  fs.writeFileSync(dest, bytes);
  return { location, bytes };
}

/** Every file in a directory tree, relative, sorted. */
export function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(path.join(dir, e.name), rel));
    else out.push(rel);
  }
  return out.sort();
}

export function readJson(dir: string, file: string): any {
  return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
}
