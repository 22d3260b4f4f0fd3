// What a gist write changes, decided once before anything is written: the next file set with each name kept, changed
// or added (and where its bytes come from), the files removed, the rows that go, the description. write.ts and the
// store apply it without comparing again. Pure: the body with its schema's failures (parse.ts), the current files and the
// limits in, a plan out.
import type { FieldError } from '../core/errors.js';
import type { GistFileRow } from '../db/tables/gists.js';
import { changeStatus, type ChangeStatus } from './diffstat.js';
import { invalid, parseCreate, parseUpdate, throwIf, type GistLimits, type Received } from './parse.js';
import { automaticName, byName, revisionProblems } from './rules.js';
import type { CreateBody, UpdateBody } from './schemas.js';

/** A gist's file as it is now (its row, bytes included). */
export type CurrentFile = Pick<GistFileRow, 'filename' | 'content' | 'blob_sha'>;

/** One file of the next revision. */
interface PlannedFile {
  filename: string;
  content: Buffer;
  /** Its blob id when its bytes are a current file's (kept, or moved by a rename); null: new bytes, written with the revision. */
  blob: string | null;
  /** kept: a current name with the same bytes (its row stays); changed: a current name with other bytes; added: a new name. */
  change: 'kept' | 'changed' | 'added';
  /** The current file it continues: its own name, the one renamed to it, or null (a new file). */
  from: string | null;
}

/** The files of a new revision against the files before it. */
export interface FilesPlan {
  /** The files before (none for a new gist): the line changes are counted against them. */
  before: readonly CurrentFile[];
  /** The complete file set of the revision, in git's order of names. */
  files: PlannedFile[];
  /** Names of current files the revision drops (deleted or renamed away), in name order. */
  removed: string[];
  /** Names of current files whose rows go: those removed, and those `changed`, in name order. */
  gone: string[];
}

export interface CreatePlan {
  description: string;
  public: boolean;
  files: FilesPlan;
}

export interface UpdatePlan {
  /** The new description, when it changes. */
  description?: string;
  /** The new revision's files, when they change (not when `files` was not sent, or changes nothing). */
  files?: FilesPlan;
}

/** A planned revision once its new bytes are written: every file with its blob id, and the line changes. */
export interface Revision {
  files: (PlannedFile & { blob: string })[];
  change: ChangeStatus;
}

/** A file of the next revision before it is compared with the current one of its name. */
type Draft = Omit<PlannedFile, 'change'>;

/** The next free automatic name: gistfile1.txt, gistfile2.txt, … */
function autoName(taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const name = automaticName(n);
    if (!taken.has(name)) return name;
  }
}

/**
 * The file set of a new revision against rules.ts, the rules `git push` meets too: names new in it (not in `kept`),
 * the number of files, their sizes.
 */
function checkRevision(files: Draft[], kept: ReadonlySet<string>, limits: GistLimits, errors: FieldError[]): void {
  const facts = files.map((f) => ({ filename: f.filename, size: f.content.length }));
  for (const p of revisionProblems(facts, kept, limits))
    errors.push({ resource: 'Gist', field: 'files', code: p.code, message: p.message });
}

/**
 * Each next file against the current file of its name: the same blob id, or (for new bytes) the same bytes, is kept;
 * this is the one comparison of bytes a write makes, and only for new bytes sent under a current name.
 */
function compare(before: readonly CurrentFile[], next: Draft[]): FilesPlan {
  const old = new Map(before.map((f) => [f.filename, f]));
  const files = next.map((d): PlannedFile => {
    const prior = old.get(d.filename);
    if (!prior) return { ...d, change: 'added' };
    if (d.blob !== null) return { ...d, change: d.blob === prior.blob_sha ? 'kept' : 'changed' };
    return d.content.equals(prior.content) ? { ...d, blob: prior.blob_sha, change: 'kept' } : { ...d, change: 'changed' };
  });
  files.sort(byName);
  const kind = new Map(files.map((f) => [f.filename, f.change]));
  return {
    before,
    files,
    removed: before.filter((f) => !kind.has(f.filename)).map((f) => f.filename),
    gone: before.filter((f) => kind.get(f.filename) !== 'kept').map((f) => f.filename),
  };
}

