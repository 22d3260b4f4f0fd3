// Unpacking a migration archive (tar.gz, or plain tar) streamed into a fresh directory: every entry checked before it is
// written (plain files and directories only, no path leaving the directory), sizes bounded, never held in memory whole.
import { Transform, type Readable } from 'node:stream';
import { Unpack } from 'tar';
import { ValidationFailed } from '../../core/errors.js';

/** How much an archive may hold. */
export interface ExtractLimits {
  /** Bytes read from the stream (compressed) and bytes written to disk, each. */
  maxBytes: number;
  /** Largest single JSON file (records are parsed whole, so this bounds memory). */
  maxJsonBytes: number;
}

/** A refused archive: GitHub's 422 with one error on the `archive` field, and a message that says why. */
export function archiveRefused(message: string): ValidationFailed {
  return new ValidationFailed(
    [{ resource: 'Migration', field: 'archive', code: 'invalid', message }],
    `The archive was refused: ${message}`,
  );
}

/** Why an entry's path may not be written, or undefined when it stays inside the archive's directory. */
function pathProblem(p: string): string | undefined {
  if (p.includes('\0')) return 'an entry name holds a NUL character';
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.includes('\\'))
    return `the entry ${JSON.stringify(p)} has an absolute or non-POSIX path`;
  if (p.split('/').includes('..')) return `the entry ${JSON.stringify(p)} leaves the archive (a "..")`;
  return undefined;
}

/** Counts the bytes going through, and fails once more than `max` went by. */
function byteCap(max: number, onExceeded: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) return done(onExceeded());
      done(null, chunk);
    },
  });
}

/**
 * Unpacks `input` into `dir` (which must exist and be empty). Refused (a 422, see archiveRefused), with the cause named:
 * symbolic or hard links and other special entries, absolute paths or `..`, more than `maxBytes` in or out, a JSON
 * file over `maxJsonBytes`, and a damaged or truncated stream. The caller removes `dir` afterwards either way.
 */
export function extractArchive(input: Readable, dir: string, limits: ExtractLimits): Promise<void> {
  return new Promise((resolve, reject) => {
    let refusal: string | undefined;
    let written = 0;
    let settled = false;
    const finish = (err?: unknown) => {
      if (settled) return;
      settled = true;
      input.unpipe();
      input.resume(); // drain what the client still sends, so it hears the answer
      if (err === undefined && refusal === undefined) return resolve();
      const said = err instanceof Error ? err.message : String(err ?? '');
      reject(archiveRefused(refusal ?? `it is damaged or truncated (${said.replace(/^TAR_[A-Z_]+:?\s*/, '') || 'unreadable'})`));
    };
    const unpack = new Unpack({
      cwd: dir,
      strict: true,
      preserveOwner: false,
      noMtime: true,
      filter: (p, entry) => {
        if (refusal) return false;
        const e = entry as { type?: string; size?: number };
        const type = e.type ?? '';
        if (type !== 'File' && type !== 'OldFile' && type !== 'Directory')
          refusal = `the entry ${JSON.stringify(p)} is a ${type === 'SymbolicLink' ? 'symbolic link' : type === 'Link' ? 'hard link' : type || 'special entry'}: archives hold plain files and directories only`;
        refusal ??= pathProblem(p);
        const size = e.size ?? 0;
        written += size;
        if (!refusal && written > limits.maxBytes) refusal = `it unpacks to more than ${limits.maxBytes} bytes (the import size limit)`;
        if (!refusal && /^[^/]+\.json$/.test(p) && size > limits.maxJsonBytes) refusal = `${p} is larger than ${limits.maxJsonBytes} bytes`;
        if (refusal) {
          unpack.abort(new Error(refusal));
          return false;
        }
        return true;
      },
    });
    const cap = byteCap(limits.maxBytes, () => {
      refusal ??= `it is larger than ${limits.maxBytes} bytes (the import size limit)`;
      return new Error(refusal);
    });
    input.on('error', finish);
    cap.on('error', finish);
    unpack.on('error', finish);
    // Every file is on disk once it emits `end` (`close` too, in some versions).
    unpack.on('end', () => finish());
    unpack.on('close', () => finish());
    input.pipe(cap).pipe(unpack as unknown as NodeJS.WritableStream);
  });
}
