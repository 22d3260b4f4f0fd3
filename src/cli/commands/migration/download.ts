// `hublet migration download ID [--org ORG] [-o FILE] [--clobber]`: the archive, saved only complete and checked, with
// a progress bar on a terminal, resuming a download that was cut off.
//
// The same way in both modes: GET …/archive answers with a redirect to a signed URL, which is fetched where the client
// reaches it: remotely the URL itself; locally the same path on the client's loopback gateway into the in-process app,
// which streams it from the archive store. The bytes go to FILE.part, with FILE.part.json recording which archive they
// are the start of (partial-download.ts); a later run resumes them only when that record is this migration's, sending
// the recorded ETag as If-Range (a 200 instead of a 206 means the archive changed: start over). FILE is written once,
// complete: its size as the server said, and its digest when the server sent one (archive-digest.ts). An existing FILE
// is never replaced without --clobber.
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { digestOf, fileDigest } from './archive-digest.js';
import {
  discardPart,
  partialPaths,
  place,
  refuseOutput,
  resumable,
  startPart,
  strongEtag,
  type ArchiveIdentity,
  type PartialPaths,
  type Resumable,
} from './partial-download.js';
import { bytes, Progress } from './progress.js';
import { basePath, getMigration, migrationId, withOrgOption, type Migration, type MigrationOptions, type ScopeOptions } from './shared.js';

interface DownloadOptions extends MigrationOptions {
  /** Where to save it: an absolute path. */
  out: string;
  clobber: boolean;
}

/** The signed URL as this client reaches it, with the header that gets it there (locally the gateway's key). */
interface Target {
  url: string;
  headers: Record<string, string>;
}

interface Opened {
  body: Readable;
  identity: ArchiveIdentity;
  /** Where the body starts in the archive: the bytes already in the part. */
  from: number;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A network or file error in a few words: undici's message alone, a system error's with its code (ENOSPC). */
function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  return code && !code.startsWith('UND_ERR') ? `${err.message} (${code})` : err.message;
}

async function get(target: Target, signal: AbortSignal, range?: { from: number; etag: string }) {
  const { request } = await import('undici');
  const headers = { ...target.headers, ...(range ? { range: `bytes=${range.from}-`, 'if-range': range.etag } : {}) };
  try {
    return await request(target.url, { headers, signal });
  } catch (err) {
    throw new CliExit(EXIT.error, `hublet: cannot fetch the archive: ${signal.aborted ? 'interrupted' : describeError(err)}`);
  }
}

/** A 206 that goes on exactly where the part ends, to the end of the same archive. */
function continues(statusCode: number, headers: IncomingHttpHeaders, r: Resumable): boolean {
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header(headers, 'content-range') ?? '');
  const etag = header(headers, 'etag');
  const size = r.record.size ?? -1;
  return (
    statusCode === 206 &&
    range !== null &&
    Number(range[1]) === r.from &&
    Number(range[2]) === size - 1 &&
    Number(range[3]) === size &&
    (etag === undefined || etag === r.record.etag)
  );
}

/** The archive a 200 carries, as the part's record names it. */
function identityOf(m: Migration, headers: IncomingHttpHeaders): ArchiveIdentity {
  const length = header(headers, 'content-length') ?? '';
  return {
    migration: m.url,
    id: m.id,
    guid: m.guid,
    etag: strongEtag(header(headers, 'etag')),
    size: /^\d+$/.test(length) ? Number(length) : undefined,
    digest: digestOf(headers, true),
  };
}

/** The archive's bytes from where the part ends when it is proven to be this archive's start, else from zero in an emptied part. */
async function openArchive(target: Target, m: Migration, paths: PartialPaths, signal: AbortSignal, io: IO): Promise<Opened> {
  const prior = resumable(paths, m);
  let res: Awaited<ReturnType<typeof get>> | undefined;
  if (prior && 'from' in prior) {
    res = await get(target, signal, { from: prior.from, etag: prior.record.etag as string });
    if (continues(res.statusCode, res.headers, prior)) return { body: res.body, identity: prior.record, from: prior.from };
    io.stderr.write(
      `hublet: starting over: ${res.statusCode === 200 ? 'the server sent the whole archive (it changed since, or does not resume)' : `the server answered the resumed request with ${res.statusCode}`}\n`,
    );
    if (res.statusCode !== 200) {
      await res.body.dump();
      res = undefined;
    }
  } else if (prior) io.stderr.write(`hublet: starting over: ${paths.part} ${prior.reason}\n`);
  res ??= await get(target, signal);
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new CliExit(EXIT.error, `hublet: the archive answered ${res.statusCode}`);
  }
  const identity = identityOf(m, res.headers);
  startPart(paths, identity);
  return { body: res.body, identity, from: 0 };
}

/** Writes all of a chunk at the file's end. */
function writeAll(fd: number, chunk: Uint8Array): void {
  for (let off = 0; off < chunk.length; ) off += fs.writeSync(fd, chunk, off);
}

/**
 * Appends the body to the part and returns the error that stopped it, if any. Each chunk is written as it arrives
 * (synchronously, in the data event): whatever came before a connection broke is kept for resuming, not dropped with
 * the stream's buffer.
 */
