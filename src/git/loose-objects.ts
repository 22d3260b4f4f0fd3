// Loose git objects written in place: SHA-1 and zlib in one synchronous call each, then one mkdir and one write.
//
// Why not isomorphic-git's writeBlob/writeTree/writeCommit: each object went through WebCrypto and a
// CompressionStream (about 0.8 ms of CPU and a dozen event-loop turns for a 20-byte blob) plus three fs.promises
// round trips; a new gist writes four objects (node --cpu-prof of POST /gists in `make bench`). The bytes are exactly
// what isomorphic-git (and git) write: `<type> <size>\0<content>`, deflated; trees and commits serialised as
// isomorphic-git's GitTree and GitCommit do for the flat trees and empty messages hublet writes (test/git checks it).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export type LooseType = 'blob' | 'tree' | 'commit';

/** The object id of content of a type (what `git hash-object -t <type>` prints). */
export function objectId(type: LooseType, content: Buffer): string {
  return crypto.createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/**
 * Writes one loose object unless the repository has it already; returns its id. The id and the deflated bytes are
 * computed at once; the file is created on libuv's threads: creating files on ext4 waits on the journal (about 0.3 ms
 * an object under PATCH load, node --cpu-prof), which must not stall the event loop.
 */
export async function writeLooseObject(gitdir: string, type: LooseType, content: Buffer): Promise<string> {
  const oid = objectId(type, content);
  const dir = path.join(gitdir, 'objects', oid.slice(0, 2));
  const file = path.join(dir, oid.slice(2));
  const deflated = zlib.deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]));
  try {
    await fs.promises.writeFile(file, deflated, { flag: 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return oid; // objects are immutable: the same id is the same bytes
    if (code !== 'ENOENT') throw err;
    await fs.promises.mkdir(dir, { recursive: true });
    try {
      await fs.promises.writeFile(file, deflated, { flag: 'wx' });
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    }
  }
  return oid;
}

/** A flat tree of regular files (mode 100644), entries in git's order (bytes of the names). */
export function serializeFlatTree(entries: { filename: string; oid: string }[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.filename), Buffer.from(b.filename)));
  return Buffer.concat(sorted.flatMap((e) => [Buffer.from(`100644 ${e.filename}\0`, 'utf8'), Buffer.from(e.oid, 'hex')]));
}

export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

/** A commit with an empty message, author and committer alike, in UTC (`+0000`). */
export function serializeCommit(input: { tree: string; parents: string[]; signature: Signature }): Buffer {
  const who = `${input.signature.name} <${input.signature.email}> ${input.signature.timestamp} +0000`;
  const parents = input.parents.map((p) => `parent ${p}\n`).join('');
  return Buffer.from(`tree ${input.tree}\n${parents}author ${who}\ncommitter ${who}\n\n\n`, 'utf8');
}
