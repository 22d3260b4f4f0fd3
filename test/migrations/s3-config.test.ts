// The S3 archive settings: environment names, defaults, and every problem listed at start (the secret never echoed).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig({ dataDir: '/tmp/hublet-config-test' }, env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('HUBLET_ARCHIVE_STORAGE=s3', () => {
  it('reads the bucket, endpoint, region, prefix, path style and keys from the environment', () => {
    const c = loadConfig(
      { dataDir: '/tmp/hublet-config-test' },
      {
        HUBLET_ARCHIVE_STORAGE: 's3',
        HUBLET_S3_BUCKET: 'hublet-archives',
        HUBLET_S3_ENDPOINT: 'https://minio.internal:9000/',
        HUBLET_S3_REGION: 'eu-west-3',
        HUBLET_S3_PREFIX: '/prod/hublet/',
        HUBLET_S3_FORCE_PATH_STYLE: '1',
        HUBLET_S3_ACCESS_KEY_ID: 'AKID',
        HUBLET_S3_SECRET_ACCESS_KEY: 'shh',
      },
    );
    expect(c).toMatchObject({
      archiveStorage: 's3',
      s3Bucket: 'hublet-archives',
      s3Endpoint: 'https://minio.internal:9000',
      s3Region: 'eu-west-3',
      s3Prefix: 'prod/hublet',
      s3ForcePathStyle: true,
      s3AccessKeyId: 'AKID',
      s3SecretAccessKey: 'shh',
    });
  });

  it('defaults: no prefix, virtual-hosted addressing, AWS_REGION else us-east-1, the SDK’s credential chain; filesystem stays the default storage', () => {
    const bare = loadConfig({ dataDir: '/tmp/hublet-config-test' }, { HUBLET_ARCHIVE_STORAGE: 's3', HUBLET_S3_BUCKET: 'b-1' });
    expect(bare).toMatchObject({
      s3Prefix: '',
      s3ForcePathStyle: false,
      s3Region: 'us-east-1',
      s3AccessKeyId: undefined,
      s3Endpoint: undefined,
    });
    expect(
      loadConfig(
        { dataDir: '/tmp/hublet-config-test' },
        { HUBLET_ARCHIVE_STORAGE: 's3', HUBLET_S3_BUCKET: 'b-1', AWS_REGION: 'ap-south-1' },
      ).s3Region,
    ).toBe('ap-south-1');
    expect(loadConfig({ dataDir: '/tmp/hublet-config-test' }, {}).archiveStorage).toBe('filesystem');
  });

  it('lists every problem at once, and never echoes the secret key', () => {
    const found = problems({
      HUBLET_ARCHIVE_STORAGE: 's3',
      HUBLET_S3_ENDPOINT: 'ftp://user:pw@store',
      HUBLET_S3_PREFIX: 'a/../b',
      HUBLET_S3_FORCE_PATH_STYLE: 'yes',
      HUBLET_S3_SECRET_ACCESS_KEY: 'topsecret-value',
    });
    expect(found).toEqual([
      expect.stringMatching(/^s3Endpoint \(HUBLET_S3_ENDPOINT\): expected an http\(s\) URL/),
      expect.stringMatching(/^s3Prefix \(HUBLET_S3_PREFIX\): /),
      's3ForcePathStyle (HUBLET_S3_FORCE_PATH_STYLE): expected 1 or 0',
      's3AccessKeyId (HUBLET_S3_ACCESS_KEY_ID) and s3SecretAccessKey (HUBLET_S3_SECRET_ACCESS_KEY): both or neither',
      's3Bucket (HUBLET_S3_BUCKET): required with archiveStorage s3',
    ]);
    expect(found.join('\n')).not.toContain('topsecret-value');
    expect(found.join('\n')).not.toContain('pw@');
    expect(problems({ HUBLET_ARCHIVE_STORAGE: 's3', HUBLET_S3_BUCKET: 'Not_A_Bucket' })).toEqual([
      expect.stringMatching(/^s3Bucket \(HUBLET_S3_BUCKET\): expected an S3 bucket name/),
    ]);
    expect(problems({ HUBLET_ARCHIVE_STORAGE: 'gcs' })).toEqual([
      'archiveStorage (HUBLET_ARCHIVE_STORAGE): expected filesystem, s3 or none, got "gcs"',
    ]);
  });
});
