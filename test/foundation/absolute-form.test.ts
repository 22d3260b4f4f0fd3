// A request target in absolute-form (`GET http://host/path HTTP/1.1`), which RFC 9112 §3.2.2 says a server must accept:
// the gist gem (gist-paste -l) requests the next page of a list so, with the Link header's URL as its target. hublet
// answers it as it answers the target's path: cached reads, other reads and writes, at the root and under /api/v3 (the
// router alone would find a root path in such a target, but neither the /api/v3 prefix nor the cached reads).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originForm } from '../../src/core/urls.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let owner: { login: string; token: string };
let port: number;

/** One request over a fresh connection, written as is; the status and the JSON body of the answer. */
function exchange(requestLine: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      const lines = [requestLine, `Host: 127.0.0.1:${port}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
      // Written, not ended: a half-closed connection is one the server may drop unanswered.
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
      const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
      let text = raw.slice(head.length + 4);
      // Chunked bodies: join the chunks' data.
      if (/^transfer-encoding: chunked$/im.test(head)) {
        let joined = '';
        for (let rest = text; ; ) {
          const eol = rest.indexOf('\r\n');
          const size = Number.parseInt(rest.slice(0, eol), 16);
          if (!size) break;
          joined += rest.slice(eol + 2, eol + 2 + size);
          rest = rest.slice(eol + 2 + size + 2);
        }
        text = joined;
      }
      resolve({ status, body: text ? JSON.parse(text) : null });
    });
  });
}

beforeAll(async () => {
  s = await startServer();
  port = Number(new URL(s.url).port);
  owner = await s.userWithToken('abby', ['gist']);
  for (const n of [1, 2, 3]) await s.createGist(owner.token, `gist ${n}`, { 'n.txt': `${n}\n` }, true);
});
afterAll(async () => {
  await s?.close();
});

describe('absolute-form request targets', () => {
  it('originForm keeps the path and query and leaves other targets alone', () => {
    expect(originForm('https://127.0.0.1:8443/api/v3/gists?per_page=100&page=2')).toBe('/api/v3/gists?per_page=100&page=2');
    expect(originForm('http://example.com')).toBe('/');
    expect(originForm('http://example.com?x=1')).toBe('/?x=1');
    expect(originForm('/gists')).toBe('/gists');
    expect(originForm('*')).toBe('*');
  });

  it('a read (the list under /api/v3, as gist-paste asks for page 2) answers as its path does', async () => {
    const auth = { Authorization: `token ${owner.token}`, Accept: 'application/vnd.service+json' };
    const viaPath = await s.api('GET', '/api/v3/gists?per_page=2&page=2', { token: owner.token });
    expect(viaPath.status).toBe(200);
    const absolute = await exchange(`GET ${s.url}/api/v3/gists?per_page=2&page=2 HTTP/1.1`, auth);
    expect(absolute).toEqual({ status: 200, body: viaPath.body });
    expect(absolute.body.map((g: any) => g.description)).toEqual(['gist 1']);
    // A cached read (public gists), answered before routing, is found by its path too.
    const publicList = await s.api('GET', '/gists/public');
    expect(await exchange(`GET ${s.url}/gists/public HTTP/1.1`, { Accept: 'application/vnd.service+json' })).toEqual({
      status: 200,
      body: publicList.body,
    });
  });

  it('a write in absolute-form under /api/v3 creates the gist, its API links under /api/v3', async () => {
    const created = await exchange(
      `POST ${s.url}/api/v3/gists HTTP/1.1`,
      { Authorization: `token ${owner.token}` },
      JSON.stringify({ description: 'absolute', public: false, files: { 'a.txt': { content: 'a\n' } } }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ description: 'absolute', public: false, owner: { login: 'abby' } });
    expect(created.body.url).toBe(`${s.url}/api/v3/gists/${created.body.id}`);
    expect((await s.api('GET', `/gists/${created.body.id}`)).status).toBe(200);
  });
});
