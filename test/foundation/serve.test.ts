// `hublet serve` as a child process: flags and HUBLET_* settings, the listening line, the first start's admin token,
// JSON request logs without credentials, links from --base-url, clean stops on signals, refusing a newer database.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { runServe } from '../helpers/cli.js';
import { onPostgres } from '../helpers/database.js';
import { type FreshDataDir, serveProcesses } from '../helpers/serve-process.js';

const serving = serveProcesses();
const { freshDataDir, serve } = serving;

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** The JSON log lines on stdout. */
const logLines = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('hublet serve', () => {
  let first: FreshDataDir;
  let adminToken: string;

  it('starts on an empty data dir: one listening line with the real port, a one-time admin token, request logs without credentials, exit 0 on SIGTERM', async () => {
    first = await freshDataDir('first');
    const p = await serve([
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data',
      first.dir,
      ...first.args,
      '--base-url',
      'https://hub.example.test',
      '--log-level',
      'info',
    ]);
    expect(p.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(p.port).toBeGreaterThan(0);
    await p.waitFor(/its token \(shown once\): hlp_\w+\n/);
    adminToken = /its token \(shown once\): (hlp_\w+)\n/.exec(p.stdout())![1];

    const me = await get(`${p.url}/user`, { authorization: `Bearer ${adminToken}` });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ login: 'admin', site_admin: true });
    expect(me.headers.get('x-oauth-scopes')).toContain('site_admin');
    // Links use --base-url, whatever address the request came to.
    expect(me.body.url).toBe('https://hub.example.test/users/admin');

    // A user's token, sent in every way a client might, and an unknown one: none may reach the log.
    const created = await fetch(`${p.url}/admin/users/admin/authorizations`, {
      method: 'POST',
      headers: { authorization: `token ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['gist'] }),
    });
    const secret = ((await created.json()) as { token: string }).token;
    const unknown = `hlp_${'S'.repeat(36)}`;
    await get(`${p.url}/users/admin?access_token=${secret}`, { authorization: `Bearer ${secret}` });
    await get(`${p.url}/users/admin?per_page=1&access_token=${secret}&token=${secret}`);
    await get(`${p.url}/user`, { authorization: `Basic ${Buffer.from(`git:${secret}`).toString('base64')}` });
    const refused = await get(`${p.url}/user?access_token=${unknown}`, { authorization: `token ${unknown}` });
    expect(refused.status).toBe(401);
    await p.waitFor(/"status":401/);

    const lines = logLines(p.stdout());
    const done = lines.filter((l) => l.msg === 'request completed');
    expect(done.length).toBeGreaterThanOrEqual(5);
    const profile = done.find((l) => l.route === '/users/:username')!;
    expect(profile).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/users/:username',
      status: 200,
      reqId: expect.any(String),
      duration_ms: expect.any(Number),
    });
    expect(new Set(done.map((l) => l.reqId)).size).toBe(done.length);
    expect(done.find((l) => l.status === 401)).toMatchObject({ method: 'GET', route: '/user' });
    const everything = p.stdout() + p.stderr();
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(unknown);
    expect(everything).toContain('access_token=********');

    // Exactly one listening line, and the token once.
    expect(p.stdout().match(/^hublet listening on .*$/gm)).toEqual([`hublet listening on ${p.url}`]);
    expect(p.stdout().split(adminToken).length - 1).toBe(1);

    expect(await p.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('starts again on the same data dir from HUBLET_* settings: no new token, the old one works, exit 0 on SIGINT', async () => {
    expect(adminToken).toBeTruthy();
    const p = await serve([], {
      HUBLET_HOST: '127.0.0.1',
      HUBLET_PORT: '0',
      HUBLET_DATA: first.dir,
      ...(onPostgres ? { HUBLET_DATABASE: first.db.url } : {}),
      HUBLET_BASE_URL: 'http://links.example.test:8080/',
      HUBLET_LOG_LEVEL: 'warn',
    });
    const me = await get(`${p.url}/user`, { authorization: `token ${adminToken}` });
    expect(me.status).toBe(200);
    expect(me.body.url).toBe('http://links.example.test:8080/users/admin');
    expect(await p.stop('SIGINT')).toEqual({ code: 0, signal: null });
    expect(p.stdout()).not.toContain('shown once');
    expect(p.stdout()).not.toMatch(/hlp_/);
    // warn: no request logs.
    expect(logLines(p.stdout()).filter((l) => l.msg === 'request completed')).toEqual([]);
    expect(p.stdout().match(/^hublet listening on .*$/gm)).toHaveLength(1);
  });

  it('takes HUBLET_ADMIN_TOKEN as the admin token on first start (printing none) and honours --database', async () => {
    const fresh = await freshDataDir('fixed');
    const fixed = `hlp_${'F'.repeat(36)}`;
    const file = path.join(fresh.dir, 'elsewhere', 'custom.sqlite');
    const p = await serve(['--port', '0', '--data', fresh.dir, '--database', onPostgres ? fresh.db.url : file, '--log-level', 'silent'], {
      HUBLET_ADMIN_TOKEN: fixed,
    });
    const me = await get(`${p.url}/user`, { authorization: `Bearer ${fixed}` });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ login: 'admin', site_admin: true });
    // The default base URL is the address the server listens on.
    expect(me.body.url).toBe(`${p.url}/users/admin`);
    expect(p.stdout()).not.toContain('shown once');
    expect(p.stdout()).not.toContain(fixed);
    expect(p.stdout()).toBe(`hublet listening on ${p.url}\n`); // silent: nothing else
    expect(await p.stop()).toEqual({ code: 0, signal: null });
    if (!onPostgres) {
      expect(fs.existsSync(file)).toBe(true);
      expect(fs.existsSync(path.join(fresh.dir, 'hublet.sqlite'))).toBe(false);
    }
  });

  it('refuses a database written by a newer hublet, saying so, and exits non-zero', async () => {
    const fresh = await freshDataDir('newer');
    const db = connect(fresh.db.url);
    try {
      await migrateToLatest(db);
      await sql`insert into kysely_migration (name, timestamp) values (${'2999-01-01T00-00-from-the-future'}, ${new Date().toISOString()})`.execute(
        db,
      );
    } finally {
      await db.destroy();
    }
    const r = await runServe(['--port', '0', '--data', fresh.dir, '--database', fresh.db.url], { env: serving.sandbox.env });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    expect(r.stderr).toMatch(/newer version of hublet/);
    expect(r.stderr).toContain('2999-01-01T00-00-from-the-future');
    expect(r.stdout).not.toContain('listening');
  });

  it('lists every configuration problem at once and exits 2', async () => {
    const r = await runServe(['--port', '99999', '--log-level', 'chatty', '--base-url', 'ftp://x'], {
      env: serving.sandbox.env,
      extraEnv: { HUBLET_DATA: path.join(serving.sandbox.root, 'never') },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid configuration');
    expect(r.stderr).toContain('port (HUBLET_PORT)');
    expect(r.stderr).toContain('logLevel (HUBLET_LOG_LEVEL)');
    expect(r.stderr).toContain('baseUrl (HUBLET_BASE_URL)');
    expect(r.stdout).toBe('');
    expect(fs.existsSync(path.join(serving.sandbox.root, 'never'))).toBe(false);
  });
});
