// Files in git directories replaced whole: a new temporary file, then a rename over the old one, so that neither a
// reader nor a crash (SIGKILL, power loss before writeback aside) ever sees one empty or half-written.
//
// Why the temporary file is never the final name opened in place: a process killed between creating a file and
// writing it leaves an empty file behind, which git reports as corrupt (`object file … is empty`) and which hublet
// would otherwise take for a stored object or a ref. A rename within one file system is atomic: the name points at the
// old complete file or at the new complete file. No fsync: the page cache survives the death of the process, and git
// itself does not sync loose objects by default either.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A name for a temporary file in `dir` (random, so concurrent writers never share one). */
export function tempName(dir: string, prefix: string): string {
  return path.join(dir, `${prefix}${crypto.randomBytes(8).toString('hex')}`);
}

/**
 * Replaces `file` with `data` on libuv's threads: the temporary file is made in `tmpDir` (same file system; git ignores
 * it there), then renamed over `file`. `file`'s directory is created when missing. On ext4 a rename over an existing
 * file starts writeback of the new one (auto_da_alloc, ~0.4 ms): off the event loop here.
 */
export async function replaceFile(
  file: string,
  data: Buffer | string,
  opts: { tmpDir: string; prefix: string; mode?: number },
): Promise<void> {
  const tmp = tempName(opts.tmpDir, opts.prefix);
  await fs.promises.writeFile(tmp, data, { flag: 'wx', mode: opts.mode });
  try {
    try {
      await fs.promises.rename(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !fs.existsSync(tmp)) throw err;
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      await fs.promises.rename(tmp, file);
    }
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
}

/** replaceFile without leaving the calling thread, for the few small files of a new repository (config, HEAD, hooks). */
export function replaceFileSync(
  file: string,
  data: Buffer | string | NodeJS.ArrayBufferView,
  opts: { tmpDir?: string; prefix: string; mode?: number },
): void {
  const tmp = tempName(opts.tmpDir ?? path.dirname(file), opts.prefix);
  fs.writeFileSync(tmp, data, { flag: 'wx', mode: opts.mode });
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Makes a directory's entries durable (fsync of the directory: a rename or a new file in it survives a power loss once
 * this returns); a platform that cannot sync a directory is let be, the entries being in place all the same.
 */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Not every platform syncs a directory.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
