// A promise-shaped file system over Node's synchronous calls, for isomorphic-git's many tiny writes when it creates a
// bare repository or changes its config; every file is replaced whole (atomic-file.ts). Objects and refs are written
// by src/git/loose-objects.ts and src/git/refs.ts, not through isomorphic-git.
//
// Why: creating a gist made ~40 fs.promises calls, each a hop through libuv's four-thread pool, where they queued with
// the SQLite queries of every other request; under 50 concurrent POST /gists the server idled half the time
// (node --cpu-prof, `make bench`). A small write into the page cache costs a few microseconds done in place. Use it
// only where files are small (objects of one revision, config, refs), never to read packs or large blobs.
import fs from 'node:fs';
import path from 'node:path';
import type { PromiseFsClient } from 'isomorphic-git';
import { replaceFileSync } from './atomic-file.js';

/** The commands isomorphic-git binds (errors keep Node's codes: ENOENT, EEXIST, …). */
const commands = {
  // isomorphic-git calls readFile() without arguments to learn that this fs returns promises.
  readFile: (file?: fs.PathOrFileDescriptor, options?: Parameters<typeof fs.readFileSync>[1]) =>
    file === undefined ? Promise.resolve(undefined) : run(() => fs.readFileSync(file, options)),
  // Replaced whole (temporary file, rename): a config or HEAD is never left empty or cut by a crash.
  writeFile: (file: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView, options?: fs.WriteFileOptions) =>
    run(() => (typeof file === 'string' ? replaceWhole(file, data, options) : fs.writeFileSync(file, data, options))),
  mkdir: (dir: fs.PathLike, options?: fs.MakeDirectoryOptions) => run(() => fs.mkdirSync(dir, options)),
  rmdir: (dir: fs.PathLike) => run(() => fs.rmdirSync(dir)),
  rm: (target: fs.PathLike, options?: fs.RmOptions) => run(() => fs.rmSync(target, options)),
  unlink: (file: fs.PathLike) => run(() => fs.unlinkSync(file)),
  stat: (file: fs.PathLike) => run(() => fs.statSync(file)),
  lstat: (file: fs.PathLike) => run(() => fs.lstatSync(file)),
  readdir: (dir: fs.PathLike) => run(() => fs.readdirSync(dir)),
  readlink: (file: fs.PathLike) => run(() => fs.readlinkSync(file)),
  symlink: (target: fs.PathLike, file: fs.PathLike) => run(() => fs.symlinkSync(target, file)),
  chmod: (file: fs.PathLike, mode: fs.Mode) => run(() => fs.chmodSync(file, mode)),
};

/** Pass as `fs` to isomorphic-git calls that write small files. */
export const syncFs: PromiseFsClient = { promises: commands };

function replaceWhole(file: string, data: string | NodeJS.ArrayBufferView, options?: fs.WriteFileOptions): void {
  const opts = typeof options === 'string' ? { encoding: options } : (options ?? {});
  const bytes = typeof data === 'string' ? Buffer.from(data, (opts.encoding ?? 'utf8') as BufferEncoding) : data;
  replaceFileSync(file, bytes, {
    prefix: `${path.basename(file)}.hublet-tmp-`,
    mode: typeof opts.mode === 'number' ? opts.mode : undefined,
  });
}

function run<T>(op: () => T): Promise<T> {
  try {
    return Promise.resolve(op());
  } catch (err) {
    return Promise.reject(err);
  }
}
