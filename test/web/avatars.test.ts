// Every account's avatar_url answers an image: GitHub's kind of identicon (a mirrored 5×5 grid in one colour) as a
// PNG, sized by `?s=`, the same for an account whatever its login becomes, different between accounts, and a
// not-found page or JSON 404 for an account that does not exist.
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  await s.createUser('alice');
  await s.createUser('bob');
  await s.createOrg('acme', 'alice');
});
afterAll(() => s?.close());

/** A PNG's size and its rows of palette indices (checks the signature, the chunks' CRCs and the deflated data). */
function decode(png: Buffer): { width: number; height: number; rows: number[][]; palette: Buffer } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let at = 8;
  let width = 0;
  let height = 0;
  let palette = Buffer.alloc(0);
  const data: Buffer[] = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(zlib.crc32(body, zlib.crc32(type)) >>> 0);
    if (type === 'IHDR') [width, height] = [body.readUInt32BE(0), body.readUInt32BE(4)];
    if (type === 'PLTE') palette = Buffer.from(body);
    if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(data));
  expect(raw.length).toBe(height * (width + 1));
  const rows = Array.from({ length: height }, (_, y) => [...raw.subarray(y * (width + 1) + 1, (y + 1) * (width + 1))]);
  return { width, height, rows, palette };
}

async function avatar(path: string, accept = 'image/*') {
  const res = await fetch(`${s.url}${path}`, { headers: { accept } });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
}

describe('GET /avatars/{login}', () => {
  it('answers the avatar_url the API hands out with a mirrored identicon PNG, 420 pixels by default', async () => {
    const user = await s.api('GET', '/users/alice');
    const url = new URL(user.body.avatar_url as string);
    expect(url.pathname).toBe('/avatars/alice');
    const r = await avatar(url.pathname);
    expect([r.status, r.type]).toEqual([200, 'image/png']);
    const { width, height, rows, palette } = decode(r.body);
    expect([width, height]).toEqual([420, 420]);
    expect(palette.length).toBe(6);
    for (const row of rows) expect(row).toEqual([...row].reverse());
    const used = new Set(rows.flat());
    expect(used.has(0)).toBe(true); // the margin at least
    expect(rows[0].every((v) => v === 0)).toBe(true);
  });

  it('takes ?s= (and ?size=) within 16 to 460 pixels', async () => {
    for (const [query, side] of [
      ['?s=64', 64],
      ['?size=100', 100],
      ['?s=1', 16],
      ['?s=100000', 460],
      ['?s=junk', 420],
      ['?s=1&s=40', 40],
    ] as const) {
      const r = await avatar(`/avatars/alice${query}`);
      expect(r.status, query).toBe(200);
      expect(decode(r.body).width, query).toBe(side);
    }
  });

  it('is the same image for an account after a rename, and differs between accounts', async () => {
    const before = (await avatar('/avatars/bob')).body;
    expect((await avatar('/avatars/BOB')).body.equals(before)).toBe(true);
    expect((await s.api('PATCH', '/admin/users/bob', { token: s.adminToken, body: { login: 'robert' } })).status).toBe(202);
    expect((await avatar('/avatars/robert')).body.equals(before)).toBe(true);
    expect((await avatar('/avatars/alice')).body.equals(before)).toBe(false);
    expect((await avatar('/avatars/acme')).status).toBe(200);
  });

  it('has no avatar for an account that does not exist: the not-found page for a browser, the API’s 404 otherwise', async () => {
    const page = await avatar('/avatars/nobody-here', 'text/html');
    expect([page.status, page.type]).toEqual([404, 'text/html; charset=utf-8']);
    const json = await avatar('/avatars/bob', 'application/json');
    expect(json.status).toBe(404);
    expect(JSON.parse(json.body.toString()).message).toBe('Not Found');
  });
});