/** A create body's plan: its files (unnamed ones with the next free automatic names), checked against rules.ts. */
export function planCreate(body: Received<CreateBody>, limits: GistLimits): CreatePlan {
  const sent = parseCreate(body, limits);
  const taken = new Set(sent.files.flatMap((f) => (f.filename === null ? [] : [f.filename])));
  const automatic = new Set<string>();
  const files = sent.files.map((f): Draft => {
    let filename = f.filename;
    if (filename === null) {
      filename = autoName(taken);
      taken.add(filename);
      automatic.add(filename);
    }
    return { filename, content: f.content, blob: null, from: null };
  });
  const errors: FieldError[] = [];
  checkRevision(files, automatic, limits, errors);
  throwIf(errors);
  return { description: sent.description, public: sent.public, files: compare([], files) };
}

/**
 * An update body's plan against the gist as it is: unnamed files stay, `{filename}` renames, `{content}` replaces,
 * `null` deletes, a new name adds. Renaming onto a name that stays is refused; names the gist has (and keeps) were
 * accepted before, names given to unnamed files are hublet's own, other new names meet rules.ts.
 */
export function planUpdate(
  body: Received<UpdateBody>,
  current: { description: string; files: readonly CurrentFile[] },
  limits: GistLimits,
): UpdatePlan {
  const old = new Map(current.files.map((f) => [f.filename, f]));
  const sent = parseUpdate(body, (name) => old.has(name), limits);
  const plan: UpdatePlan = {};
  if (sent.description !== undefined && sent.description !== current.description) plan.description = sent.description;
  if (!sent.edits) return plan;

  const removed = new Set<string>();
  const added: (Omit<Draft, 'filename'> & { filename: string | null })[] = [];
  for (const edit of sent.edits) {
    const source = old.get(edit.key);
    if (source) removed.add(edit.key);
    if (edit.deletes) continue;
    // A rename alone moves the current file's bytes and blob; sent content is new bytes.
    const bytes = edit.content === null ? { content: source!.content, blob: source!.blob_sha } : { content: edit.content, blob: null };
    added.push({ filename: edit.target, ...bytes, from: source ? edit.key : null });
  }
  const errors: FieldError[] = [];
  const next = new Map<string, Draft>();
  for (const f of current.files) {
    if (!removed.has(f.filename)) next.set(f.filename, { filename: f.filename, content: f.content, blob: f.blob_sha, from: f.filename });
  }
  for (const a of added) {
    if (a.filename === null) continue;
    if (next.has(a.filename)) {
      errors.push(invalid('files', `a file named ${JSON.stringify(a.filename)} already exists in this gist`, 'already_exists'));
      continue;
    }
    next.set(a.filename, { ...a, filename: a.filename });
  }
  throwIf(errors);
  const kept = new Set(old.keys());
  const taken = new Set(next.keys());
  for (const a of added) {
    if (a.filename !== null) continue;
    const filename = autoName(taken);
    taken.add(filename);
    kept.add(filename);
    next.set(filename, { ...a, filename });
  }
  const files = [...next.values()];
  checkRevision(files, kept, limits, errors);
  throwIf(errors);
  const change = compare(current.files, files);
  if (change.gone.length || change.files.some((f) => f.change === 'added')) plan.files = change;
  return plan;
}

/**
 * The plan once its new bytes are written: `written` holds the blob ids of the files without one, in the plan's order.
 * Line changes count against the files before, a file that reappears under another name with the same blob as a
 * rename (diffstat.ts): that needs the new blobs' ids, so it is counted here and not before.
 */
export function revisionOf(plan: FilesPlan, written: readonly string[]): Revision {
  let next = 0;
  const files = plan.files.map((f) => ({ ...f, blob: f.blob ?? written[next++] }));
  const change = changeStatus(
    plan.before.map((f) => ({ filename: f.filename, oid: f.blob_sha, content: f.content })),
    files.map((f) => ({ filename: f.filename, oid: f.blob, content: f.content })),
  );
  return { files, change };
}

/**
 * A pushed tree's rows against the current ones, by blob id (all a push can tell): the names whose rows go (gone or
 * holding another blob) and the rows to insert.
 */
export function treeChange(
  before: readonly Pick<GistFileRow, 'filename' | 'blob_sha'>[],
  next: GistFileRow[],
): { gone: string[]; rows: GistFileRow[] } {
  const old = new Map(before.map((f) => [f.filename, f.blob_sha]));
  const keep = new Set(next.filter((f) => old.get(f.filename) === f.blob_sha).map((f) => f.filename));
  return { gone: before.map((f) => f.filename).filter((n) => !keep.has(n)), rows: next.filter((f) => !keep.has(f.filename)) };
}
