// The CLI's client hides local vs remote: what differs is a method (settle, reach, serverPath). Locally, reach opens a
// loopback gateway into the in-process app that only this client's key passes, acting as its user, closed with it.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClient, type Client } from '../../src/cli/client.js';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let sb: Sandbox;
let env: NodeJS.ProcessEnv;
let carolToken: string;

beforeAll(async () => {
  s = await startServer();
  sb = sandbox();
  env = Object.fromEntries(Object.entries({ ...sb.env, HUBLET_BASE_URL: s.url }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  carolToken = (await s.userWithToken('carol', ['gist'])).token;
});
afterAll(async () => {
  await s?.close();
  sb?.cleanup();
});

async function withLocal<T>(as: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = await openClient({ data: s.dataDir, database: s.databaseUrl, as }, env);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

describe('local mode', () => {
  it('reach: the same path on a loopback gateway that answers only requests with its key, as the client’s user', async () => {
    let origin = '';
    await withLocal('carol', async (client) => {
      const reached = await client.reach(`${s.url}/user?x=1`);
      const url = new URL(reached.url);
      origin = url.origin;
      expect(url.hostname).toBe('127.0.0.1');
      expect(`${url.pathname}${url.search}`).toBe('/user?x=1');
      expect(reached.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const me = `${origin}/user`;

      const bearer = await fetch(me, { headers: { authorization: `Bearer ${reached.token}` } });
      expect(bearer.status).toBe(200);
      expect(((await bearer.json()) as { login: string }).login).toBe('carol');
      const basic = await fetch(me, {
        headers: { authorization: `Basic ${Buffer.from(`x-access-token:${reached.token}`).toString('base64')}` },
      });
      expect(((await basic.json()) as { login: string }).login).toBe('carol');

      // No key, a wrong key, a user's own token, or the local-actor header alone: refused before the app.
      const refusals = await Promise.all([
        fetch(me),
        fetch(me, { headers: { authorization: `Bearer ${'x'.repeat(43)}` } }),
        fetch(me, { headers: { authorization: `Bearer ${carolToken}` } }),
        fetch(me, { headers: { 'x-hublet-local-as': 'admin' } }),
      ]);
      for (const r of refusals) {
        expect(r.status).toBe(403);
        expect(await r.text()).not.toContain('login');
      }
      // The same gateway for every URL of this client.
      expect(new URL((await client.reach(`${s.url}/gist/abc.git`)).url).origin).toBe(origin);
    });
    // Closed with the client.
    await expect(fetch(`${origin}/user`)).rejects.toThrow();
  });

  it('serverPath is this machine’s, relative to the current directory', async () => {
    await withLocal('carol', async (client) => {
      expect(client.mode).toBe('local');
      expect(client.serverPath('some/repo')).toBe(path.resolve('some/repo'));
    });
  });
});

describe('remote mode', () => {
  it('reach is the URL itself (the token only when asked for); settle has nothing to run; paths are the server’s', async () => {
    const client = await openClient({ server: s.url, token: carolToken }, env);
    try {
      expect(client.mode).toBe('remote');
      const url = `${s.url}/storage/migrations/x.tar.gz?expires=1&signature=abc`;
      expect(await client.reach(url)).toEqual({ url, token: undefined });
      expect(await client.reach(url, { withToken: true })).toEqual({ url, token: carolToken });
      await expect(client.settle(['hooks.deliver'])).resolves.toBeUndefined();
      expect(client.serverPath('some/repo')).toBe('some/repo');
    } finally {
      await client.close();
    }
  });
});
