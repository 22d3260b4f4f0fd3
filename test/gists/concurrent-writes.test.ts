// Gist writes from several processes on one data dir and database (two servers, a server and the CLI in local mode)
// all land: a writer whose compare-and-set of the head loses re-reads the gist and applies its change again.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useTwoServers } from './two-servers.js';
import { git } from './git-tools.js';

const t = useTwoServers();

async function patch(base: string, id: string, files: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base}/gists/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${t.alice.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ files }),
  });
  return { status: res.status, text: await res.text() };
}

async function newGist(): Promise<{ id: string; git_pull_url: string }> {
  const r = await t.s.api('POST', '/gists', {
    token: t.alice.token,
    body: { public: true, files: { 'start.txt': { content: 'start\n' } } },
  });
  expect(r.status).toBe(201);
  return r.body;
}

/** The gist's files and history through the API, and its repository's log (after a clone, which syncs the ref). */
async function finalState(g: { id: string; git_pull_url: string }) {
  const single = (await t.s.api('GET', `/gists/${g.id}`)).body;
  const commits: string[] = [];
  for (let page = 1; ; page++) {
    const r = await t.s.api('GET', `/gists/${g.id}/commits?per_page=100&page=${page}`);
    commits.push(...r.body.map((c: { version: string }) => c.version));
    if (r.body.length < 100) break;
  }
  const dir = path.join(t.sb.root, `clone-${g.id}`);
  await git(['clone', '-q', g.git_pull_url, dir], t.sb.root);
  const log = (await git(['log', '--format=%H', '--first-parent'], dir)).trim().split('\n');
  return { files: single.files as Record<string, { content: string }>, commits, log, dir };
}

describe('concurrent gist writes from several processes', () => {
  it('two servers PATCHing one gist (different files) at once: every write succeeds and is in the gist and its history', async () => {
    const g = await newGist();
    const perServer = 60;
    const writes = [t.s.url, t.other.url].flatMap((base, server) =>
      Array.from({ length: perServer }, (_, i) => ({ base, name: `s${server}-${i}.txt`, content: `server ${server} write ${i}\n` })),
    );
    const results = await Promise.all(writes.map((w) => patch(w.base, g.id, { [w.name]: { content: w.content } })));
    expect(results.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.text}`)).toEqual([]);

    const state = await finalState(g);
    for (const w of writes) expect(state.files[w.name]?.content).toBe(w.content);
    expect(Object.keys(state.files)).toHaveLength(writes.length + 1);
    expect(state.commits).toHaveLength(writes.length + 1);
    expect(state.log).toEqual(state.commits);
  });

  it('a server and `hublet gist edit` in local mode at once: no 409, every change kept', async () => {
    const g = await newGist();
    const files = [0, 1, 2].map((i) => {
      const file = path.join(t.sb.root, `cli-${i}.txt`);
      fs.writeFileSync(file, `from the CLI ${i}\n`);
      return file;
    });
    const env = { ...t.sb.env, HUBLET_BASE_URL: t.s.url };
    let cliDone = false;
    const cli = Promise.all(
      files.map((file) =>
        runCli(['--data', t.s.dataDir, '--database', t.s.databaseUrl, '--as', 'alice', 'gist', 'edit', g.id, '--add', file], {
          env,
          timeoutMs: 60_000,
        }),
      ),
    ).finally(() => (cliDone = true));
    // The server keeps writing the same gist until every CLI process is done (bounded).
    const serverWrites: string[] = [];
    const serverLoop = (async () => {
      for (let i = 0; !cliDone && i < 400; i++) {
        const r = await patch(t.s.url, g.id, { [`srv-${i}.txt`]: { content: `server ${i}\n` } });
        expect(r.status, r.text).toBe(200);
        serverWrites.push(`srv-${i}.txt`);
      }
    })();
    const [results] = await Promise.all([cli, serverLoop]);
    for (const r of results) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });

    const state = await finalState(g);
    for (const file of files) expect(state.files[path.basename(file)]?.content).toBe(fs.readFileSync(file, 'utf8'));
    for (const name of serverWrites) expect(state.files[name]).toBeDefined();
    expect(state.commits).toHaveLength(files.length + serverWrites.length + 1);
    expect(state.log).toEqual(state.commits);
  });
});
