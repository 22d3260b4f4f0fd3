// Picks the archive store the configuration names: a directory (the default), an S3-compatible bucket, or none.
import type { Config } from '../config.js';
import { FilesystemBlobStore } from './filesystem.js';
import { S3BlobStore } from './s3.js';
import type { BlobStore } from './store.js';

export type { BlobStore } from './store.js';

type StoreConfig = Pick<
  Config,
  | 'archiveStorage'
  | 'archiveDir'
  | 's3Bucket'
  | 's3Endpoint'
  | 's3Region'
  | 's3Prefix'
  | 's3ForcePathStyle'
  | 's3AccessKeyId'
  | 's3SecretAccessKey'
>;

/**
 * One S3 store per configuration object, i.e. per app (its config is one frozen object, replaced once after listen):
 * the S3 client, its connection pool and resolved credentials are built once, not per request; it goes with the config.
 */
const s3Stores = new WeakMap<StoreConfig, S3BlobStore>();

/** The configured archive store, or null when none is configured (`archiveStorage: none`). */
export function archiveStore(config: StoreConfig): BlobStore | null {
  switch (config.archiveStorage) {
    case 'filesystem':
      return new FilesystemBlobStore(config.archiveDir);
    case 's3': {
      const store = s3Stores.get(config) ?? new S3BlobStore(config);
      s3Stores.set(config, store);
      return store;
    }
    case 'none':
      return null;
  }
}
