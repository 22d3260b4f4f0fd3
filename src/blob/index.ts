// Picks the archive store the configuration names (filesystem now; an S3-compatible store can join here).
import type { Config } from '../config.js';
import { FilesystemBlobStore } from './filesystem.js';
import type { BlobStore } from './store.js';

export type { BlobStore } from './store.js';

/** The configured archive store, or null when none is configured (`archiveStorage: none`). */
export function archiveStore(config: Pick<Config, 'archiveStorage' | 'archiveDir'>): BlobStore | null {
  switch (config.archiveStorage) {
    case 'filesystem':
      return new FilesystemBlobStore(config.archiveDir);
    case 'none':
      return null;
  }
}
