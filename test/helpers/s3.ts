// A real S3-protocol server on loopback for the tests (s3rver, objects in a scratch dir), with an SDK client to look in
// the bucket, and the hublet configuration that points the archive store at it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { ConfigInput } from '../../src/config.js';

/** s3rver's one account. */
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

export interface TestS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  bucket: string;
  /** The archive settings for a test server: this bucket, path-style, under `prefix`. */
  config(prefix?: string): ConfigInput;
  /** The same settings as HUBLET_* environment variables (for the CLI's local mode and `hublet serve`). */
  env(prefix?: string): Record<string, string>;
  /** Every object in the bucket under `prefix`: key and size. */
  list(prefix?: string): Promise<{ key: string; size: number }[]>;
  /** An object's bytes, read through the SDK. */
  read(key: string): Promise<Buffer>;
  /** Removes one object behind the server's back. */
  remove(key: string): Promise<void>;
  /** Stops the S3 server (the store is down) and starts it again on the same port with the same objects. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 (port 0 picks one) with one bucket. */
export async function startS3(bucket = 'hublet-archives', port = 0): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-s3-'));
  const make = (p: number) =>
    new S3rver({ address: '127.0.0.1', port: p, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  let server: S3rver | null = make(port);
  const address = await server.run();
  const actualPort = address.port;
  const endpoint = `http://127.0.0.1:${actualPort}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  const list = async (prefix = '') => {
    const r = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    return (r.Contents ?? []).map((o) => ({ key: o.Key!, size: o.Size! })).sort((a, b) => a.key.localeCompare(b.key));
  };
  return {
    endpoint,
    port: actualPort,
    bucket,
    config: (prefix = '') => ({
      archiveStorage: 's3',
      s3Bucket: bucket,
      s3Endpoint: endpoint,
      s3Region: 'us-east-1',
      s3Prefix: prefix,
      s3ForcePathStyle: '1',
      s3AccessKeyId: ACCESS_KEY,
      s3SecretAccessKey: SECRET_KEY,
    }),
    env: (prefix = '') => ({
      HUBLET_ARCHIVE_STORAGE: 's3',
      HUBLET_S3_BUCKET: bucket,
      HUBLET_S3_ENDPOINT: endpoint,
      HUBLET_S3_REGION: 'us-east-1',
      HUBLET_S3_PREFIX: prefix,
      HUBLET_S3_FORCE_PATH_STYLE: '1',
      HUBLET_S3_ACCESS_KEY_ID: ACCESS_KEY,
      HUBLET_S3_SECRET_ACCESS_KEY: SECRET_KEY,
    }),
    list,
    async read(key) {
      const r = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await r.Body!.transformToByteArray());
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async stop() {
      await server?.close();
      server = null;
    },
    async start() {
      server = make(actualPort);
      await server.run();
    },
    async close() {
      client.destroy();
      await server?.close();
      server = null;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
