// PostgreSQL only (the SQLite pass leaves test/postgres/ out, vitest.config.ts): three real `hublet serve` processes on
// one PostgreSQL database and one data dir, requests spread across them, behave as one server: a write through any is in
// the next read through every other (response caches included); concurrent gist PATCHes and git pushes through
// different processes serialize (every change kept, git fsck clean, the API's history equal to git's, one `push` event
// per pushed ref); a delivery runs once, and one whose process is killed mid-delivery is finished by another after its
// lease; the rate limit is counted once across the processes.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryDir } from '../../src/repos/git-data.js';
import type { ServeProcess } from '../helpers/cli.js';
import { serveProcesses } from '../helpers/serve-process.js';
import { callsAs, eventually } from './calls.js';

const run = promisify(execFile);
const ADMIN_TOKEN = `hlp_multi${crypto.randomBytes(8).toString('hex')}`;
const { call, ok } = callsAs(ADMIN_TOKEN);
const ANONYMOUS_LIMIT = 20;
const p = serveProcesses();
let servers: ServeProcess[] = [];
let dataDir = '';
let hookId = 0;
const ORG = 'trio';

/** What the test's webhook receiver got: each request's event, delivery id, the pushed ref, and the sender's port. */
interface Hit {
  event: string;
  guid: string;
  ref?: string;
  before?: string;
  after?: string;
  commits?: string[];
  remotePort: number;
}
const hits: Hit[] = [];
let hang = false;
const hanging: http.ServerResponse[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const payload = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    hits.push({
      event: String(req.headers['x-service-event']),
      guid: String(req.headers['x-service-delivery']),
      ref: payload?.ref,
      before: payload?.before,
      after: payload?.after,
      commits: payload?.commits?.map((c: { id: string }) => c.id),
      remotePort: req.socket.remotePort ?? 0,
    });
    if (hang) hanging.push(res);
    else res.end('thanks');
  });
});

async function git(args: string[], cwd?: string) {
  return run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
}

