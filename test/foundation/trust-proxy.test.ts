// Behind a reverse proxy (`--trust-proxy`, HUBLET_TRUST_PROXY): without the setting X-Forwarded-For changes nothing (a
// client cannot pick its rate-limit bucket); with the proxy's address trusted, each forwarded client gets its own
// anonymous limit on the routed path and on the cached-read fast path alike, and the access log names it. A value that
// is no list of proxies stops the start (exit 2).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveProcesses } from '../helpers/serve-process.js';
import { runServe } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { countRouted } from '../helpers/routed-count.js';

let plain: TestServer;
let proxied: TestServer;
const gists = new Map<TestServer, string>();

beforeAll(async () => {
  plain = await startServer();
  proxied = await startServer({ config: { trustProxy: '127.0.0.1' } });
  for (const s of [plain, proxied]) {
    const created = await s.api('POST', '/gists', { token: s.adminToken, body: { public: true, files: { 'a.txt': { content: 'hi\n' } } } });
    expect(created.status).toBe(201);
    gists.set(s, created.body.id as string);
  }
});
afterAll(async () => {
  await plain?.close();
  await proxied?.close();
});

/** An anonymous GET over a fresh connection, X-Forwarded-For as given; its status and X-RateLimit-Used. */
function anonymous(server: TestServer, path: string, forwardedFor?: string): Promise<{ status: number; used: number; body: string }> {
  const headers: Record<string, string> = { accept: 'application/vnd.service+json' };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, used: Number(res.headers['x-ratelimit-used']), body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Reads the gist until the fast path answers it (its cached response current), so the next reads take that path. */
async function warm(server: TestServer, routed: () => number): Promise<void> {
  const path = `/gists/${gists.get(server)}`;
  for (let i = 0; i < 5; i++) {
    const before = routed();
    expect((await anonymous(server, path)).status).toBe(200);
    if (routed() === before) return;
  }
  throw new Error('the gist read was never answered from the cache');
}

describe('the client address behind a proxy', () => {
  it('without --trust-proxy, a forged X-Forwarded-For changes nothing: one bucket, on either path', async () => {
    const routed = countRouted(plain);
    await warm(plain, routed);
    const path = `/gists/${gists.get(plain)}`;
    const before = routed();
    const first = await anonymous(plain, path, '198.51.100.1');
    const second = await anonymous(plain, path, '198.51.100.2');
    // Both answered by the fast path.
    expect(routed()).toBe(before);
    expect(second.used).toBe(first.used + 1);
    const viaRoute = await anonymous(plain, '/users/admin', '198.51.100.3');
    expect(viaRoute.status).toBe(200);
    expect(viaRoute.used).toBe(first.used + 2);
    expect((await anonymous(plain, '/users/admin')).used).toBe(first.used + 3);
  });

  it('with 127.0.0.1 trusted, each forwarded client has its own anonymous limit on the fast path and the routed path', async () => {
    const routed = countRouted(proxied);
    await warm(proxied, routed);
    const path = `/gists/${gists.get(proxied)}`;
    const before = routed();
    expect((await anonymous(proxied, path, '203.0.113.1')).used).toBe(1);
    expect((await anonymous(proxied, path, '203.0.113.2')).used).toBe(1);
    expect((await anonymous(proxied, path, '203.0.113.1')).used).toBe(2);
    // A client may prepend what it likes; the address the trusted proxy appended is the one believed.
    expect((await anonymous(proxied, path, '192.0.2.9, 203.0.113.1')).used).toBe(3);
    // All answered by the fast path (on PostgreSQL too: the shared rate counts' flush leaves the change stamp alone).
    expect(routed()).toBe(before);

    const viaRoute = await anonymous(proxied, '/users/admin', '203.0.113.2');
    expect(viaRoute.status).toBe(200);
    expect(viaRoute.used).toBe(2);
    const limits = await anonymous(proxied, '/rate_limit', '203.0.113.1');
    expect(JSON.parse(limits.body).resources.core.used).toBe(3);
    // The proxy's own requests (no header) count as the proxy's: the warm-up's reads, not the clients'.
    const own = await anonymous(proxied, '/users/admin');
    expect(own.used).toBeGreaterThanOrEqual(2);
    expect(own.used).toBeLessThanOrEqual(6);
  });
});

describe('hublet serve --trust-proxy', () => {
  const serving = serveProcesses();

  it('names the forwarded client in the access log, from the route and from the fast path', async () => {
    const fresh = await serving.freshDataDir('logged');
    const admin = `hlp_${'P'.repeat(36)}`;
    const p = await serving.serve(
      ['--port', '0', '--data', fresh.dir, ...fresh.args, '--log-level', 'info', '--trust-proxy', '127.0.0.1'],
      { HUBLET_ADMIN_TOKEN: admin },
    );
    const created = await fetch(`${p.url}/gists`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ public: true, files: { 'a.txt': { content: 'hi\n' } } }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${p.url}/gists/${id}`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect(await p.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const lines = p
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request completed');
    expect(lines.map((l) => [l.method, l.status, l.ip])).toEqual([
      ['POST', 201, '127.0.0.1'],
      ['GET', 200, '203.0.113.7'],
      ['GET', 200, '203.0.113.7'],
    ]);
  });

  it('refuses a value that names no proxy, and a hop count, with exit 2 naming the setting', async () => {
    const fresh = await serving.freshDataDir('refused');
    const badCidr = await runServe(['--port', '0', '--data', fresh.dir, ...fresh.args], {
      env: serving.sandbox.env,
      extraEnv: { HUBLET_TRUST_PROXY: '127.0.0.1,10.0.0.0/33' },
    });
    expect(badCidr.code).toBe(2);
    expect(badCidr.stderr).toContain('trustProxy (HUBLET_TRUST_PROXY)');
    expect(badCidr.stderr).toContain('"10.0.0.0/33"');
    const hops = await runServe(['--port', '0', '--data', fresh.dir, ...fresh.args, '--trust-proxy', '1'], { env: serving.sandbox.env });
    expect(hops.code).toBe(2);
    expect(hops.stderr).toContain('trustProxy (HUBLET_TRUST_PROXY): a hop count trusts whoever connects');
  });
});
