// A server without `git` on its PATH: the repository API still works (objects are written in-process), git hosting and
// imports answer 503.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../helpers/cli.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.js';

// Real git processes: a loaded two-core machine needs more than the default per-test time.
vi.setConfig({ testTimeout: 120_000 });

let sb: Sandbox;
let serve: ServeProcess;
let db: TestDatabase;
const adminToken = `hlp_${'N'.repeat(36)}`;

async function call(method: string, p: string, token?: string, body?: unknown) {
  const res = await fetch(`${serve.url}${p}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
}

beforeAll(async () => {
  sb = sandbox();
  // A PATH holding node alone: bin/hublet starts, and `git` is nowhere to be found.
  const bin = path.join(sb.root, 'bin');
  fs.mkdirSync(bin);
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  const data = path.join(sb.root, 'data');
  fs.mkdirSync(data);
  db = await createTestDatabase(data);
  serve = await startServe(['--port', '0', '--data', data, ...(onPostgres ? ['--database', db.url] : [])], {
    env: { ...sb.env, PATH: bin },
    extraEnv: { HUBLET_ADMIN_TOKEN: adminToken, HUBLET_LOG_LEVEL: 'error' },
    timeoutMs: 120_000,
  });
});
afterAll(async () => {
  await serve?.stop();
  await db?.drop();
  sb?.cleanup();
});

describe('without git on the server', () => {
  it('creates repositories (auto_init included) and answers git and import requests with 503', async () => {
    expect((await call('POST', '/admin/users', adminToken, { login: 'alice' })).status).toBe(201);
    const token = (await call('POST', '/admin/users/alice/authorizations', adminToken, { scopes: ['repo'] })).body.token as string;
    const created = await call('POST', '/user/repos', token, { name: 'still-works', auto_init: true });
    expect(created.status).toBe(201);
    expect(created.body.default_branch).toBe('main');
    expect((await call('GET', '/repos/alice/still-works')).status).toBe(200);

    const refs = await call('GET', '/alice/still-works.git/info/refs?service=git-upload-pack');
    expect(refs.status).toBe(503);
    expect(refs.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(refs.text).toContain('no `git` executable');

    const imported = await call('POST', '/admin/repos/import', adminToken, { owner: 'alice', name: 'copy', path: sb.root });
    expect(imported.status).toBe(503);
    expect(imported.body.message).toContain('Git hosting is unavailable');
  });
});
