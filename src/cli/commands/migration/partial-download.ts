// A download in progress: the bytes in OUT.part and, beside them, OUT.part.json recording which archive they are the
// start of (the server's migration URL, the migration's id and guid, the archive's ETag, size and digest). Only bytes
// with a record that matches the migration asked for now are resumed; anything else starts from zero.
//
// The record is removed before OUT.part is emptied and written again only after, so whenever a record is there, the
// part's bytes are a prefix of the archive it names. OUT itself is written once, complete and checked, by `place`.
import fs from 'node:fs';
import path from 'node:path';
import { CliExit, EXIT } from '../../output.js';
import type { Digest } from './archive-digest.js';

const FORMAT = 'hublet-migration-archive-download/1';

export interface PartialPaths {
  /** Where the archive goes once complete. */
  out: string;
  /** The bytes so far. */
  part: string;
  /** What archive they are the start of. */
  record: string;
}

export function partialPaths(out: string): PartialPaths {
  return { out, part: `${out}.part`, record: `${out}.part.json` };
}

/** Which archive: the migration (as the API names it) and what its server said of the archive's bytes. */
export interface ArchiveIdentity {
  /** The migration's API URL (it names the server, the owner and the id). */
  migration: string;
  id: number;
  guid: string;
  /** The archive's strong ETag, sent back as If-Range when resuming; without one nothing resumes. */
  etag?: string;
  /** Content-Length of the whole archive. */
  size?: number;
  digest?: Digest;
}

interface Record extends ArchiveIdentity {
  format: typeof FORMAT;
  started_at: string;
}

/** A strong validator (If-Range takes no weak one). */
export const strongEtag = (etag: string | undefined): string | undefined => (etag && !etag.startsWith('W/') ? etag : undefined);

function readRecord(file: string): Record | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8')) as Record;
    return r && r.format === FORMAT ? r : undefined;
  } catch {
    return undefined;
  }
}

function sizeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

/** Bytes in OUT.part that may be resumed: from where, and the record (its ETag goes into If-Range). */
export interface Resumable {
  from: number;
  record: ArchiveIdentity;
}

/**
 * What OUT.part holds for this migration: bytes to resume, or why they are not (`reason`, said when starting over), or
 * undefined when there is nothing there to speak of.
 */
export function resumable(paths: PartialPaths, m: { url: string; id: number; guid: string }): Resumable | { reason: string } | undefined {
  const have = sizeOf(paths.part);
  const record = readRecord(paths.record);
  if (!have) return undefined;
  if (!record) return { reason: 'has no record of which archive it is the start of' };
  if (record.migration !== m.url || record.id !== m.id || record.guid !== m.guid)
    return { reason: `is the start of another archive (${record.migration}, guid ${record.guid})` };
  const etag = strongEtag(record.etag);
  const size = record.size;
  if (!etag || !Number.isSafeInteger(size) || size === undefined)
    return { reason: 'is from a server that gave no ETag and size to resume against' };
  if (have >= size) return { reason: 'is as long as the archive but was never checked' };
  return { from: have, record: { ...record, etag } };
}

/** Starts OUT.part afresh for this archive: the old record removed, the part emptied, then the new record written. */
export function startPart(paths: PartialPaths, identity: ArchiveIdentity): void {
  fs.rmSync(paths.record, { force: true });
  fs.writeFileSync(paths.part, '');
  const record: Record = { format: FORMAT, ...identity, started_at: new Date().toISOString() };
  fs.writeFileSync(paths.record, `${JSON.stringify(record, null, 2)}\n`);
}

/** Removes the part and its record (a download that cannot be resumed or failed its check). */
export function discardPart(paths: PartialPaths): void {
  fs.rmSync(paths.record, { force: true });
  fs.rmSync(paths.part, { force: true });
}

/** An error when OUT may not be written: a directory, a missing directory, or an existing file without --clobber. */
export function refuseOutput(out: string, clobber: boolean): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(out);
  } catch {
    stat = undefined;
  }
  if (stat?.isDirectory()) throw new CliExit(EXIT.usage, `hublet: ${out} is a directory: name the archive's file with -o`);
  if (stat && !clobber)
    throw new CliExit(EXIT.usage, `hublet: ${out} already exists: pass --clobber to replace it, or -o to save elsewhere`);
  const dir = path.dirname(out);
  if (!fs.existsSync(dir)) throw new CliExit(EXIT.usage, `hublet: ${dir} does not exist: the archive cannot be saved there`);
}

/**
 * Puts the complete, checked part at OUT and removes its record. Without --clobber OUT is created only if it still
 * does not exist (a hard link, which fails on an existing name; a rename where the file system has no links).
 */
export function place(paths: PartialPaths, clobber: boolean): void {
  if (clobber) fs.renameSync(paths.part, paths.out);
  else {
    try {
      fs.linkSync(paths.part, paths.out);
      fs.rmSync(paths.part);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST')
        throw new CliExit(
          EXIT.usage,
          `hublet: ${paths.out} appeared while downloading: the archive is complete in ${paths.part}; pass --clobber to replace it`,
        );
      if (fs.existsSync(paths.out)) throw err;
      fs.renameSync(paths.part, paths.out);
    }
  }
  fs.rmSync(paths.record, { force: true });
}