async function receive(opened: Opened, part: string, io: IO): Promise<unknown> {
  const progress = new Progress(io);
  const started = Date.now();
  const total = opened.identity.size;
  let received = 0;
  const draw = (force = false) => {
    const done = opened.from + received;
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : width;
    const rate = received / Math.max(0.001, (Date.now() - started) / 1000);
    progress.update(
      `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${bytes(done)} / ${total === undefined ? '?' : bytes(total)}  ${bytes(Math.round(rate))}/s`,
      force,
    );
  };
  const fd = fs.openSync(part, 'a');
  const { body } = opened;
  try {
    body.on('data', (chunk: Buffer) => {
      try {
        writeAll(fd, chunk);
      } catch (err) {
        body.destroy(err as Error);
        return;
      }
      received += chunk.length;
      draw();
    });
    await finished(body);
    draw(true);
    return undefined;
  } catch (err) {
    return err;
  } finally {
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    progress.done();
  }
}

/** The 302 to the signed URL; a 404 of a migration that exists means its archive is gone. */
async function archiveLocation(opts: DownloadOptions): Promise<string> {
  const res = await opts.client.request('GET', `${basePath(opts)}/${opts.id}/archive`);
  if (res.status === 302 && res.headers.location) return res.headers.location;
  try {
    expectOk(res);
  } catch (err) {
    if (err instanceof CliExit && res.status === 404)
      throw new CliExit(
        err.code,
        `${err.message}\nhublet: migration ${opts.id} has no archive to download now (deleted, or past its lifetime)`,
      );
    throw err;
  }
  throw new CliExit(EXIT.error, `hublet: expected a redirect to the archive, got ${res.status}`);
}

function notReady(m: Migration, opts: DownloadOptions): CliExit {
  if (m.state === 'failed')
    return new CliExit(EXIT.error, `hublet: migration ${m.id} failed${m.failure_reason ? `: ${m.failure_reason}` : ''}; it has no archive`);
  return new CliExit(
    EXIT.error,
    `hublet: migration ${m.id} is ${m.state}: its archive is not ready yet; wait with: hublet migration status ${m.id}${opts.org ? ` --org ${opts.org}` : ''} --wait`,
  );
}

export async function runDownload(opts: DownloadOptions, io: IO): Promise<void> {
  const { client, id } = opts;
  const paths = partialPaths(opts.out);
  const m = await getMigration(client, opts, id);
  if (m.state !== 'exported') throw notReady(m, opts);
  const reached = await client.reach(await archiveLocation(opts));
  const target: Target = { url: reached.url, headers: reached.token ? { authorization: `Bearer ${reached.token}` } : {} };
  const abort = new AbortController();
  let stopped: string | undefined;
  void io.stopSignal().then((signal) => {
    stopped = signal;
    abort.abort();
  });
  const opened = await openArchive(target, m, paths, abort.signal, io);
  const failure = await receive(opened, paths.part, io);
  const { identity } = opened;
  const size = fs.statSync(paths.part).size;
  const of = identity.size === undefined ? '' : ` of ${bytes(identity.size)}`;
  if (failure !== undefined || (identity.size !== undefined && size < identity.size)) {
    const why = stopped ? `interrupted by ${stopped}` : failure !== undefined ? describeError(failure) : 'the server ended it early';
    const keep = identity.etag !== undefined && identity.size !== undefined;
    if (!keep) discardPart(paths);
    const next = keep
      ? `the part is kept in ${paths.part}: run the same command again to resume`
      : 'the server gave no ETag and size to resume against, so the part was removed: run the command again';
    throw new CliExit(EXIT.error, `hublet: the download of migration ${id}'s archive stopped at ${bytes(size)}${of} (${why}); ${next}`);
  }
  if (identity.size !== undefined && size > identity.size) {
    discardPart(paths);
    throw new CliExit(
      EXIT.error,
      `hublet: the archive of migration ${id} came to ${bytes(size)}, more than the server's ${bytes(identity.size)}; the download was removed: run the command again`,
    );
  }
  const digest = identity.digest;
  if (digest && (await fileDigest(paths.part, digest.algorithm)) !== digest.value) {
    discardPart(paths);
    throw new CliExit(
      EXIT.error,
      `hublet: the archive of migration ${id} does not match the server's ${digest.algorithm} digest (${digest.header}); the download was removed: run the command again`,
    );
  }
  place(paths, opts.clobber);
  if (opts.json)
    printJson(io.stdout, { id: Number(id), file: paths.out, size, resumed_from: opened.from, digest: digest?.algorithm ?? null });
  else {
    const notes = [
      bytes(size),
      ...(opened.from > 0 ? [`resumed at ${bytes(opened.from)}`] : []),
      ...(digest ? [`${digest.algorithm} checked`] : []),
    ];
    io.stdout.write(`saved the archive of migration ${id} to ${paths.out} (${notes.join('; ')})\n`);
  }
}

export function registerDownload(migration: Command, f: Factory): void {
  withOrgOption(
    withExamples(
      migration
        .command('download')
        .argument('<id>', 'migration id', migrationId)
        .description(
          'download the archive, checked (size and digest) before it is saved; run it again to resume an interrupted download of the same archive',
        )
        .option('-o, --output <file>', 'where to save it (default migration_archive_ID.tar.gz)')
        .option('--clobber', 'replace the file if it exists'),
      ['hublet migration download --org acme 7', 'hublet migration download 8 -o ~/backups/dotfiles.tar.gz --clobber'],
    ),
  ).action(async (id: string, flags: ScopeOptions & { output?: string; clobber?: boolean }, command: Command) => {
    const out = path.resolve(flags.output ?? `migration_archive_${id}.tar.gz`);
    const clobber = Boolean(flags.clobber);
    refuseOutput(out, clobber);
    return withClient(command, f, (c) => runDownload({ ...c, org: flags.org, out, clobber, id }, f.io));
  });
}
