// A promise-shaped file system over Node's synchronous calls, for isomorphic-git's many tiny writes when it creates a
// bare repository (gist revisions write their objects and refs themselves: loose-objects.ts, gists/git.ts).
//
// Why: creating a gist made ~40 fs.promises calls, each a hop through libuv's four-thread pool, where they queued with
// the SQLite queries of every other request; under 50 concurrent POST /gists the server idled half the time
// (node --cpu-prof, `make bench`). A small write into the page cache costs a few microseconds done in place. Use it
// only where files are small (objects of one revision, config, refs), never to read packs or large blobs.
import fs from 'node:fs';
import type { PromiseFsClient } from 'isomorphic-git';

/** The commands isomorphic-git binds (errors keep Node's codes: ENOENT, EEXIST, …). */
const commands = {
  // isomorphic-git calls readFile() without arguments to learn that this fs returns promises.
  readFile: (file?: fs.PathOrFileDescriptor, options?: Parameters<typeof fs.readFileSync>[1]) =>
    file === undefined ? Promise.resolve(undefined) : run(() => fs.readFileSync(file, options)),
  writeFile: (file: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView, options?: fs.WriteFileOptions) => run(() => fs.writeFileSync(file, data, options)),
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

function run<T>(op: () => T): Promise<T> {
  try {
    return Promise.resolve(op());
  } catch (err) {
    return Promise.reject(err);
  }
}
