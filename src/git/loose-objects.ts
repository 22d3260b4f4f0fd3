// Loose git objects: SHA-1 and zlib in one synchronous call each, then a temporary file renamed into place (crash-safe).
//
// Why not isomorphic-git's writeBlob/writeTree/writeCommit: each object went through WebCrypto and a
// CompressionStream (about 0.8 ms of CPU and a dozen event-loop turns for a 20-byte blob) plus three fs.promises
// round trips; a new gist writes four objects (node --cpu-prof of POST /gists in `make bench`). The bytes are exactly
// what isomorphic-git (and git) write: `<type> <size>\0<content>`, deflated; trees and commits serialised as
// isomorphic-git's GitTree and GitCommit do for the flat trees and the commits hublet writes (test/git checks it).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { tempName } from './atomic-file.js';

export type LooseType = 'blob' | 'tree' | 'commit';

/** The object id of content of a type (what `git hash-object -t <type>` prints). */
export function objectId(type: LooseType, content: Buffer): string {
  return crypto.createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** Temporary object files: git's own prefix, which `git fsck` and `git gc` know (and prune when stale). */
const TMP_PREFIX = 'tmp_obj_';

/**
 * True when `stored` (a loose object file's bytes) inflates to an object of the id `oid`: its header is
 * `<type> <size>\0` with the right size and the SHA-1 of everything is the id. An empty or cut file is not.
 */
export function isIntactLooseObject(stored: Buffer, oid: string): boolean {
  if (stored.length === 0) return false;
  let raw: Buffer;
  try {
    raw = zlib.inflateSync(stored);
  } catch {
    return false;
  }
  const nul = raw.indexOf(0);
  if (nul < 0) return false;
  const header = /^(blob|tree|commit|tag) (\d+)$/.exec(raw.subarray(0, nul).toString('latin1'));
  if (!header || Number(header[2]) !== raw.length - nul - 1) return false;
  return crypto.createHash('sha1').update(raw).digest('hex') === oid;
}

/** Whether the loose object file of `oid` is there and intact (false when absent, empty, cut or not that object). */
async function storedIntact(file: string, oid: string): Promise<boolean> {
  // A stat first, in place: for a new object (nearly always) it is one cheap ENOENT and no thread-pool hop.
  if (!fs.statSync(file, { throwIfNoEntry: false })) return false;
  try {
    return isIntactLooseObject(await fs.promises.readFile(file), oid);
  } catch {
    return false;
  }
}

/**
 * Writes one loose object unless the repository has it intact already; returns its id. Crash-safe: the deflated bytes
 * go to a temporary file in the object's directory (`tmp_obj_…`, as git does), which is then renamed to the object's
 * name, so the name never points at a partly written file. An object file already there is trusted only after it
 * inflates to the right header and id; an empty or damaged one (a crash of an older version, a disk fault) is replaced.
 * The files are created on libuv's threads: creating files on ext4 waits on the journal (about 0.3 ms an object under
 * PATCH load, node --cpu-prof), which must not stall the event loop.
 */
export async function writeLooseObject(gitdir: string, type: LooseType, content: Buffer): Promise<string> {
  const header = Buffer.from(`${type} ${content.length}\0`);
  const oid = crypto.createHash('sha1').update(header).update(content).digest('hex');
  const dir = path.join(gitdir, 'objects', oid.slice(0, 2));
  const file = path.join(dir, oid.slice(2));
  if (await storedIntact(file, oid)) return oid; // objects are immutable: the same id is the same bytes
  const deflated = zlib.deflateSync(Buffer.concat([header, content]));
  let tmp = tempName(dir, TMP_PREFIX);
  try {
    await fs.promises.writeFile(tmp, deflated, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // The fan-out directory does not exist yet (the repository itself must).
    if (!fs.existsSync(path.join(gitdir, 'objects'))) throw err;
    await fs.promises.mkdir(dir, { recursive: true });
    tmp = tempName(dir, TMP_PREFIX);
    await fs.promises.writeFile(tmp, deflated, { flag: 'wx' });
  }
  try {
    // Over a damaged file too; a concurrent writer of the same object renames identical bytes.
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
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
  /** Minutes west of UTC, as isomorphic-git counts them (240 for -0400); UTC when absent. */
  timezoneOffset?: number;
}

/** `+0000`, `-0400`, …: git's form of an offset given in minutes west of UTC. */
function formatOffset(minutesWest: number): string {
  const sign = minutesWest > 0 ? '-' : '+';
  const abs = Math.abs(minutesWest);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/**
 * A commit, author and committer alike, as isomorphic-git's GitCommit renders it: the message without leading
 * newlines and with exactly one at the end (an empty message is one newline); UTC unless the signature says otherwise.
 */
export function serializeCommit(input: { tree: string; parents: string[]; signature: Signature; message?: string }): Buffer {
  const s = input.signature;
  const who = `${s.name} <${s.email}> ${s.timestamp} ${formatOffset(s.timezoneOffset ?? 0)}`;
  const parents = input.parents.map((p) => `parent ${p}\n`).join('');
  const message = `${(input.message ?? '').replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '')}\n`;
  return Buffer.from(`tree ${input.tree}\n${parents}author ${who}\ncommitter ${who}\n\n${message}`, 'utf8');
}
