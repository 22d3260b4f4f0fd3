// A push looked at before git applies it: the request spooled to disk, its ref commands parsed, its pack indexed into
// a quarantine beside the repository, its objects read from there; and git's answer for a push hublet refuses.
//
// Why not a pre-receive hook: the rules a push must meet are TypeScript functions the API uses too (one decision for
// both), and a hook is another process that could only reach them by starting hublet again or talking back to the
// server. Here the server decides before `git http-backend` sees the request, reads the pushed objects with
// `git cat-file` over the quarantine (the repository's objects as alternates, as git's own quarantine does), and either
// answers the refusal in git's protocol or hands the very same bytes to git, which applies them as usual.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { inSpan } from '../tracing/spans.js';

export const ZERO_OID = '0'.repeat(40);

interface RefCommand {
  old: string;
  new: string;
  ref: string;
}

interface PushedCommit {
  tree: string;
  parents: string[];
}

interface PushedTreeEntry {
  /** Git's octal mode as written in the tree: `100644`, `100755`, `40000`, `120000`, `160000`. */
  mode: string;
  name: string;
  oid: string;
}

/** Objects of the push and of the repository it goes to. */
interface PushObjects {
  commits(oids: string[]): Promise<Map<string, PushedCommit>>;
  trees(oids: string[]): Promise<Map<string, PushedTreeEntry[]>>;
  /** Sizes in bytes of blobs (or any objects). */
  sizes(oids: string[]): Promise<Map<string, number>>;
  /** Commits reachable from `tips` and from no ref of the repository, newest first. */
  newCommits(tips: string[]): Promise<string[]>;
}

export interface IncomingPush {
  commands: RefCommand[];
  capabilities: ReadonlySet<string>;
  /** Why the pack could not be indexed (a corrupt or cut request), or null. */
  unpackError: string | null;
  objects: PushObjects;
  /** The request body again (decoded), for `git http-backend`. */
  body(): Readable;
  /** Removes the spooled request and the quarantine. */
  dispose(): Promise<void>;
}

/** Temporary push directories inside a repository start with this (removed after the push; harmless if left). */
const PUSH_TMP_PREFIX = 'hublet-push-';
/** Longer command sections than this are not a push hublet accepts. */
const MAX_HEADER_BYTES = 1024 * 1024;

function gitEnv(repoDir: string, quarantine: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_DIR: repoDir,
    GIT_OBJECT_DIRECTORY: quarantine,
    GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(repoDir, 'objects'),
  };
}

/**
 * Runs git with `input` on stdin (a buffer or a stream); its stdout, or an error carrying its stderr. While traces are on,
 * a span `git <args[0]>` (`git index-pack`, `git cat-file`, …).
 */
function runGit(args: string[], env: NodeJS.ProcessEnv, input?: Buffer | Readable): Promise<Buffer> {
  return inSpan(`git ${args[0]}`, {}, () => spawnGit(args, env, input));
}

