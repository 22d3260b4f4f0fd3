// A real `hublet serve` SIGKILLed again and again in the middle of gist writes (API PATCH and POST, git pushes) and
// started again: afterwards every repository passes `git fsck --full`, every gist's API history is its git log, and
// `hublet admin fsck` finds nothing wrong.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pool, runCli, sandbox, startServe, type Sandbox, type ServeProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { fsckProblems, git, gitFails, withCredentials } from './git-tools.js';

const ROUNDS = 5;
const ADMIN_TOKEN = `hlp_killtest${Date.now().toString(36)}`;

let sb: Sandbox;
let dataDir: string;
let database: TestDatabase;
let server: ServeProcess | undefined;
let token: string;

async function start(): Promise<ServeProcess> {
  server = await startServe(['--data', dataDir, '--database', database.url, '--port', '0', '--log-level', 'fatal'], {
    env: sb.env,
    extraEnv: { HUBLET_ADMIN_TOKEN: ADMIN_TOKEN, HUBLET_RATE_LIMIT: '1000000', HUBLET_RATE_LIMIT_ANONYMOUS: '1000000' },
    timeoutMs: 30_000,
  });
  return server;
}

async function api(method: string, p: string, body?: unknown, auth = token): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server!.url}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${auth}`,
      accept: 'application/vnd.service+json',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

beforeAll(async () => {
  sb = sandbox();
  dataDir = path.join(sb.root, 'data');
  fs.mkdirSync(dataDir);
  database = await createTestDatabase(dataDir);
  await start();
  expect((await api('POST', '/admin/users', { login: 'alice' }, ADMIN_TOKEN)).status).toBe(201);
  token = (await api('POST', '/admin/users/alice/authorizations', { scopes: ['gist', 'repo'] }, ADMIN_TOKEN)).body.token;
}, 60_000);
afterAll(async () => {
  await server?.stop('SIGKILL');
  await database?.drop();
  sb?.cleanup();
});

/** Every page of a list endpoint. */
async function all(p: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const r = await api('GET', `${p}${p.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
    expect(r.status).toBe(200);
    out.push(...r.body);
    if (r.body.length < 100) return out;
  }
}

interface Load {
  stop(): void;
  done: Promise<void>;
  /** Writes that got an answer (of any status) so far: the server was busy with them. */
  answered(): number;
}

/** Writers hammering the gists until stopped or until the server dies under them (their errors are expected then). */
function startLoad(ids: string[], clones: Map<string, string>): Load {
  let stopped = false;
  let answered = 0;
  let n = 0;
  const loop = async (write: () => Promise<unknown>) => {
    while (!stopped) {
      try {
        await write();
        answered++;
      } catch {
        await new Promise((r) => setTimeout(r, 5)); // connection refused: the server is dead, wait for stop()
      }
    }
  };
  const pick = () => ids[Math.floor(Math.random() * ids.length)];
  const patcher = () =>
    loop(() => api('PATCH', `/gists/${pick()}`, { files: { [`f${n++ % 7}.txt`]: { content: `write ${n} ${'x'.repeat(n % 300)}\n` } } }));
  // A few creates a round: each new gist is one more repository to check at the end.
  let creates = 0;
  const creator = () =>
    loop(async () => {
      if (creates++ >= 4) return new Promise((r) => setTimeout(r, 20));
      return api('POST', '/gists', {
        public: true,
        files: { 'new.txt': { content: `created ${n++}\n` }, 'other.md': { content: '# other\n' } },
      });
    });
  const pusher = (id: string) =>
    loop(async () => {
      const dir = clones.get(id)!;
      await git(['fetch', '-q', 'origin'], dir).catch(() => {});
      await git(['reset', '-q', '--hard', 'origin/main'], dir).catch(() => {});
      fs.writeFileSync(path.join(dir, `pushed-${n % 5}.txt`), `pushed ${n++}\n`);
      await git(['add', '-A'], dir);
      await git(['commit', '-q', '-m', 'push under load'], dir);
      await gitFails(['push', '-q', withCredentials(`${server!.url}/gist/${id}.git`, 'alice', token), 'HEAD:main'], dir);
    });
  const done = Promise.all([patcher(), patcher(), patcher(), creator(), pusher(ids[0]), pusher(ids[1])]).then(() => undefined);
  return { stop: () => (stopped = true), done, answered: () => answered };
}

describe('SIGKILL during gist writes', () => {
  it(`leaves every repository sound and every history equal to git's, over ${ROUNDS} kills`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push((await api('POST', '/gists', { public: true, files: { 'start.txt': { content: `gist ${i}\n` } } })).body.id);
    const clones = new Map<string, string>();
    for (const id of ids.slice(0, 2)) {
      const dir = path.join(sb.root, `push-${id}`);
      await git(['clone', '-q', `${server!.url}/gist/${id}.git`, dir], sb.root);
      clones.set(id, dir);
    }

    let answered = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Remotes follow the server's new port.
      for (const [id, dir] of clones) await git(['remote', 'set-url', 'origin', `${server!.url}/gist/${id}.git`], dir);
      const load = startLoad(ids, clones);
      // Kill once the writers are in full swing, at a random moment of the burst.
      while (load.answered() < 15) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, Math.random() * 150));
      const exit = await server!.stop('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      load.stop();
      await load.done;
      answered += load.answered();
      await start();
    }
    expect(answered).toBeGreaterThan(ROUNDS * 15);

    // Every gist: the API's history is the first-parent log of a clone, its files are the clone's files.
    const gists = await all('/gists');
    expect(gists.length).toBeGreaterThanOrEqual(4);
    await pool(
      gists.map((g) => async () => {
        const commits = (await all(`/gists/${g.id}/commits`)).map((c) => c.version);
        const single = (await api('GET', `/gists/${g.id}`)).body;
        expect(single.history.map((h: { version: string }) => h.version)).toEqual(commits);
        const dir = path.join(sb.root, `check-${g.id}`);
        await git(['clone', '-q', `${server!.url}/gist/${g.id}.git`, dir], sb.root);
        expect((await git(['log', '--first-parent', '--format=%H'], dir)).trim().split('\n')).toEqual(commits);
        const onDisk = fs
          .readdirSync(dir)
          .filter((f) => f !== '.git')
          .sort();
        expect(onDisk).toEqual(Object.keys(single.files).sort());
        for (const name of onDisk) expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBe(single.files[name].content);
        // Every repository a gist row names passes git fsck --full.
        expect(await fsckProblems(path.join(dataDir, 'git', 'gists', `${g.id}.git`)), g.id).toBe('');
      }),
    );

    // And hublet's own check agrees (stopped first: it reads the data dir directly).
    await server!.stop('SIGTERM');
    server = undefined;
    const check = await runCli(['--data', dataDir, '--database', database.url, 'admin', 'fsck'], { env: sb.env, timeoutMs: 60_000 });
    expect({
      code: check.code,
      stderr: check.stderr,
      problems: check.stdout.split('\n').filter((l) => l && !l.startsWith('note:') && !l.startsWith('checked ')),
    }).toEqual({
      code: 0,
      stderr: '',
      problems: [],
    });
    expect(check.stdout).toMatch(new RegExp(`checked ${gists.length} gists and 0 repositories: no problems\\n$`));
  }, 120_000);
});
