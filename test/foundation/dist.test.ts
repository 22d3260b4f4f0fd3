// `make dist`: dist/hublet is one file that runs alone (no node_modules, no checkout) and carries its sqlite3 addon.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const ADDON = path.join(ROOT, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Run extends Exit {
  stdout: string;
  stderr: string;
}

let tmp: string;
let exe: string;
let database: TestDatabase | undefined;
const children = new Set<ChildProcess>();

/** A fresh directory under this file's temp root. */
function dir(name: string): string {
  return fs.mkdtempSync(path.join(tmp, `${name}-`));
}

/** Only PATH plus a home and XDG dirs of its own: nothing from this checkout, no NODE_OPTIONS, no HUBLET_*. */
function sandboxEnv(cacheHome = dir('cache')): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dir('home'),
    XDG_CACHE_HOME: cacheHome,
    XDG_CONFIG_HOME: dir('config'),
    XDG_DATA_HOME: dir('data-home'),
  };
}

function start(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; exited: Promise<Exit> } {
  // cwd is the executable's own otherwise empty directory.
  const child = spawn(exe, args, { cwd: path.dirname(exe), env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, output: () => output, exited };
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(exe, args, { cwd: path.dirname(exe), env, timeout: 30_000 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(err);
      resolve({ code: err ? (err.code as number) : 0, signal: null, stdout, stderr });
    });
  });
}

/** `hublet serve --port 0 …` until it prints `hublet listening on URL`. */
async function serve(dataDir: string, env: NodeJS.ProcessEnv) {
  const args = ['serve', '--port', '0', '--data', dataDir, ...(database ? ['--database', database.url] : [])];
  const server = start(args, env);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line in 30s:\n${server.output()}`)), 30_000);
    server.child.stdout!.on('data', () => {
      const m = /^hublet listening on (http:\/\/\S+)$/m.exec(server.output());
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void server.exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`serve exited early (${JSON.stringify(exit)}):\n${server.output()}`));
    });
  });
  return { ...server, url };
}

function sha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Files under DIR, relative paths, sorted. */
function tree(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

beforeAll(async () => {
  // Builds dist/hublet unless it is newer than every source (then this is a no-op; `make test` built it already).
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts', 'build-dist.mjs')], { cwd: ROOT, maxBuffer: 2 ** 24 });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-dist-'));
  const alone = dir('run');
  exe = path.join(alone, 'hublet');
  fs.copyFileSync(path.join(ROOT, 'dist', 'hublet'), exe);
  fs.chmodSync(exe, 0o755);
  if (onPostgres) database = await createTestDatabase(dir('pg'));
}, 300_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await database?.drop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe(`dist/hublet alone in an empty directory (serving ${onPostgres ? 'PostgreSQL via --database' : 'SQLite'})`, () => {
  it('prints its version and nothing else, without unpacking anything (--version, -V; with more, the program answers)', async () => {
    const cache = dir('cache');
    for (const args of [['--version'], ['-V'], ['--version', '--json']]) {
      const result = await run(args, sandboxEnv(cache));
      expect(result, args.join(' ')).toEqual({ code: 0, signal: null, stdout: `${VERSION}\n`, stderr: '' });
    }
    expect(tree(cache)).toEqual([]);
  });

  it('serves the API until SIGTERM, then exits 0', async () => {
    const cache = dir('cache');
    const dataDir = dir('data');
    const server = await serve(dataDir, sandboxEnv(cache));
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const res = await fetch(`${server.url}/users/admin`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { login: string; url: string; site_admin: boolean };
    expect(body).toMatchObject({ login: 'admin', url: `${server.url}/users/admin`, site_admin: true });

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output()).not.toMatch(/ExperimentalWarning|single-executable/i);
    // Nothing was written next to the executable; the addon is unpacked only when SQLite is used.
    expect(fs.readdirSync(path.dirname(exe))).toEqual(['hublet']);
    expect(tree(cache)).toEqual(onPostgres ? [] : [expect.stringMatching(/^hublet\/[^/]+\/node_sqlite3\.node$/)]);
  });

  it('unpacks the sqlite3 addon once to $XDG_CACHE_HOME/hublet/<version>-<hash>/ and repairs a damaged copy (SQLite data dir)', async () => {
    const cache = dir('cache');
    const env = sandboxEnv(cache);
    const dataDir = dir('data');
    const getAdmin = ['--data', dataDir, 'api', '/users/admin'];

    // `hublet init` creates the data dir's database (client commands refuse a dir that holds none): the addon's first use.
    const init = await run(['init', '--data', dataDir], env);
    expect(init.code, init.stderr).toBe(0);
    expect(fs.readdirSync(dataDir)).toContain('hublet.sqlite');
    const first = await run(getAdmin, env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ login: 'admin' });
    const files = tree(cache);
    expect(files).toEqual([
      expect.stringMatching(new RegExp(`^hublet/${VERSION.replace(/\./g, '\\.')}-[0-9a-f]{16}/node_sqlite3\\.node$`)),
    ]);
    const unpacked = path.join(cache, files[0]);
    expect(sha256(unpacked)).toBe(sha256(ADDON));
    const stat = fs.statSync(unpacked);
    expect(stat.mode & 0o111).not.toBe(0);

    // A second run loads the same file, untouched.
    const second = await run(getAdmin, env);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ login: 'admin' });
    expect(fs.statSync(unpacked)).toMatchObject({ ino: stat.ino, mtimeMs: stat.mtimeMs });
    expect(tree(cache)).toEqual(files);

    // A truncated copy (a full disk, a careless cleanup) is replaced, not loaded.
    fs.truncateSync(unpacked, 4096);
    const third = await run(getAdmin, env);
    expect(third.code).toBe(0);
    expect(JSON.parse(third.stdout)).toMatchObject({ login: 'admin' });
    expect(sha256(unpacked)).toBe(sha256(ADDON));
    expect(tree(cache)).toEqual(files);
  });
});
