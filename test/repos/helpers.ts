// Shared by the repository tests: events read back from the events table, and stock git run without blocking the server.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestServer } from '../helpers/server.js';

export interface RecordedEvent {
  id: number;
  name: string;
  action: string | null;
  org_id: number | null;
  repository_id: number | null;
  sender_id: number | null;
  payload: any;
}

/** Events recorded after `afterId`, oldest first, optionally of one name. */
export async function eventsSince(s: TestServer, afterId: number, name?: string): Promise<RecordedEvent[]> {
  let q = s.db.selectFrom('events').selectAll().where('id', '>', afterId);
  if (name) q = q.where('name', '=', name);
  const rows = await q.orderBy('id').execute();
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) }));
}

/** The id of the newest event (0 when there is none): take it before an action, then read what the action recorded. */
export async function lastEventId(s: TestServer): Promise<number> {
  const row = await s.db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

const run = promisify(execFile);

/** Where tests keep working copies (removed with the process's temp dir by `cleanup`). */
export function tempDir(prefix = 'hublet-repos-'): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const gitEnv: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '/bin/false',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada Author',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada Author',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
};

export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/** Runs stock git asynchronously (the server under test lives in this process: a blocking call would deadlock it). */
export async function git(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<GitResult> {
  try {
    const r = await run('git', args, { cwd, env: { ...gitEnv, ...env }, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, stdout: String(err.stdout ?? ''), stderr: String(err.stderr ?? '') };
  }
}

/** Like `git`, but throws with git's own message on failure. */
export async function gitOk(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await git(args, cwd, env);
  if (!r.ok) throw new Error(`git ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
}

/** `http://user:token@host:port/path` for git. */
export function authUrl(base: string, login: string, token: string, p: string): string {
  const u = new URL(base + p);
  u.username = login;
  u.password = token;
  return u.toString();
}

/** A new local repository with one commit per entry of `commits` (file name → content). */
export async function workingCopy(
  dir: string,
  commits: { message: string; files: Record<string, string | null> }[],
  branch = 'main',
): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  await gitOk(['init', '-q', '-b', branch], dir);
  for (const c of commits) await commitFiles(dir, c.message, c.files);
  return dir;
}

/** Writes (or, for null, deletes) files and commits them; returns the new commit id. */
export async function commitFiles(
  dir: string,
  message: string,
  files: Record<string, string | null>,
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    const p = path.join(dir, name);
    if (content === null) fs.rmSync(p, { force: true });
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    }
  }
  await gitOk(['add', '-A'], dir);
  await gitOk(['commit', '-q', '--allow-empty', '-m', message], dir, env);
  return (await gitOk(['rev-parse', 'HEAD'], dir)).trim();
}
