// Git's smart HTTP protocol, served by spawning `git http-backend` per request behind our own authentication; while
// traces are on, each run is a span named for the service git runs (`git upload-pack`, `git receive-pack`).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.js';
import { ServiceUnavailable } from '../core/errors.js';
import { diffRefs, readRefs, type RefUpdate } from './bare.js';
import { spanningLock } from './keyed-lock.js';
import { inSpan } from '../tracing/spans.js';

/** Whether `git` ran, per value of PATH (the answer can only change when PATH does). */
const gitOnPath = new Map<string, boolean>();

/** True when a `git` executable is on PATH (checked once per PATH). */
export function gitAvailable(): boolean {
  const searched = process.env.PATH ?? '';
  let found = gitOnPath.get(searched);
  if (found === undefined) {
    found = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;
    gitOnPath.set(searched, found);
  }
  return found;
}

export function requireGit(): void {
  if (!gitAvailable()) throw new ServiceUnavailable('Git hosting is unavailable: no `git` executable on the server');
}

/** The part of a smart-HTTP URL after the repository: `info/refs`, `git-upload-pack` or `git-receive-pack`. */
export type GitEndpoint = 'info/refs' | 'git-upload-pack' | 'git-receive-pack';

/** Whether a request reads (clone/fetch) or writes (push). */
export function gitOperation(endpoint: GitEndpoint, query: Record<string, unknown>): 'read' | 'write' {
  if (endpoint === 'git-receive-pack') return 'write';
  if (endpoint === 'info/refs' && query.service === 'git-receive-pack') return 'write';
  return 'read';
}

/** Registers raw-stream bodies for git's content types (inside the calling plugin only). */
export function registerGitBodies(app: FastifyInstance): void {
  app.addContentTypeParser(
    ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request'],
    { bodyLimit: Number.MAX_SAFE_INTEGER },
    (_request, payload, done) => done(null, payload),
  );
}

/** Answers a git client with a message it prints as `remote: …` (git shows text/plain error bodies). */
export function gitRefusal(reply: FastifyReply, status: 401 | 403 | 404, message: string): FastifyReply {
  if (status === 401) reply.header('www-authenticate', 'Basic realm="hublet"');
  return reply.code(status).header('content-type', 'text/plain; charset=utf-8').send(`${message}\n`);
}

/**
 * Per-repository push serialisation, so a before/after ref snapshot belongs to exactly one push: in this process and
 * across the servers sharing the data dir and one PostgreSQL database (keyed by the repository's directory: every
 * server mounts the shared data dir at the same path, as deploy/README.md says).
 */
const withPushLock = spanningLock('push');

export interface ServeGitOptions {
  repoDir: string;
  endpoint: GitEndpoint;
  /** Login recorded as REMOTE_USER (pushes need one). */
  remoteUser?: string;
  /**
   * Called after a push whose refs changed, with the updates, before the response ends. Pushes with onPush take turns
   * per repository under the push lock, on `lockDb` (the app's database: the lock spans the processes sharing it).
   */
  onPush?: (updates: RefUpdate[]) => Promise<void>;
  lockDb?: Db;
  /** The request body to hand git instead of the request's own (already decoded: no Content-Encoding is passed on). */
  body?: Readable;
}

/**
 * Runs `git http-backend` for one request and streams its answer. Authorization must be decided before calling.
 */
export async function serveGit(request: FastifyRequest, reply: FastifyReply, opts: ServeGitOptions): Promise<FastifyReply> {
  requireGit();
  const isPush = opts.endpoint === 'git-receive-pack';
  if (isPush && opts.onPush) {
    if (!opts.lockDb) throw new Error('serveGit: a push with onPush needs lockDb');
    return withPushLock(opts.lockDb, opts.repoDir, async () => {
      const before = await readRefs(opts.repoDir);
      try {
        await streamBackend(request, reply, opts);
        const updates = diffRefs(before, await readRefs(opts.repoDir));
        // Recorded before the client hears the push finished, so its event exists once `git push` returns.
        if (updates.length) await opts.onPush!(updates);
      } finally {
        if (!reply.raw.writableEnded) reply.raw.end();
      }
      return reply;
    });
  }
  await streamBackend(request, reply, opts);
  if (!reply.raw.writableEnded) reply.raw.end();
  return reply;
}

