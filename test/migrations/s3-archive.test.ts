// Archives in an S3 bucket (s3rver on loopback): the object really is in the bucket, GET …/archive answers 302 to a
// pre-signed URL of the store (followed by a client, Range resumes, expiry), and deletion and the 7-day expiry delete it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-inprocess.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import type { TestServer } from '../helpers/server.js';
import { authedUrl, git, offsetClock, serverWithMonasRepos, tar, tempDir, waitForState, type MonaServer } from './support.js';

const PREFIX = 'hublet/test';
const clock = offsetClock();
let s3: TestS3;
let setup: MonaServer;
let server: TestServer;
let mona: { token: string };
let tmp: string;

beforeAll(async () => {
  s3 = await startS3();
  setup = await serverWithMonasRepos(clock, ['one', 'two'], s3.config(PREFIX));
  ({ server, mona, tmp } = setup);
});
afterAll(async () => {
  await setup?.close();
  await s3?.close();
});

async function exported(): Promise<{ id: number; guid: string }> {
  const r = await server.api('POST', '/user/migrations', { token: mona.token, body: { repositories: ['one', 'two'] } });
  expect(r.status).toBe(201);
  const m = await waitForState(server, `/user/migrations/${r.body.id}`, mona.token);
  expect(m.state).toBe('exported');
  return { id: r.body.id, guid: r.body.guid };
}

const objectKey = (guid: string) => `${PREFIX}/migrations/${guid}.tar.gz`;

/** The 302 of GET …/archive: a pre-signed URL of the object in the bucket, also as the plain-text body. */
async function presignedUrl(id: number): Promise<string> {
  const r = await fetch(`${server.url}/user/migrations/${id}/archive`, {
    headers: { authorization: `Bearer ${mona.token}` },
    redirect: 'manual',
  });
  expect(r.status).toBe(302);
  const location = r.headers.get('location')!;
  expect(await r.text()).toBe(location);
  return location;
}

