// A 200 MB repository of incompressible data is exported and downloaded by a child `hublet serve` whose peak memory barely moves.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { git, tar } from './support.js';

const MB = 1024 * 1024;
const REPO_BYTES = 200 * MB;
const ADMIN = 'hlp_memorytest0123456789abcdef';

let box: Sandbox;
let database: TestDatabase;
let serve: ServeProcess | undefined;
let dataDir: string;

/** Peak resident memory of a process so far (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

async function start(): Promise<ServeProcess> {
  return startServe(['--port', '0', '--log-level', 'warn'], {
    env: box.env,
    extraEnv: { HUBLET_DATA: dataDir, HUBLET_DATABASE: database.url, HUBLET_ADMIN_TOKEN: ADMIN },
    timeoutMs: 60_000,
  });
}

async function api(method: string, p: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${serve!.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.service+json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

beforeAll(async () => {
  box = sandbox();
  dataDir = path.join(box.root, 'data');
  fs.mkdirSync(dataDir);
  database = await createTestDatabase(dataDir);
});
afterAll(async () => {
  await serve?.stop();
  await database?.drop();
  box?.cleanup();
});

describe('exporting a 200 MB repository', () => {
  it('keeps the server’s peak memory within 100 MB of where it was, through export and download', { timeout: 600_000 }, async () => {
    serve = await start();
    expect((await api('POST', '/admin/users', ADMIN, { login: 'big' })).status).toBe(201);
    const tokenRes = await api('POST', '/admin/users/big/authorizations', ADMIN, { scopes: ['repo', 'user'] });
    const token = tokenRes.body.token as string;
    expect((await api('POST', '/user/repos', token, { name: 'huge' })).status).toBe(201);

    // 200 files of 1 MB of random bytes: nothing for git or gzip to compress.
    const work = path.join(box.root, 'work');
    fs.mkdirSync(work);
    await git(['init', '-q', '-b', 'main'], work);
    for (let i = 0; i < REPO_BYTES / MB; i++)
      fs.writeFileSync(path.join(work, `blob-${String(i).padStart(3, '0')}.bin`), crypto.randomBytes(MB));
    await git(['-c', 'core.looseCompression=0', 'add', '.'], work);
    await git(['commit', '-qm', 'random data'], work);
    const head = (await git(['rev-parse', 'HEAD'], work)).trim();
    const remote = new URL(`${serve.url}/big/huge.git`);
    remote.username = 'big';
    remote.password = token;
    await git(['-c', 'pack.window=0', '-c', 'pack.compression=0', 'push', '-q', remote.toString(), 'main'], work);
    fs.rmSync(work, { recursive: true, force: true });

    // Restart, so the peak measured before the export is the server at rest (not the push it received).
    await serve.stop();
    serve = await start();
    const pid = serve.child.pid!;
    expect((await api('GET', '/user/migrations', token)).status).toBe(200);
    const before = peakRss(pid);

    const started = await api('POST', '/user/migrations', token, { repositories: ['huge'] });
    expect(started.status).toBe(201);
    const id = started.body.id;
    const deadline = Date.now() + 480_000;
    let state = 'pending';
    while (!['exported', 'failed'].includes(state) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      state = (await api('GET', `/user/migrations/${id}`, token)).body.state;
    }
    expect(state).toBe('exported');

    const redirect = await fetch(`${serve.url}/user/migrations/${id}/archive`, {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    const file = path.join(box.root, 'huge.tar.gz');
    const res = await fetch(location);
    expect(res.status).toBe(200);
    const length = Number(res.headers.get('content-length'));
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), fs.createWriteStream(file));
    expect(fs.statSync(file).size).toBe(length);
    expect(length).toBeGreaterThan(REPO_BYTES);

    const growth = peakRss(pid) - before;
    expect(growth).toBeLessThan(100 * MB);

    const out = path.join(box.root, 'extracted');
    fs.mkdirSync(out);
    await tar(['-xzf', file], out);
    fs.rmSync(file);
    const clone = path.join(box.root, 'clone');
    await git(['clone', '-q', '--no-checkout', path.join(out, 'repositories', 'big', 'huge.git'), clone], box.root);
    expect((await git(['rev-parse', 'HEAD'], clone)).trim()).toBe(head);
    expect((await git(['ls-tree', '-r', '--name-only', 'HEAD'], clone)).trim().split('\n')).toHaveLength(REPO_BYTES / MB);
    process.stdout.write(
      `peak memory before ${Math.round(before / MB)} MB, growth ${Math.round(growth / MB)} MB, archive ${Math.round(length / MB)} MB\n`,
    );
  });
});
