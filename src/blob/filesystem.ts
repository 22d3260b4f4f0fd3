// Blob storage in a directory on the local filesystem: write to a temporary file, fsync, then rename into place.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type BlobStat, type BlobStore, type ByteRange } from './store.js';

const TEMP_MARK = '.tmp-';
/** A temporary object untouched this long belongs to a writer that died (a live one writes continuously). */
const STALE_TEMP_MS = 10 * 60_000;

/** Removes temporary objects of this key that earlier, interrupted puts left behind. */
async function removeStaleTemps(target: string): Promise<void> {
  const prefix = `${path.basename(target)}${TEMP_MARK}`;
  const dir = path.dirname(target);
  for (const name of await fs.promises.readdir(dir)) {
    if (!name.startsWith(prefix)) continue;
    const file = path.join(dir, name);
    const st = await fs.promises.stat(file).catch(() => null);
    if (st && Date.now() - st.mtimeMs > STALE_TEMP_MS) await fs.promises.rm(file, { force: true });
  }
}

export class FilesystemBlobStore implements BlobStore {
  readonly description: string;

  constructor(private readonly root: string) {
    this.description = `filesystem:${root}`;
  }

  private file(key: string): string {
    assertSafeKey(key);
    if (key.includes(TEMP_MARK)) throw new Error(`unsafe blob key: ${JSON.stringify(key)}`);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, source: AsyncIterable<Uint8Array>): Promise<number> {
    const target = this.file(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await removeStaleTemps(target);
    const temp = `${target}${TEMP_MARK}${crypto.randomBytes(6).toString('hex')}`;
    let size = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const chunk of source) {
        size += chunk.length;
        yield chunk;
      }
    }
    try {
      const out = fs.createWriteStream(temp, { flags: 'wx' });
      await pipeline(counted(), out);
      const fd = await fs.promises.open(temp, 'r');
      try {
        await fd.sync();
      } finally {
        await fd.close();
      }
      await fs.promises.rename(temp, target);
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
    return size;
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    const file = this.file(key);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    // The stream owns the open descriptor: a delete after this point does not cut a download short.
    return handle.createReadStream({ start: range?.start, end: range?.end, highWaterMark: 256 * 1024 });
  }

  async stat(key: string): Promise<BlobStat | null> {
    try {
      const st = await fs.promises.stat(this.file(key));
      return { size: st.size, modifiedAt: st.mtime };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      await fs.promises.unlink(this.file(key));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }
}
