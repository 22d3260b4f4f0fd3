// A revision's `change_status`: lines added and deleted across its files, against the revision before it (jsdiff).
import { diffLines } from 'diff';

export interface SnapshotFile {
  filename: string;
  /** The blob SHA: equal SHAs mean equal bytes. */
  oid: string;
  content: Buffer;
}

export interface ChangeStatus {
  additions: number;
  deletions: number;
  total: number;
}

/** Beyond this edit distance the diff gives up and counts every line of both sides (a bounded cost for huge rewrites). */
const MAX_EDIT_LENGTH = 5000;
const TIMEOUT_MS = 2000;

function isBinary(content: Buffer): boolean {
  return content.includes(0);
}

function lineCount(text: string): number {
  if (!text) return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

function fileChange(before: Buffer | null, after: Buffer | null): { additions: number; deletions: number } {
  if ((before && isBinary(before)) || (after && isBinary(after))) return { additions: 0, deletions: 0 };
  const a = before ? before.toString('utf8') : '';
  const b = after ? after.toString('utf8') : '';
  if (!a) return { additions: lineCount(b), deletions: 0 };
  if (!b) return { additions: 0, deletions: lineCount(a) };
  const changes = diffLines(a, b, { maxEditLength: MAX_EDIT_LENGTH, timeout: TIMEOUT_MS });
  if (!changes) return { additions: lineCount(b), deletions: lineCount(a) };
  let additions = 0;
  let deletions = 0;
  for (const c of changes) {
    if (c.added) additions += c.count ?? lineCount(c.value);
    else if (c.removed) deletions += c.count ?? lineCount(c.value);
  }
  return { additions, deletions };
}

/**
 * Line changes from one file set to the next. A file that disappears under one name and appears under another with
 * the same bytes is a rename: no lines change (as git's rename detection reports it).
 */
export function changeStatus(before: SnapshotFile[], after: SnapshotFile[]): ChangeStatus {
  const old = new Map(before.map((f) => [f.filename, f]));
  const next = new Map(after.map((f) => [f.filename, f]));
  const removed = before.filter((f) => !next.has(f.filename));
  const added = after.filter((f) => !old.has(f.filename));
  const renamedFrom = new Set<string>();
  const renamedTo = new Set<string>();
  for (const a of added) {
    const source = removed.find((r) => r.oid === a.oid && !renamedFrom.has(r.filename));
    if (source) {
      renamedFrom.add(source.filename);
      renamedTo.add(a.filename);
    }
  }
  let additions = 0;
  let deletions = 0;
  const count = (c: { additions: number; deletions: number }) => {
    additions += c.additions;
    deletions += c.deletions;
  };
  for (const f of after) {
    const prior = old.get(f.filename);
    if (prior) {
      if (prior.oid !== f.oid) count(fileChange(prior.content, f.content));
    } else if (!renamedTo.has(f.filename)) {
      count(fileChange(null, f.content));
    }
  }
  for (const r of removed) if (!renamedFrom.has(r.filename)) count(fileChange(r.content, null));
  return { additions, deletions, total: additions + deletions };
}