const authed = (s: ServeProcess, p: string) => `${s.url.replace('://', `://admin:${ADMIN_TOKEN}@`)}${p}`;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const fresh = await p.freshDataDir('shared');
  dataDir = fresh.dir;
  const args = ['--data', fresh.dir, '--port', '0', ...fresh.args];
  const env = {
    HUBLET_ADMIN_TOKEN: ADMIN_TOKEN,
    HUBLET_HOOK_ALLOWED_HOSTS: 'loopback',
    HUBLET_HOOK_TIMEOUT_MS: '2000',
    HUBLET_HOOK_LEASE_MS: '3000',
    HUBLET_RATE_LIMIT_ANONYMOUS: String(ANONYMOUS_LIMIT),
  };
  servers = await Promise.all([0, 1, 2].map(() => p.serve(args, env, 90_000)));
  const [a] = servers;
  await ok(a, 'POST', '/admin/organizations', { login: ORG, admin: 'admin' }, 201);
  const hook = await ok(
    a,
    'POST',
    `/orgs/${ORG}/hooks`,
    {
      name: 'web',
      config: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, content_type: 'json' },
      events: ['push'],
    },
    201,
  );
  hookId = hook.id;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('a write through one process is in the next read through every other', () => {
  it('gists: created, read (and cached) everywhere, changed through another, read anew everywhere', async () => {
    const [a, b, c] = servers;
    const gist = await ok(a, 'POST', '/gists', { files: { 'a.txt': { content: 'one' } }, public: false }, 201);
    for (const s of servers) expect((await ok(s, 'GET', `/gists/${gist.id}`)).files['a.txt'].content).toBe('one');
    await ok(b, 'PATCH', `/gists/${gist.id}`, { description: 'two', files: { 'a.txt': { content: 'two' } } });
    for (const s of [a, c, a, c]) {
      const now = await ok(s, 'GET', `/gists/${gist.id}`);
      expect([now.description, now.files['a.txt'].content, now.history.length]).toEqual(['two', 'two', 2]);
    }
    await ok(c, 'DELETE', `/gists/${gist.id}`, undefined, 204);
    for (const s of servers) expect((await call(s, 'GET', `/gists/${gist.id}`)).status).toBe(404);
  });

  it('a token revoked through one process is refused by the next cached read through every other', async () => {
    const [a, b, c] = servers;
    await ok(a, 'POST', '/admin/users', { login: 'tess', email: 'tess@example.com' }, 201);
    const token = (await ok(b, 'POST', '/admin/users/tess/authorizations', { scopes: ['gist'] }, 201)).token as string;
    const gist = await ok(a, 'POST', '/gists', { files: { 'a.txt': { content: 'kept' } }, public: true }, 201);
    // Twice through each process: the answer and the token are kept (the cached read answers before routing).
    for (const s of [...servers, ...servers]) expect((await call(s, 'GET', `/gists/${gist.id}`, undefined, token)).status).toBe(200);
    await ok(b, 'DELETE', '/admin/users/tess/authorizations', undefined, 204);
    for (const s of [a, c, b]) {
      const refused = await call(s, 'GET', `/gists/${gist.id}`, undefined, token);
      expect([refused.status, refused.body.message]).toEqual([401, 'Bad credentials']);
    }
  });

  it('hooks and repositories: changed through one, read as changed through the others', async () => {
    const [a, b, c] = servers;
    await ok(b, 'PATCH', `/orgs/${ORG}/hooks/${hookId}`, { events: ['push', 'ping'] });
    for (const s of servers) expect((await ok(s, 'GET', `/orgs/${ORG}/hooks/${hookId}`)).events).toEqual(['push', 'ping']);
    await ok(a, 'POST', `/orgs/${ORG}/repos`, { name: 'seen' }, 201);
    for (const s of servers) expect((await ok(s, 'GET', `/repos/${ORG}/seen`)).description).toBeNull();
    await ok(c, 'PATCH', `/repos/${ORG}/seen`, { description: 'changed via c' });
    for (const s of [a, b]) expect((await ok(s, 'GET', `/repos/${ORG}/seen`)).description).toBe('changed via c');
  });
});

