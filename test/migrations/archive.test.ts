// Downloading and deleting archives: the signed URL (HEAD, Content-Length, Range, resumes), deletion, and expiry on an injected clock.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import type { TestServer } from '../helpers/server.js';
import { offsetClock, serverWithMonasRepos, tar, waitForState, type MonaServer } from './support.js';

/** The server's clock: real time plus an offset the tests move forward. */
const clock = offsetClock();
let setup: MonaServer;
let server: TestServer;
let mona: { token: string };
let tmp: string;

beforeAll(async () => {
  setup = await serverWithMonasRepos(clock, ['one', 'two']);
  ({ server, mona, tmp } = setup);
});
afterAll(async () => {
  await setup?.close();
});

async function exported(): Promise<number> {
  const r = await server.api('POST', '/user/migrations', { token: mona.token, body: { repositories: ['one', 'two'] } });
  expect(r.status).toBe(201);
  await waitForState(server, `/user/migrations/${r.body.id}`, mona.token);
  return r.body.id;
}

async function signedUrl(id: number): Promise<string> {
  const r = await fetch(`${server.url}/user/migrations/${id}/archive`, {
    headers: { authorization: `Bearer ${mona.token}` },
    redirect: 'manual',
  });
  expect(r.status).toBe(302);
  const text = await r.text();
  // GitHub's description has no JSON body for the 302: the text below is checked instead.
  checkSchema({ status: 302, headers: r.headers, body: '', text: '' }, 'GET /user/migrations/{migration_id}/archive');
  // The body is the signed URL as plain text, as GitHub sends it (PyGithub's get_archive_url() reads it from there).
  const location = r.headers.get('location')!;
  expect(location).toMatch(/^http:\/\//);
  expect(text).toBe(location);
  expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  return location;
}

function archiveFile(id: number): Promise<string> {
  return server.db
    .selectFrom('migrations')
    .select('guid')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
    .then((m) => path.join(server.dataDir, 'archives', 'migrations', `${m.guid}.tar.gz`));
}

describe('the signed archive URL', () => {
  let id: number;
  let whole: Buffer;
  let url: string;

  beforeAll(async () => {
    id = await exported();
    url = await signedUrl(id);
    whole = fs.readFileSync(await archiveFile(id));
  });

  it('serves the whole archive without credentials: Content-Length, application/gzip, byte ranges offered', async () => {
    const r = await fetch(url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/gzip');
    expect(r.headers.get('content-length')).toBe(String(whole.length));
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="[0-9a-f-]{36}\.tar\.gz"$/);
    expect(Buffer.from(await r.arrayBuffer()).equals(whole)).toBe(true);
  });

  it('answers HEAD with the headers and no body', async () => {
    const r = await fetch(url, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe(String(whole.length));
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-f-]{36}-\d+"$/);
    expect((await r.arrayBuffer()).byteLength).toBe(0);
  });

  it('resumes a partial download with Range (206, Content-Range), and the pieces make the archive', async () => {
    const half = Math.floor(whole.length / 2);
    const partial = path.join(tmp, 'partial.tar.gz');
    fs.writeFileSync(partial, whole.subarray(0, half));
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    const r = await fetch(url, { headers: { range: `bytes=${half}-`, 'if-range': etag } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes ${half}-${whole.length - 1}/${whole.length}`);
    expect(r.headers.get('content-length')).toBe(String(whole.length - half));
    fs.appendFileSync(partial, Buffer.from(await r.arrayBuffer()));
    expect(fs.readFileSync(partial).equals(whole)).toBe(true);
    expect((await tar(['-tzf', partial], tmp)).split('\n')).toContain('repositories/mona/two.git/HEAD');

    const middle = await fetch(url, { headers: { range: 'bytes=10-19' } });
    expect(middle.status).toBe(206);
    expect(Buffer.from(await middle.arrayBuffer()).equals(whole.subarray(10, 20))).toBe(true);
    const suffix = await fetch(url, { headers: { range: 'bytes=-5' } });
    expect(Buffer.from(await suffix.arrayBuffer()).equals(whole.subarray(whole.length - 5))).toBe(true);
  });

  it('answers a range past the end with 416, and ignores ranges it does not honour', async () => {
    const beyond = await fetch(url, { headers: { range: `bytes=${whole.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=9-3']) {
      const r = await fetch(url, { headers: { range } });
      expect([range, r.status]).toEqual([range, 200]);
      expect((await r.arrayBuffer()).byteLength).toBe(whole.length);
    }
    // A resume against a different version of the file (If-Range mismatch) gets the whole file.
    const stale = await fetch(url, { headers: { range: 'bytes=10-', 'if-range': '"something-else"' } });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(whole.length);
  });

  it('stops working once the URL expires (403); a fresh redirect works', async () => {
    clock.offsetMs += 301_000;
    try {
      const r = await fetch(url);
      expect(r.status).toBe(403);
      expect(await r.json()).toMatchObject({ message: 'Request has expired' });
      expect((await fetch(await signedUrl(id))).status).toBe(200);
    } finally {
      clock.offsetMs -= 301_000;
    }
  });
});

describe('DELETE …/archive', () => {
  it('deletes the archive (204): the file is gone, the archive is 404 and so are URLs handed out before', async () => {
    const id = await exported();
    const url = await signedUrl(id);
    const file = await archiveFile(id);
    expect(fs.existsSync(file)).toBe(true);
    const del = await server.octokit(mona.token).rest.migrations.deleteArchiveForAuthenticatedUser({ migration_id: id });
    expect(del.status).toBe(204);
    expect(fs.existsSync(file)).toBe(false);
    const get = await server.api('GET', `/user/migrations/${id}/archive`, { token: mona.token });
    expect(get.status).toBe(404);
    expect((await fetch(url)).status).toBe(404);
    expect((await server.api('DELETE', `/user/migrations/${id}/archive`, { token: mona.token })).status).toBe(404);
    // The migration itself remains, still exported, without an archive_url.
    const m = await server.api('GET', `/user/migrations/${id}`, { token: mona.token });
    expect(m.body.state).toBe('exported');
    expect(m.body.archive_url).toBeUndefined();
  });
});

describe('archive expiry', () => {
  it('deletes archives seven days after the export, by a job on the injected clock', async () => {
    const id = await exported();
    const file = await archiveFile(id);
    clock.offsetMs += 6 * 86_400_000;
    await new Promise((r) => setTimeout(r, 600));
    expect(fs.existsSync(file)).toBe(true);
    expect((await fetch(await signedUrl(id))).status).toBe(200);

    clock.offsetMs += 86_400_000 + 60_000;
    const deadline = Date.now() + 10_000;
    while (fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(file)).toBe(false);
    expect((await server.api('GET', `/user/migrations/${id}/archive`, { token: mona.token })).status).toBe(404);
    const row = await server.db
      .selectFrom('migrations')
      .select(['archive_deleted_at', 'archive_expires_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.archive_deleted_at).not.toBeNull();
  });
});
