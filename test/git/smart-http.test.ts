// git's smart HTTP through `git http-backend`: a real clone and push against a bare repository, with refs reported.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import type { Db } from '../../src/db/schema.js';
import { gitDir, initBare, readRefs, ZERO_SHA, type RefUpdate } from '../../src/git/bare.js';
import { gitOperation, gitRefusal, registerGitBodies, serveGit, type GitEndpoint } from '../../src/git/smart-http.js';

let app: FastifyInstance;
let base: string;
let tmp: string;
let repoDir: string;
const pushes: RefUpdate[][] = [];
let pushAllowed = true;
/** The push lock's database (SQLite: the lock is this process's own). */
let db: Db;

const run = promisify(execFile);
const gitEnv = {
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@e',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@e',
};

/** Runs git without blocking the event loop (the server under test lives in this process). */
async function git(args: string[], cwd: string): Promise<string> {
  return (await run('git', args, { cwd, env: gitEnv })).stdout;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-git-'));
  repoDir = gitDir(tmp, 'repos', 'o', 'r');
  await initBare(repoDir);
  db = connect(path.join(tmp, 'locks.sqlite'));
  app = Fastify();
  registerGitBodies(app);
  const handler = (endpoint: GitEndpoint) => async (request: any, reply: any) => {
    if (gitOperation(endpoint, request.query) === 'write' && !pushAllowed)
      return gitRefusal(reply, 403, 'Repository is locked for migration');
    return serveGit(request, reply, { repoDir, endpoint, remoteUser: 'tester', lockDb: db, onPush: async (u) => void pushes.push(u) });
  };
  app.get('/o/r.git/info/refs', handler('info/refs'));
  app.post('/o/r.git/git-upload-pack', handler('git-upload-pack'));
  app.post('/o/r.git/git-receive-pack', handler('git-receive-pack'));
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as any).port}`;
});
afterAll(async () => {
  await app?.close();
  await db?.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('git smart HTTP', () => {
  it('pushes a new branch, reports the ref update, and clones it back', async () => {
    const work = path.join(tmp, 'work');
    fs.mkdirSync(work);
    await git(['init', '-q', '-b', 'main'], work);
    fs.writeFileSync(path.join(work, 'a.txt'), 'hello\n');
    await git(['add', '.'], work);
    await git(['commit', '-qm', 'first'], work);
    const head = (await git(['rev-parse', 'HEAD'], work)).trim();
    await git(['push', '-q', `${base}/o/r.git`, 'main'], work);
    expect(pushes).toEqual([[{ ref: 'refs/heads/main', before: ZERO_SHA, after: head }]]);
    expect(await readRefs(repoDir)).toEqual({ 'refs/heads/main': head });

    const clone = path.join(tmp, 'clone');
    await git(['clone', '-q', `${base}/o/r.git`, clone], tmp);
    expect(fs.readFileSync(path.join(clone, 'a.txt'), 'utf8')).toBe('hello\n');
    expect((await git(['rev-parse', 'HEAD'], clone)).trim()).toBe(head);
  });

  it('shows a refusal message to the git client', async () => {
    pushAllowed = false;
    const work = path.join(tmp, 'clone');
    fs.writeFileSync(path.join(work, 'b.txt'), 'more\n');
    await git(['add', '.'], work);
    await git(['commit', '-qm', 'second'], work);
    const refused = await git(['push', '-q', 'origin', 'main'], work).then(
      () => '',
      (e: { stderr: string }) => String(e.stderr),
    );
    expect(refused).toContain('Repository is locked for migration');
    expect(pushes).toHaveLength(1);
    pushAllowed = true;
  });
});