describe('concurrent writes through different processes serialize', () => {
  it('20 PATCHes of one gist, each changing its own file, spread over three processes: all kept, git and the API agree', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`);
    const gist = await ok(
      servers[0],
      'POST',
      '/gists',
      { files: Object.fromEntries(names.map((n) => [n, { content: `${n} before` }])) },
      201,
    );
    const results = await Promise.all(
      names.map((n, i) => call(servers[i % 3], 'PATCH', `/gists/${gist.id}`, { files: { [n]: { content: `${n} after` } } })),
    );
    expect(results.map((r) => r.status)).toEqual(names.map(() => 200));
    const final = await ok(servers[1], 'GET', `/gists/${gist.id}`);
    for (const n of names) expect(final.files[n].content).toBe(`${n} after`);
    const commits = await ok(servers[2], 'GET', `/gists/${gist.id}/commits?per_page=100`);
    expect(commits).toHaveLength(21);

    const clone = path.join(p.sandbox.root, `gist-${gist.id}`);
    await git(['clone', '--quiet', final.git_pull_url, clone]);
    const log = (await git(['log', '--format=%H', 'main'], clone)).stdout.trim().split('\n');
    expect(log).toEqual(commits.map((c: { version: string }) => c.version));
    await git(['fsck', '--strict'], clone);
    await git(['--git-dir', path.join(dataDir, 'git', 'gists', `${gist.id}.git`), 'fsck', '--strict']);
  }, 60_000);

  it('git pushes of six branches to one repository through three processes: each recorded once, one push event per ref', async () => {
    const repo = await ok(servers[0], 'POST', `/orgs/${ORG}/repos`, { name: 'pushed', auto_init: true }, 201);
    await eventually('the auto_init push delivered', () => hits.find((h) => h.event === 'push' && h.ref === 'refs/heads/main'));
    const work = path.join(p.sandbox.root, 'pushed');
    await git(['clone', '--quiet', authed(servers[1], `/${ORG}/pushed.git`), work]);
    const branches = Array.from({ length: 6 }, (_, i) => `b${i}`);
    for (const b of branches) {
      await git(['checkout', '--quiet', '-b', b, 'main'], work);
      fs.writeFileSync(path.join(work, `${b}.txt`), `${b}\n`);
      await git(['add', '.'], work);
      await git(['commit', '--quiet', '-m', b], work);
    }
    await Promise.all(branches.map((b, i) => git(['push', '--quiet', authed(servers[i % 3], `/${ORG}/pushed.git`), b], work)));

    const pushes = (ref: string) => hits.filter((h) => h.event === 'push' && h.ref === ref);
    await eventually('a push event per branch', () => (branches.every((b) => pushes(`refs/heads/${b}`).length >= 1) ? true : undefined));
    // Each delivery is recorded once its receiver has answered (in the next group commit): the hook's list, read through
    // another process, fills up to one push delivery per ref, and no more.
    const pushDeliveries = async () =>
      ((await ok(servers[2], 'GET', `/orgs/${ORG}/hooks/${hookId}/deliveries?per_page=100`)) as { event: string; guid: string }[]).filter(
        (d) => d.event === 'push',
      );
    await eventually('every push delivery recorded', async () =>
      (await pushDeliveries()).length >= 1 + branches.length ? true : undefined,
    );
    const deliveries = await pushDeliveries();
    const pushGuids = new Set(hits.filter((h) => h.event === 'push').map((h) => h.guid));
    expect(deliveries.filter((d) => d.event === 'push').length).toBe(1 + branches.length);
    expect(pushGuids.size).toBe(1 + branches.length);
    for (const b of branches) expect(pushes(`refs/heads/${b}`)).toHaveLength(1);
    expect(pushes('refs/heads/main')).toHaveLength(1);

    const bare = repositoryDir(dataDir, repo.id);
    await git(['--git-dir', bare, 'fsck', '--strict']);
    const refs = (await git(['--git-dir', bare, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'])).stdout
      .trim()
      .split('\n');
    const local = (await git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'], work)).stdout.trim().split('\n');
    expect(refs.sort()).toEqual(local.sort());
    // Each event names the commit its ref now points at, and the branch before the push (main's tip).
    const main = (await git(['rev-parse', 'main'], work)).stdout.trim();
    for (const b of branches) {
      const tip = (await git(['rev-parse', b], work)).stdout.trim();
      const hit = pushes(`refs/heads/${b}`)[0];
      expect([hit.after, hit.before]).toEqual([tip, '0000000000000000000000000000000000000000']);
      expect(hit.commits).toEqual([tip]);
      expect(main).not.toBe(tip);
    }
  }, 60_000);
});

describe('the rate limit, counted once across processes', () => {
  it('an anonymous caller that used its limit through one process is refused by the others once they share counts', async () => {
    const [a, b, c] = servers;
    for (let i = 0; i < ANONYMOUS_LIMIT; i++) expect((await call(a, 'GET', '/users/admin', undefined, null)).status).toBe(200);
    const refused = await call(a, 'GET', '/users/admin', undefined, null);
    expect(refused.status).toBe(403);
    for (const s of [b, c]) {
      let admitted = 0;
      const answer = await eventually(`${s.url} refuses`, async () => {
        const r = await call(s, 'GET', '/users/admin', undefined, null);
        if (r.status === 200) admitted++;
        return r.status === 403 ? r : undefined;
      });
      expect(answer.body.message).toMatch(/^API rate limit exceeded for 127\.0\.0\.1/);
      expect(Number(answer.headers.get('x-ratelimit-used'))).toBeGreaterThanOrEqual(ANONYMOUS_LIMIT);
      // Admitted only until this process's first flush (~200 ms) taught it the shared count: never a second limit's worth.
      expect(admitted).toBeLessThan(ANONYMOUS_LIMIT / 2);
    }
  });
});

describe('GET /rate_limit across processes', () => {
  it('shows the shared total on every process, also one that has not served the token (read when asked)', async () => {
    const [a, b, c] = servers;
    await ok(a, 'POST', '/admin/users', { login: 'counted', email: 'counted@example.test' }, 201);
    const { token } = await ok(a, 'POST', '/admin/users/counted/authorizations', { scopes: ['gist'] }, 201);
    for (let i = 0; i < 15; i++) expect((await call(a, 'GET', '/user', undefined, token)).status).toBe(200);
    // Once a's counts are shared (its flush follows within 200 ms), b and c, which never served this token, say 15.
    for (const s of [b, c]) {
      const seen = await eventually(`${s.url} shows 15 used`, async () => {
        const r = await call(s, 'GET', '/rate_limit', undefined, token);
        return r.body.resources.core.used === 15 ? r : undefined;
      });
      expect(seen.body.resources.core).toMatchObject({ limit: 5000, used: 15, remaining: 4985 });
      expect(seen.headers.get('x-ratelimit-used')).toBe('15');
    }
    const onA = await call(a, 'GET', '/rate_limit', undefined, token);
    expect(onA.body.resources.core.used).toBe(15);
  });
});

describe('deliveries across processes', () => {
  it('pings sent through all three are each delivered once', async () => {
    const before = hits.length;
    for (const s of [...servers, ...servers]) await ok(s, 'POST', `/orgs/${ORG}/hooks/${hookId}/pings`, undefined, 204);
    await eventually('six pings', () => (hits.slice(before).filter((h) => h.event === 'ping').length >= 6 ? true : undefined));
    const deliveries: { event: string; status_code: number }[] = await ok(
      servers[0],
      'GET',
      `/orgs/${ORG}/hooks/${hookId}/deliveries?per_page=100`,
    );
    const pings = hits.filter((h) => h.event === 'ping');
    expect(new Set(pings.map((h) => h.guid)).size).toBe(pings.length);
    expect(deliveries.filter((d) => d.event === 'ping').length).toBe(pings.length);
  });

  it('a process killed mid-delivery loses nothing: another delivers it after the lease', async () => {
    hang = true;
    const before = hits.length;
    await ok(servers[0], 'POST', `/orgs/${ORG}/hooks/${hookId}/pings`, undefined, 204);
    const first = await eventually('the ping to arrive', () => hits.slice(before).find((h) => h.event === 'ping'));
    const holder = servers.find((s) => ownsLoopbackPort(s.child.pid!, first.remotePort));
    expect(holder).toBeDefined();
    await holder!.stop('SIGKILL');
    hang = false;
    for (const res of hanging.splice(0)) res.destroy();
    const again = await eventually('the ping redelivered', () => hits.slice(before).filter((h) => h.guid === first.guid)[1]);
    expect(again.event).toBe('ping');
    const alive = servers.find((s) => s !== holder)!;
    const record = await eventually('the delivery recorded as 200', async () => {
      const list: { guid: string; status_code: number }[] = await ok(alive, 'GET', `/orgs/${ORG}/hooks/${hookId}/deliveries?per_page=100`);
      return list.find((d) => d.guid === first.guid && d.status_code === 200);
    });
    expect(record.guid).toBe(first.guid);
  }, 60_000);
});

/** Whether process `pid` holds the TCP socket whose local port on 127.0.0.1 is `port` (Linux /proc). */
function ownsLoopbackPort(pid: number, port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = fs.existsSync(table) ? fs.readFileSync(table, 'utf8') : '';
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && cols[1].endsWith(`:${hex}`)) inodes.add(cols[9]);
    }
  }
  let fds: string[] = [];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      return m !== null && inodes.has(m[1]);
    } catch {
      return false;
    }
  });
}
