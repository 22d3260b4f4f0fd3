// `hublet serve` (the executable under test, dist/hublet in `make test`) with archives in S3 configured by environment
// only: the AWS SDK's default credential chain (AWS_ACCESS_KEY_ID …), an export lands in the bucket, the archive's 302
// goes to the store; and a start with an incomplete S3 configuration lists its problems and exits 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServe } from '../helpers/cli.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { serveProcesses } from '../helpers/serve-process.js';

const procs = serveProcesses();
let s3: TestS3;

beforeAll(async () => {
  s3 = await startS3('serve-archives');
});
afterAll(async () => {
  await s3?.close();
});

describe('hublet serve with HUBLET_ARCHIVE_STORAGE=s3', () => {
  it('exports to the bucket with the SDK’s credentials from the environment, and redirects downloads to the store', async () => {
    const fresh = await procs.freshDataDir('s3');
    const admin = `hlp_s3serve${Date.now().toString(36)}`;
    const p = await procs.serve(['--port', '0', '--data', fresh.dir, ...fresh.args, '--log-level', 'silent'], {
      HUBLET_ADMIN_TOKEN: admin,
      HUBLET_ARCHIVE_STORAGE: 's3',
      HUBLET_S3_BUCKET: s3.bucket,
      HUBLET_S3_ENDPOINT: s3.endpoint,
      HUBLET_S3_FORCE_PATH_STYLE: '1',
      HUBLET_S3_PREFIX: 'env',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    });
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const r = await fetch(`${p.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      });
      return {
        status: r.status,
        headers: r.headers,
        body: r.headers.get('content-type')?.includes('json') ? await r.json() : await r.text(),
      };
    };
    expect((await call('POST', '/admin/users', admin, { login: 'mona' })).status).toBe(201);
    const token = (await call('POST', '/admin/users/mona/authorizations', admin, { scopes: ['repo', 'user'] })).body.token as string;
    expect((await call('POST', '/user/repos', token, { name: 'kept', auto_init: true })).status).toBe(201);
    const started = await call('POST', '/user/migrations', token, { repositories: ['kept'] });
    expect(started.status).toBe(201);

    const deadline = Date.now() + 30_000;
    let m = started.body;
    while (!['exported', 'failed'].includes(m.state) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      m = (await call('GET', `/user/migrations/${m.id}`, token)).body;
    }
    expect([m.state, m.failure_reason]).toEqual(['exported', undefined]);
    const key = `env/migrations/${m.guid}.tar.gz`;
    const [object] = await s3.list('env/');
    expect(object?.key).toBe(key);

    const redirect = await call('GET', `/user/migrations/${m.id}/archive`, token);
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/${key}?`)).toBe(true);
    const download = await fetch(location);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(await s3.read(key))).toBe(true);
  });

  it('refuses to start without a bucket or with a bad endpoint, listing both problems (exit 2)', async () => {
    const fresh = await procs.freshDataDir('bad');
    const r = await runServe(['--port', '0', '--data', fresh.dir, ...fresh.args], {
      env: procs.sandbox.env,
      extraEnv: { HUBLET_ARCHIVE_STORAGE: 's3', HUBLET_S3_ENDPOINT: 'minio:9000' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('s3Endpoint (HUBLET_S3_ENDPOINT): expected an http(s) URL');
    expect(r.stderr).toContain('s3Bucket (HUBLET_S3_BUCKET): required with archiveStorage s3');
  });
});