describe('an export to S3', () => {
  let id: number;
  let guid: string;
  let whole: Buffer;

  beforeAll(async () => {
    ({ id, guid } = await exported());
    whole = await s3.read(objectKey(guid));
  });

  it('puts the archive in the bucket under the prefix (listed through the SDK), and nothing in the data dir', async () => {
    const objects = await s3.list(`${PREFIX}/`);
    expect(objects).toContainEqual({ key: objectKey(guid), size: whole.length });
    const row = await server.db
      .selectFrom('migrations')
      .select(['archive_key', 'archive_size'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(row.archive_size)).toBe(whole.length);
    expect(fs.existsSync(path.join(server.dataDir, 'archives', 'migrations', `${guid}.tar.gz`))).toBe(false);
    const file = path.join(tmp, 'from-bucket.tar.gz');
    fs.writeFileSync(file, whole);
    expect((await tar(['-tzf', file], tmp)).split('\n')).toEqual(
      expect.arrayContaining(['schema.json', 'repositories/mona/one.git/HEAD', 'repositories/mona/two.git/HEAD']),
    );
  });

  it('answers GET …/archive with 302 to a path-style pre-signed URL of the store, valid for the configured 300 s', async () => {
    const location = new URL(await presignedUrl(id));
    expect(location.origin).toBe(s3.endpoint);
    expect(location.pathname).toBe(`/${s3.bucket}/${objectKey(guid)}`);
    expect(location.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('serves the archive from the store to a client that follows the redirect (its Authorization is not sent on)', async () => {
    const r = await fetch(`${server.url}/user/migrations/${id}/archive`, { headers: { authorization: `Bearer ${mona.token}` } });
    expect(r.status).toBe(200);
    expect(new URL(r.url).origin).toBe(s3.endpoint);
    expect(r.headers.get('content-type')).toBe('application/gzip');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="${guid}.tar.gz"`);
    expect(r.headers.get('content-length')).toBe(String(whole.length));
    expect(Buffer.from(await r.arrayBuffer()).equals(whole)).toBe(true);

    // Octokit follows it too (its download method returns the bytes).
    const viaOctokit = await server.octokit(mona.token).rest.migrations.getArchiveForAuthenticatedUser({ migration_id: id });
    expect(Buffer.from(viaOctokit.data as unknown as ArrayBuffer).equals(whole)).toBe(true);
  });

  it('resumes a partial download with Range straight from the store (206, Content-Range, If-Range on its ETag)', async () => {
    const url = await presignedUrl(id);
    const half = Math.floor(whole.length / 2);
    const partial = path.join(tmp, 'partial.tar.gz');
    fs.writeFileSync(partial, whole.subarray(0, half));
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag');
    expect(etag).toBeTruthy();
    const r = await fetch(url, { headers: { range: `bytes=${half}-`, 'if-range': etag! } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes ${half}-${whole.length - 1}/${whole.length}`);
    fs.appendFileSync(partial, Buffer.from(await r.arrayBuffer()));
    expect(fs.readFileSync(partial).equals(whole)).toBe(true);
    expect((await tar(['-tzf', partial], tmp)).split('\n')).toContain('repositories/mona/two.git/HEAD');
    const middle = await fetch(url, { headers: { range: 'bytes=10-19' } });
    expect(middle.status).toBe(206);
    expect(Buffer.from(await middle.arrayBuffer()).equals(whole.subarray(10, 20))).toBe(true);
  });

  it('hands out URLs the store refuses once their lifetime is over (signed on the app clock, checked on the store’s)', async () => {
    clock.offsetMs -= 301_000;
    let url: string;
    try {
      url = await presignedUrl(id);
    } finally {
      clock.offsetMs += 301_000;
    }
    const r = await fetch(url);
    expect(r.status).toBe(403);
    expect(await r.text()).toContain('Request has expired');
    expect((await fetch(await presignedUrl(id))).status).toBe(200);
  });

  it('is downloaded by `hublet migration download` from the store, in local mode and in remote mode', async () => {
    const sb = sandbox();
    try {
      const localOut = path.join(tmp, 'local.tar.gz');
      const local = await runInProcess(
        ['--data', server.dataDir, '--database', server.databaseUrl, '--as', 'mona', 'migration', 'download', String(id), '-o', localOut],
        {
          env: { ...sb.env, HUBLET_BASE_URL: server.url, ...s3.env(PREFIX) },
        },
      );
      expect([local.code, local.stderr]).toEqual([0, expect.any(String)]);
      expect(fs.readFileSync(localOut).equals(whole)).toBe(true);
      const remoteOut = path.join(tmp, 'remote.tar.gz');
      const remote = await runInProcess(
        ['--server', server.url, '--token', mona.token, 'migration', 'download', String(id), '-o', remoteOut],
        { env: sb.env },
      );
      expect([remote.code, remote.stderr]).toEqual([0, expect.any(String)]);
      expect(fs.readFileSync(remoteOut).equals(whole)).toBe(true);
    } finally {
      sb.cleanup();
    }
  });

  it('is answered 404 once the object is gone from the bucket behind hublet’s back', async () => {
    const other = await exported();
    await presignedUrl(other.id);
    await s3.remove(objectKey(other.guid));
    expect((await server.api('GET', `/user/migrations/${other.id}/archive`, { token: mona.token })).status).toBe(404);
  });
});

describe('a large archive', () => {
  it('streams to the bucket in several multipart parts (over 8 MiB) and comes back byte for byte', async () => {
    const created = await server.api('POST', '/user/repos', { token: mona.token, body: { name: 'large' } });
    expect(created.status).toBe(201);
    const work = tempDir('hublet-large-');
    const blob = crypto.randomBytes(20 * 1024 * 1024);
    try {
      await git(['init', '-q', '-b', 'main'], work);
      fs.writeFileSync(path.join(work, 'random.bin'), blob);
      await git(['add', '.'], work);
      await git(['commit', '-qm', 'twenty incompressible MiB'], work);
      await git(['push', '-q', authedUrl(server, mona.token, 'mona/large'), 'main'], work);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    const r = await server.api('POST', '/user/migrations', { token: mona.token, body: { repositories: ['large'] } });
    expect(r.status).toBe(201);
    const m = await waitForState(server, `/user/migrations/${r.body.id}`, mona.token);
    expect(m.state).toBe('exported');
    const [object] = (await s3.list(`${PREFIX}/`)).filter((o) => o.key === objectKey(m.guid));
    expect(object.size).toBeGreaterThan(16 * 1024 * 1024);
    // Downloaded through the redirect and unpacked: the repository's git data holds the 20 MiB file intact.
    const file = path.join(tmp, 'large.tar.gz');
    const res = await fetch(`${server.url}/user/migrations/${m.id}/archive`, { headers: { authorization: `Bearer ${mona.token}` } });
    expect(res.status).toBe(200);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    expect(fs.statSync(file).size).toBe(object.size);
    const out = path.join(tmp, 'large');
    fs.mkdirSync(out);
    await tar(['-xzf', file], out);
    const shown = await git(['--git-dir', path.join(out, 'repositories', 'mona', 'large.git'), 'cat-file', '-s', 'main:random.bin'], tmp);
    expect(Number(shown.trim())).toBe(blob.length);
  }, 120_000);
});

describe('DELETE …/archive with S3', () => {
  it('deletes the object (204): gone from the bucket, URLs handed out before answer 404, the archive is 404', async () => {
    const { id, guid } = await exported();
    const url = await presignedUrl(id);
    expect((await s3.list(`${PREFIX}/`)).map((o) => o.key)).toContain(objectKey(guid));
    const del = await server.octokit(mona.token).rest.migrations.deleteArchiveForAuthenticatedUser({ migration_id: id });
    expect(del.status).toBe(204);
    expect((await s3.list(`${PREFIX}/`)).map((o) => o.key)).not.toContain(objectKey(guid));
    expect((await fetch(url)).status).toBe(404);
    expect((await server.api('GET', `/user/migrations/${id}/archive`, { token: mona.token })).status).toBe(404);
    expect((await server.api('DELETE', `/user/migrations/${id}/archive`, { token: mona.token })).status).toBe(404);
    const m = await server.api('GET', `/user/migrations/${id}`, { token: mona.token });
    expect(m.body.state).toBe('exported');
  });
});

describe('archive expiry with S3', () => {
  it('deletes the object seven days after the export, by the expiry job on the injected clock', async () => {
    const { id, guid } = await exported();
    const inBucket = async () => (await s3.list(`${PREFIX}/`)).some((o) => o.key === objectKey(guid));
    clock.offsetMs += 6 * 86_400_000;
    await new Promise((r) => setTimeout(r, 600));
    expect(await inBucket()).toBe(true);
    expect((await fetch(await presignedUrl(id))).status).toBe(200);

    clock.offsetMs += 86_400_000 + 60_000;
    const deadline = Date.now() + 10_000;
    while ((await inBucket()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await inBucket()).toBe(false);
    expect((await server.api('GET', `/user/migrations/${id}/archive`, { token: mona.token })).status).toBe(404);
    const row = await server.db.selectFrom('migrations').select('archive_deleted_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.archive_deleted_at).not.toBeNull();
  });
});
