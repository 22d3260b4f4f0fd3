// Blob storage in an S3-compatible bucket through the AWS SDK v3 (imported on first use, so a server without S3 never
// loads it): streamed multipart uploads, ranged reads, and pre-signed download URLs that go straight to the store.
import { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { assertSafeKey, type BlobStat, type BlobStore, type ByteRange, type DownloadUrlOptions } from './store.js';

type ClientModule = typeof import('@aws-sdk/client-s3');

interface Sdk {
  s3: ClientModule;
  client: InstanceType<ClientModule['S3Client']>;
  Upload: typeof import('@aws-sdk/lib-storage').Upload;
  getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
}

type S3Settings = Pick<
  Config,
  's3Bucket' | 's3Endpoint' | 's3Region' | 's3Prefix' | 's3ForcePathStyle' | 's3AccessKeyId' | 's3SecretAccessKey'
>;

/** Multipart parts of 8 MiB, two in flight: about 24 MiB of buffers per upload, objects up to 78 GiB (10,000 parts). */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/** What an SDK error says, in words fit for a migration's failure_reason: its code and status, never an address or a key. */
function reasonOf(err: unknown): string {
  const e = err as { name?: string; code?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (e.code && /^E[A-Z]+$/.test(e.code)) return `the archive storage is unreachable (${e.code})`;
  if (e.name === 'CredentialsProviderError') return 'no credentials for the archive storage were found';
  if (e.name === 'TimeoutError' || e.code === 'TimeoutError') return 'the archive storage did not answer in time';
  const code = e.Code ?? e.name ?? 'Error';
  return `the archive storage refused the request (${code}${status ? `, HTTP ${status}` : ''})`;
}

/**
 * Stops a source whose upload failed: it reads no further, and its late errors are ignored (the export's tar stream
 * still walks its staging directory, which is removed as soon as the put fails).
 */
function abandon(source: AsyncIterable<Uint8Array>): void {
  const stream = source as { on?: (event: string, listener: () => void) => unknown; destroy?: () => unknown };
  stream.on?.('error', () => {});
  stream.destroy?.();
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

export class S3BlobStore implements BlobStore {
  readonly description: string;
  private loaded?: Promise<Sdk>;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(private readonly settings: S3Settings) {
    if (!settings.s3Bucket) throw new Error('the S3 archive store needs a bucket');
    this.bucket = settings.s3Bucket;
    this.prefix = settings.s3Prefix ? `${settings.s3Prefix}/` : '';
    this.description = `s3://${this.bucket}/${this.prefix}${settings.s3Endpoint ? ` at ${settings.s3Endpoint}` : ''}`;
  }

  /** The SDK and one client, loaded and built on first use. */
  private sdk(): Promise<Sdk> {
    this.loaded ??= (async () => {
      // hublet pins the SDK and ships its own Node: the SDK's notice that its later versions need Node 22 is for
      // hublet's maintainers (package.json), not for the operator, who can do nothing about it.
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
      const [s3, { Upload }, { getSignedUrl }] = await Promise.all([
        import('@aws-sdk/client-s3'),
        import('@aws-sdk/lib-storage'),
        import('@aws-sdk/s3-request-presigner'),
      ]);
      const { s3AccessKeyId, s3SecretAccessKey } = this.settings;
      const client = new s3.S3Client({
        region: this.settings.s3Region,
        endpoint: this.settings.s3Endpoint,
        forcePathStyle: this.settings.s3ForcePathStyle,
        // Explicit keys, else the SDK's default chain (environment, shared profiles, web identity, instance roles).
        credentials: s3AccessKeyId && s3SecretAccessKey ? { accessKeyId: s3AccessKeyId, secretAccessKey: s3SecretAccessKey } : undefined,
        // Checksums only where S3 requires them: self-hosted stores (MinIO, Ceph, older gateways) differ on the newer ones.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        // A store that is down fails within seconds (then the job's own retries), never hangs an export.
        requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
      });
      return { s3, client, Upload, getSignedUrl };
    })();
    return this.loaded;
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return `${this.prefix}${key}`;
  }

  /** Streams `source` to the bucket as a multipart upload; the object appears only when the upload completes. */
  async put(key: string, source: AsyncIterable<Uint8Array>): Promise<number> {
    const Key = this.objectKey(key);
    const { client, Upload } = await this.sdk();
    let size = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const chunk of source) {
        size += chunk.length;
        yield chunk;
      }
    }
    const body = Readable.from(counted(), { objectMode: false });
    const upload = new Upload({
      client,
      params: { Bucket: this.bucket, Key, Body: body, ContentType: 'application/octet-stream' },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      body.destroy();
      abandon(source);
      throw new Error(`the archive could not be stored: ${reasonOf(err)}`, { cause: err });
    }
    return size;
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    const { s3, client } = await this.sdk();
    try {
      const r = await client.send(
        new s3.GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return r.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw new Error(`the archive could not be read: ${reasonOf(err)}`, { cause: err });
    }
  }

  async stat(key: string): Promise<BlobStat | null> {
    const { s3, client } = await this.sdk();
    try {
      const r = await client.send(new s3.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: r.ContentLength ?? 0, modifiedAt: r.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw new Error(`the archive could not be looked up: ${reasonOf(err)}`, { cause: err });
    }
  }

  /** Deletes the object; S3's DeleteObject does not say whether it existed, so a HEAD asks first. */
  async delete(key: string): Promise<boolean> {
    const existed = (await this.stat(key)) !== null;
    const { s3, client } = await this.sdk();
    try {
      await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    } catch (err) {
      if (!isNotFound(err)) throw new Error(`the archive could not be deleted: ${reasonOf(err)}`, { cause: err });
    }
    return existed;
  }

  /** A pre-signed GET of the object (SigV4 query string), naming the download's file and type. */
  async downloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    const { s3, client, getSignedUrl } = await this.sdk();
    const command = new s3.GetObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ResponseContentDisposition: `attachment; filename="${options.filename.replace(/["\\\r\n]/g, '_')}"`,
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(client, command, { expiresIn: options.expiresInSeconds, signingDate: options.now });
  }
}