/** What `git http-backend` answered, held back: nothing of it has reached the client yet. */
export interface GitAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Runs `git http-backend` for one request and collects its whole answer instead of streaming it, so the caller can
 * decide what the client hears (a push's report is small). Send it with sendGitAnswer. Authorization as for serveGit.
 */
export async function heldGitAnswer(request: FastifyRequest, opts: Omit<ServeGitOptions, 'onPush'>): Promise<GitAnswer> {
  requireGit();
  let status = 500;
  let headers: Record<string, string> = { 'content-type': 'text/plain' };
  const chunks: Buffer[] = [];
  const answered = await runBackend(request, opts, {
    head(s, h) {
      status = s;
      headers = h;
    },
    write(chunk) {
      chunks.push(chunk);
    },
  });
  return answered
    ? { status, headers, body: Buffer.concat(chunks) }
    : { status: 500, headers, body: Buffer.from('git http-backend failed\n') };
}

export function sendGitAnswer(reply: FastifyReply, answer: GitAnswer): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

/** Runs git http-backend with its answer streamed to the client (a 500 when git fails before its headers). */
async function streamBackend(request: FastifyRequest, reply: FastifyReply, opts: ServeGitOptions): Promise<void> {
  const raw = reply.raw;
  const answered = await runBackend(request, opts, {
    head(status, headers) {
      reply.hijack();
      raw.writeHead(status, headers);
    },
    write(chunk, pause) {
      if (!raw.write(chunk)) raw.once('drain', pause());
    },
  });
  if (!answered) reply.code(500).header('content-type', 'text/plain').send('git http-backend failed\n');
}

/** Where git's CGI answer goes: its status and headers once, then its body. */
interface AnswerSink {
  head(status: number, headers: Record<string, string>): void;
  /** A part of the body; `pause()` stops git's output and returns the function that resumes it. */
  write(chunk: Buffer, pause: () => () => void): void;
}

/**
 * After git is done with a request: a body it stopped reading (git exits early on a request it refuses) is unpiped,
 * and the rest of the request is read and dropped. Otherwise the request stays paused mid-body and its keep-alive
 * connection never reads the next request. A body other than the request's own (a spooled copy) is closed.
 */
function releaseBody(request: FastifyRequest, body: Readable | undefined, stdin: NodeJS.WritableStream): void {
  if (body) {
    body.unpipe(stdin);
    if (body !== request.raw) body.destroy();
  }
  if (!request.raw.complete) request.raw.resume();
}

/** Runs git http-backend for one request, its answer into `sink`. False when git ended without an answer (logged). */
function runBackend(request: FastifyRequest, opts: Omit<ServeGitOptions, 'onPush'>, sink: AnswerSink): Promise<boolean> {
  const service = gitOperation(opts.endpoint, request.query as Record<string, unknown>) === 'write' ? 'receive-pack' : 'upload-pack';
  return inSpan(`git ${service}`, { 'git.endpoint': opts.endpoint }, () => spawnBackend(request, opts, sink), {
    end: (answered) => (answered ? {} : { 'error.type': 'no answer' }),
  });
}

function spawnBackend(request: FastifyRequest, opts: Omit<ServeGitOptions, 'onPush'>, sink: AnswerSink): Promise<boolean> {
  const url = new URL(request.url, 'http://x');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_PROJECT_ROOT: path.dirname(opts.repoDir),
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: `/${path.basename(opts.repoDir)}/${opts.endpoint}`,
    REQUEST_METHOD: request.method,
    QUERY_STRING: url.search.replace(/^\?/, ''),
    CONTENT_TYPE: request.headers['content-type'] ?? '',
    REMOTE_ADDR: request.ip,
    ...(opts.remoteUser ? { REMOTE_USER: opts.remoteUser } : {}),
    ...(request.headers['content-encoding'] && !opts.body ? { HTTP_CONTENT_ENCODING: String(request.headers['content-encoding']) } : {}),
    ...(request.headers['git-protocol'] ? { GIT_PROTOCOL: String(request.headers['git-protocol']) } : {}),
  };
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const given = opts.body ?? (request.body as Readable | undefined);
  const body = given && typeof given.pipe === 'function' ? given : undefined;
  if (body) body.pipe(child.stdin);
  else child.stdin.end();
  child.stdin.on('error', () => {});
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));

  return new Promise<boolean>((resolve, reject) => {
    let head = Buffer.alloc(0);
    let headersDone = false;
    const pause = () => {
      child.stdout.pause();
      return () => child.stdout.resume();
    };
    const onData = (chunk: Buffer) => {
      if (headersDone) {
        sink.write(chunk, pause);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      const endLf = head.indexOf('\n\n');
      const cut = end >= 0 ? end : endLf;
      if (cut < 0) return;
      const sepLen = end >= 0 ? 4 : 2;
      const lines = head.subarray(0, cut).toString('latin1').split(/\r?\n/);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        if (i <= 0) continue;
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = parseInt(v, 10) || 200;
        else headers[k] = v;
      }
      headersDone = true;
      sink.head(status, headers);
      const rest = head.subarray(cut + sepLen);
      if (rest.length) sink.write(rest, pause);
    };
    child.stdout.on('data', onData);
    child.on('error', (err) => {
      releaseBody(request, body, child.stdin);
      reject(err);
    });
    child.on('close', (code) => {
      releaseBody(request, body, child.stdin);
      if (!headersDone) {
        request.log.error({ reqId: request.id, code, stderr }, 'git http-backend failed');
        resolve(false);
        return;
      }
      if (code !== 0) request.log.warn({ reqId: request.id, code, stderr }, 'git http-backend exited with an error');
      resolve(true);
    });
  });
}
