// `hublet serve`'s access log, written through a buffer: every request still gets exactly one line, the same whether
// its route or the cached-read fast path answered it, never with a credential, and the last lines reach stdout when
// the server stops on SIGTERM right after answering them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../helpers/cli.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.js';

let sb: Sandbox;
let db: TestDatabase | undefined;
let p: ServeProcess | undefined;

beforeAll(() => {
  sb = sandbox();
});
afterAll(async () => {
  await p?.stop('SIGKILL');
  await db?.drop();
  sb?.cleanup();
});

describe('the access log of hublet serve', () => {
  it('one line per request from either path, no secret, all of them written when SIGTERM follows at once', async () => {
    const dir = path.join(sb.root, 'log');
    fs.mkdirSync(dir);
    db = await createTestDatabase(dir);
    const admin = `hlp_${'A'.repeat(36)}`;
    p = await startServe(['--port', '0', '--data', dir, ...(onPostgres ? ['--database', db.url] : []), '--log-level', 'info'], {
      env: sb.env,
      extraEnv: { HUBLET_ADMIN_TOKEN: admin },
    });
    const url = p.url;
    const call = async (method: string, p: string, token?: string, body?: unknown) => {
      const headers: Record<string, string> = { accept: 'application/vnd.service+json' };
      if (token) headers.authorization = `Bearer ${token}`;
      if (body) headers['content-type'] = 'application/json';
      const res = await fetch(url + p, { method, headers, body: body ? JSON.stringify(body) : undefined });
      const text = await res.text();
      return { status: res.status, body: text && method !== 'HEAD' ? JSON.parse(text) : null };
    };
    const id = (await call('POST', '/gists', admin, { public: true, files: { 'a.txt': { content: 'hi\n' } } })).body.id as string;
    // Each read twice: the first built by its route, the second answered from the cache before routing.
    const reads: [string, string, string | undefined][] = [
      ['GET', `/gists/${id}`, admin],
      ['GET', `/gists/${id}`, admin],
      ['GET', `/gists/${id}?access_token=${admin}`, undefined],
      ['GET', `/gists/${id}?access_token=${admin}`, undefined],
      ['HEAD', `/api/v3/gists/${id}`, undefined],
      ['HEAD', `/api/v3/gists/${id}`, undefined],
    ];
    for (const [method, path, token] of reads) expect((await call(method, path, token)).status).toBe(200);
    expect(await p.stop('SIGTERM')).toEqual({ code: 0, signal: null });

    const out = p.stdout();
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request completed');
    expect(lines.map((l) => [l.method, l.status])).toEqual([['POST', 201], ...reads.map(([m]) => [m, 200])]);
    expect(new Set(lines.map((l) => l.reqId)).size).toBe(lines.length);
    const same = (l: Record<string, unknown>) => ({ ...l, reqId: undefined, time: undefined, duration_ms: undefined });
    for (let i = 1; i < lines.length; i += 2) {
      expect(same(lines[i + 1])).toEqual(same(lines[i]));
      expect(lines[i]).toMatchObject({ level: 30, route: '/gists/:gist_id', reqId: expect.any(String), duration_ms: expect.any(Number) });
    }
    expect(lines[1].user).toBe('admin');
    expect(lines[3].url).toBe(`/gists/${id}?access_token=********`);
    expect(lines[5].url).toBe(`/gists/${id}`);
    expect(out + p.stderr()).not.toContain(admin.slice(4));
  });
});
