// A `git push` to a gist on one server process racing an API write to the same gist on another: git never reports a
// push that is not kept, and every write that succeeded is in the gist, its history and its repository.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTwoServers } from './two-servers.js';
import { gitDir } from '../../src/git/bare.js';
import { git, withCredentials } from './git-tools.js';

const t = useTwoServers();

async function patch(base: string, id: string, name: string, content: string): Promise<number> {
  const res = await fetch(`${base}/gists/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${t.alice.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ files: { [name]: { content } } }),
  });
  await res.text();
  return res.status;
}

/** Resolves with the new content of the ref file once it names `sha` (git has moved the branch), or when `stop` settles. */
function branchMovedTo(refFile: string, sha: string, stop: Promise<unknown>): Promise<boolean> {
  return new Promise((resolve) => {
    const moved = () => {
      try {
        return fs.readFileSync(refFile, 'utf8').trim() === sha;
      } catch {
        return false;
      }
    };
    const watcher = fs.watch(path.dirname(refFile), () => {
      if (moved()) finish(true);
    });
    const finish = (value: boolean) => {
      watcher.close();
      resolve(value);
    };
    void stop.finally(() => finish(moved()));
  });
}

describe('git push racing an API write from another process', () => {
  it('every push git reports as done and every PATCH answered 200 is in the gist, its history and its clone', async () => {
    const created = await t.s.api('POST', '/gists', {
      token: t.alice.token,
      body: { public: true, files: { 'start.txt': { content: 'start\n' } } },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const refFile = path.join(gitDir(t.s.dataDir, 'gists', id), 'refs', 'heads', 'main');
    const work = path.join(t.sb.root, 'work');
    await git(['clone', '-q', withCredentials(`${t.other.url}/gist/${id}.git`, t.alice.login, t.alice.token), work], t.sb.root);
    const pushUrl = (base: string) => withCredentials(`${base}/gist/${id}.git`, t.alice.login, t.alice.token);

    const pushed: string[] = [];
    const refused: string[] = [];
    const patched: string[] = [];
    const refusals: string[] = [];
    for (let round = 0; round < 10; round++) {
      await git(['fetch', '-q', 'origin'], work);
      await git(['reset', '-q', '--hard', 'origin/main'], work);
      const name = `push-${round}.txt`;
      fs.writeFileSync(path.join(work, name), `pushed in round ${round}\n`);
      await git(['add', name], work);
      await git(['commit', '-qm', `round ${round}`], work);
      const sha = (await git(['rev-parse', 'HEAD'], work)).trim();

      // The push goes to one process, the PATCH to the other (each way in turn), a little later each round from the
      // moment git has moved the branch on disk: between git's ref update and the push's record, or just after.
      const [pushTo, patchTo] = round % 2 === 0 ? [t.other.url, t.s.url] : [t.s.url, t.other.url];
      const delay = Math.floor(round / 2) * 4;
      const push = git(['push', '-q', pushUrl(pushTo), 'main'], work).then(
        () => true,
        (e: { stderr: string }) => {
          refusals.push(String(e.stderr));
          return false;
        },
      );
      const patchedName = `patch-${round}.txt`;
      const write = branchMovedTo(refFile, sha, push).then(async () => {
        if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
        const status = await patch(patchTo, id, patchedName, `patched in round ${round}\n`);
        expect(status).toBe(200);
        patched.push(patchedName);
      });
      const [ok] = await Promise.all([push, write]);
      (ok ? pushed : refused).push(name);
    }

    // A push that races nothing is taken as before.
    await git(['fetch', '-q', 'origin'], work);
    await git(['reset', '-q', '--hard', 'origin/main'], work);
    fs.writeFileSync(path.join(work, 'last.txt'), 'last\n');
    await git(['add', 'last.txt'], work);
    await git(['commit', '-qm', 'last'], work);
    await git(['push', '-q', 'origin', 'main'], work);
    pushed.push('last.txt');

    const gist = (await t.s.api('GET', `/gists/${id}`)).body;
    const commits: string[] = [];
    for (let page = 1; ; page++) {
      const r = await t.s.api('GET', `/gists/${id}/commits?per_page=100&page=${page}`);
      commits.push(...r.body.map((c: { version: string }) => c.version));
      if (r.body.length < 100) break;
    }
    const clone = path.join(t.sb.root, 'clone');
    await git(['clone', '-q', `${t.s.url}/gist/${id}.git`, clone], t.sb.root);
    const log = (await git(['log', '--format=%H', '--first-parent'], clone)).trim().split('\n');
    const kept = (name: string) => ({
      name,
      api: gist.files[name]?.content ?? null,
      clone: fs.existsSync(path.join(clone, name)) ? fs.readFileSync(path.join(clone, name), 'utf8') : null,
    });

    for (const name of pushed) {
      const content = name === 'last.txt' ? 'last\n' : `pushed in round ${name.slice(5, -4)}\n`;
      expect(kept(name), `git reported ${name} pushed`).toEqual({ name, api: content, clone: content });
    }
    for (const name of refused) expect(kept(name), `git reported ${name} refused`).toEqual({ name, api: null, clone: null });
    // A push that lost to the other write is refused the way a stale push is: git's own "fetch first" advice.
    for (const stderr of refusals) expect(stderr).toContain('main -> main (fetch first)');
    for (const name of patched) {
      const content = `patched in round ${name.slice(6, -4)}\n`;
      expect(kept(name)).toEqual({ name, api: content, clone: content });
    }
    expect(log).toEqual(commits);
    expect(commits).toHaveLength(1 + pushed.length + patched.length);
    expect(gist.history.map((h: { version: string }) => h.version)).toEqual(commits.slice(0, gist.history.length));
  }, 120_000); // rounds of real git pushes racing API writes through two processes: slow on a loaded machine, never timed here
});
