// A git request whose body `git http-backend` stops reading (a large garbage push or fetch) leaves its keep-alive connection usable.
import crypto from 'node:crypto';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; token: string };
let gistId: string;

beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice');
  const g = await s.api('POST', '/gists', { token: alice.token, body: { files: { 'a.txt': { content: 'a\n' } } } });
  expect(g.status).toBe(201);
  gistId = g.body.id;
  const r = await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'r', auto_init: true } });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

const basic = () => `Basic ${Buffer.from(`${alice.login}:${alice.token}`).toString('base64')}`;

/**
 * Over ONE keep-alive connection: the garbage POST, then a GET of the same repository's refs. Both must be answered;
 * the second within 15 s (a stalled connection never answers; undici's own timeout turns that into a failure).
 */
async function garbageThenGet(repoPath: string, endpoint: 'git-receive-pack' | 'git-upload-pack', bytes: number) {
  const pool = new Pool(s.url, { connections: 1, pipelining: 1, headersTimeout: 15_000, bodyTimeout: 15_000 });
  try {
    const garbage = crypto.randomBytes(bytes);
    const first = await pool.request({
      method: 'POST',
      path: `${repoPath}/${endpoint}`,
      headers: { authorization: basic(), 'content-type': `application/x-${endpoint}-request` },
      body: garbage,
    });
    await first.body.arrayBuffer();
    const second = await pool.request({
      method: 'GET',
      path: `${repoPath}/info/refs?service=git-upload-pack`,
      headers: { authorization: basic() },
    });
    const text = Buffer.from(await second.body.arrayBuffer()).toString('latin1');
    return { first: first.statusCode, second: second.statusCode, advertised: text.includes('refs/heads/main') };
  } finally {
    await pool.destroy();
  }
}

describe('a git request body git does not read to the end', () => {
  for (const bytes of [100 * 1024, 1024 * 1024, 4 * 1024 * 1024]) {
    for (const endpoint of ['git-receive-pack', 'git-upload-pack'] as const) {
      it(`POST gist ${endpoint} with ${bytes} garbage bytes, then GET info/refs on the same connection: both answered`, async () => {
        const r = await garbageThenGet(`/gist/${gistId}.git`, endpoint, bytes);
        expect(r.first).toBeLessThan(500);
        expect(r).toMatchObject({ second: 200, advertised: true });
      });

      it(`POST repository ${endpoint} with ${bytes} garbage bytes, then GET info/refs on the same connection: both answered`, async () => {
        const r = await garbageThenGet(`/${alice.login}/r.git`, endpoint, bytes);
        expect(r.first).toBeLessThan(500);
        expect(r).toMatchObject({ second: 200, advertised: true });
      });
    }
  }
});