function spawnGit(args: string[], env: NodeJS.ProcessEnv, input?: Buffer | Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git ${args[0]} failed (${code}): ${err.trim()}`)),
    );
    if (input === undefined) child.stdin.end();
    else if (Buffer.isBuffer(input)) child.stdin.end(input);
    else {
      input.pipe(child.stdin);
      // git may stop reading early (a pack it cannot index): the rest of the file is not read, and its descriptor closed.
      child.on('close', () => {
        input.unpipe(child.stdin);
        input.destroy();
      });
    }
  });
}

/** `git cat-file --batch` output: each object's type and bytes (absent when missing). */
function parseBatch(out: Buffer): Map<string, { type: string; data: Buffer }> {
  const objects = new Map<string, { type: string; data: Buffer }>();
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const [oid, type, size] = out.subarray(at, eol).toString('latin1').split(' ');
    at = eol + 1;
    if (type === 'missing' || size === undefined) continue;
    const n = Number(size);
    objects.set(oid, { type, data: out.subarray(at, at + n) });
    at += n + 1;
  }
  return objects;
}

function parseCommit(data: Buffer): PushedCommit {
  const header = data.subarray(0, Math.max(0, data.indexOf('\n\n'))).toString('utf8');
  const parents: string[] = [];
  let tree = '';
  for (const line of header.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
  }
  return { tree, parents };
}

function parseTree(data: Buffer): PushedTreeEntry[] {
  const entries: PushedTreeEntry[] = [];
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const nul = data.indexOf(0, space);
    if (space < 0 || nul < 0) break;
    entries.push({
      mode: data.subarray(at, space).toString('latin1'),
      name: data.subarray(space + 1, nul).toString('utf8'),
      oid: data.subarray(nul + 1, nul + 21).toString('hex'),
    });
    at = nul + 21;
  }
  return entries;
}

function objectReader(env: NodeJS.ProcessEnv): PushObjects {
  const batch = async (oids: string[]) =>
    oids.length ? parseBatch(await runGit(['cat-file', '--batch'], env, Buffer.from(`${oids.join('\n')}\n`))) : new Map();
  return {
    async commits(oids) {
      const out = new Map<string, PushedCommit>();
      for (const [oid, o] of await batch(oids)) if (o.type === 'commit') out.set(oid, parseCommit(o.data));
      return out;
    },
    async trees(oids) {
      const out = new Map<string, PushedTreeEntry[]>();
      for (const [oid, o] of await batch(oids)) if (o.type === 'tree') out.set(oid, parseTree(o.data));
      return out;
    },
    async sizes(oids) {
      const out = new Map<string, number>();
      if (!oids.length) return out;
      const text = (await runGit(['cat-file', '--batch-check'], env, Buffer.from(`${oids.join('\n')}\n`))).toString('latin1');
      for (const line of text.split('\n')) {
        const [oid, type, size] = line.split(' ');
        if (type && type !== 'missing') out.set(oid, Number(size));
      }
      return out;
    },
    async newCommits(tips) {
      if (!tips.length) return [];
      const text = (await runGit(['rev-list', ...tips, '--not', '--all'], env)).toString('latin1');
      return text.split('\n').filter(Boolean);
    },
  };
}

/** Reads pkt-lines from the start of the spooled request: the commands, push options, and where the pack starts. */
function parseCommands(file: string): { commands: RefCommand[]; capabilities: Set<string>; packStart: number } {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(size, MAX_HEADER_BYTES));
    fs.readSync(fd, head, 0, head.length, 0);
    const commands: RefCommand[] = [];
    const capabilities = new Set<string>();
    let at = 0;
    const next = (): Buffer | null => {
      if (at + 4 > head.length) throw new Error('the push request ends inside its commands');
      const len = parseInt(head.subarray(at, at + 4).toString('latin1'), 16);
      if (Number.isNaN(len) || (len > 0 && len < 4) || at + Math.max(len, 4) > head.length)
        throw new Error('the push request is not in git’s format');
      const line = len === 0 ? null : head.subarray(at + 4, at + len);
      at += len === 0 ? 4 : len;
      return line;
    };
    if (size === 0) return { commands, capabilities, packStart: 0 };
    for (let line = next(); line !== null; line = next()) {
      let text = line.toString('utf8');
      const nul = text.indexOf('\0');
      if (nul >= 0) {
        for (const c of text
          .slice(nul + 1)
          .trim()
          .split(' '))
          if (c) capabilities.add(c);
        text = text.slice(0, nul);
      }
      text = text.replace(/\n$/, '');
      if (text.startsWith('shallow ')) continue;
      const m = /^([0-9a-f]{40}) ([0-9a-f]{40}) (.+)$/.exec(text);
      if (!m) throw new Error('the push request is not in git’s format');
      commands.push({ old: m[1], new: m[2], ref: m[3] });
    }
    if (capabilities.has('push-options') && at < head.length) while (next() !== null);
    return { commands, capabilities, packStart: at };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Spools a push request (`POST …/git-receive-pack`) into a directory inside the repository, parses its commands and
 * indexes its pack into a quarantine there (the repository's objects unchanged). Call dispose() when done.
 */
export async function receiveIncoming(repoDir: string, body: Readable, contentEncoding?: string): Promise<IncomingPush> {
  const work = path.join(repoDir, `${PUSH_TMP_PREFIX}${crypto.randomBytes(8).toString('hex')}`);
  const quarantine = path.join(work, 'objects');
  const file = path.join(work, 'request');
  fs.mkdirSync(path.join(quarantine, 'pack'), { recursive: true });
  const dispose = () => fs.promises.rm(work, { recursive: true, force: true });
  try {
    const encoded = contentEncoding === 'gzip' || contentEncoding === 'x-gzip';
    await (encoded ? pipeline(body, zlib.createGunzip(), fs.createWriteStream(file)) : pipeline(body, fs.createWriteStream(file)));
    const { commands, capabilities, packStart } = parseCommands(file);
    const env = gitEnv(repoDir, quarantine);
    let unpackError: string | null = null;
    if (packStart < fs.statSync(file).size) {
      await runGit(['index-pack', '--stdin', '--fix-thin'], env, fs.createReadStream(file, { start: packStart })).catch((err: Error) => {
        unpackError = err.message.split('\n')[0];
      });
    }
    return { commands, capabilities, unpackError, objects: objectReader(env), body: () => fs.createReadStream(file), dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

function pktLine(payload: Buffer | string): Buffer {
  const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'utf8');
  return Buffer.concat([Buffer.from((bytes.length + 4).toString(16).padStart(4, '0'), 'latin1'), bytes]);
}

/** Reads the pkt-lines of `data` (up to a flush or the end): their payloads; null when the bytes are not pkt-lines. */
function pktLines(data: Buffer): Buffer[] | null {
  const out: Buffer[] = [];
  let at = 0;
  while (at + 4 <= data.length) {
    const len = parseInt(data.subarray(at, at + 4).toString('latin1'), 16);
    if (Number.isNaN(len) || len > data.length - at) return null;
    if (len === 0) break;
    if (len < 4) {
      at += 4;
      continue;
    }
    out.push(data.subarray(at + 4, at + len));
    at += len;
  }
  return out;
}

/**
 * What `git receive-pack` reported for each ref of a push (its answer's report-status, side band 1 when the client asked
 * for one): null for a ref it updated (`ok`), its reason for one it did not (`ng`). Null when the answer holds no
 * report (the client asked for none, or git failed before writing it).
 */
export function reportedRefs(answer: Buffer, capabilities: ReadonlySet<string>): Map<string, string | null> | null {
  let report: Buffer = answer;
  if (capabilities.has('side-band-64k') || capabilities.has('side-band')) {
    const packets = pktLines(answer);
    if (!packets) return null;
    report = Buffer.concat(packets.filter((p) => p[0] === 1).map((p) => p.subarray(1)));
  }
  const lines = pktLines(report);
  if (!lines?.length || !lines[0].toString('utf8').startsWith('unpack ')) return null;
  const refs = new Map<string, string | null>();
  for (const line of lines.slice(1)) {
    const text = line.toString('utf8').replace(/\n$/, '');
    if (text.startsWith('ok ')) refs.set(text.slice(3), null);
    else if (text.startsWith('ng ')) {
      const space = text.indexOf(' ', 3);
      refs.set(space < 0 ? text.slice(3) : text.slice(3, space), space < 0 ? 'failed' : text.slice(space + 1));
    }
  }
  return refs;
}

/**
 * Answers a push as `git receive-pack` answers one its pre-receive hook declined: the messages as `remote:` lines
 * (side band 2), every command `ng` with `reason` (by default the first message). Nothing in the repository changed.
 */
export function sendRefusal(reply: FastifyReply, push: IncomingPush, messages: string[], reason = messages[0] ?? 'refused'): FastifyReply {
  reason = reason.replace(/[\r\n]+/g, ' ');
  const report = Buffer.concat([
    pktLine(push.unpackError ? `unpack ${push.unpackError.replace(/[\r\n]+/g, ' ')}\n` : 'unpack ok\n'),
    ...push.commands.map((c) => pktLine(`ng ${c.ref} ${reason}\n`)),
    Buffer.from('0000', 'latin1'),
  ]);
  const sideband = push.capabilities.has('side-band-64k') ? 65515 : push.capabilities.has('side-band') ? 995 : 0;
  let out: Buffer;
  if (!sideband) {
    out = report;
  } else {
    const parts: Buffer[] = [];
    for (const m of messages)
      for (const line of m.split('\n')) parts.push(pktLine(Buffer.concat([Buffer.from([2]), Buffer.from(`${line}\n`, 'utf8')])));
    for (let i = 0; i < report.length; i += sideband)
      parts.push(pktLine(Buffer.concat([Buffer.from([1]), report.subarray(i, i + sideband)])));
    parts.push(Buffer.from('0000', 'latin1'));
    out = Buffer.concat(parts);
  }
  return reply.code(200).header('content-type', 'application/x-git-receive-pack-result').header('cache-control', 'no-cache').send(out);
}
