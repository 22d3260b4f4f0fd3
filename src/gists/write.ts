// The one write path for a gist's files, applying a plan (plan.ts): git objects first, then the database rows in one
// transaction, then the ref.
//
// Why the database and git cannot drift:
// 1. New blobs, tree and commit are written into the gist's bare repository. Nothing points at them yet, so a failure
//    here leaves only unreachable objects that nobody can see.
// 2. One transaction creates the gist row or moves `gists.head_sha` from the parent commit to the new one with a
//    compare-and-set (it fails when another writer moved it first: the caller re-reads and retries), replaces the
//    changed file rows and appends the revision row. So every commit the database names already exists on disk, and
//    a failure rolls the rows back while the objects stay unreachable. Concurrent writes share that transaction
//    (group-commit.ts): each is answered only once it has committed.
// 3. The branch ref is moved to the new commit. The database is the source of truth for the head: if the process
//    stops between 2 and 3 the ref lags behind, and every git request first puts the ref where the database says
//    (`syncRef`), so a clone never shows a state the API does not.
// Pushes come the other way round (`git receive-pack` moves the ref itself): push.ts reads the pushed tree into the
// same rows with the same compare-and-set, and puts the ref back when that fails.
import type { UserRow } from '../db/schema.js';
import type { ServiceContext } from '../core/context.js';
import type { ChangeStatus } from './diffstat.js';
import { setHead, writeBlobs, writeCommit, readHead, type Identity } from './git.js';
import { detectLanguage, isBinary } from './language.js';
import { revisionOf, type FilesPlan } from './plan.js';
import { type Claim, commitRevision } from './group-commit.js';
import type { GistFileRow } from '../db/tables/gists.js';

/** The author and committer of a revision written by hublet. */
function identity(user: UserRow, baseUrl: string): Identity {
  const host = new URL(baseUrl).hostname || 'localhost';
  return { name: user.login, email: `${user.id}+${user.login}@users.noreply.${host}` };
}

/** A file row for the database: bytes, blob SHA, size, language and media type. */
export async function fileRow(gistId: string, filename: string, content: Buffer, oid: string): Promise<GistFileRow> {
  const detected = await detectLanguage(filename, content);
  return {
    gist_id: gistId,
    filename,
    content,
    size: content.length,
    blob_sha: oid,
    language: detected.language,
    type: detected.type,
    binary: isBinary(content) ? 1 : 0,
  };
}

export interface WriteFilesInput {
  gistId: string;
  dir: string;
  /** The head before this revision (null for a new gist). */
  parent: string | null;
  /** What the revision changes against the files at `parent` (plan.ts). */
  plan: FilesPlan;
  author: UserRow;
  when: Date;
  /**
   * How the transaction takes the head, once the revision's commit `head` is known: the new gist's row, or a move of
   * its head from `parent` to `head`, which fails when another writer moved it first (nothing is written then).
   */
  claimHead: (head: string) => Claim;
}

export interface WriteResult {
  head: string;
  change: ChangeStatus;
  /** The file rows written (added or changed; for a new gist, all of its files). */
  rows: GistFileRow[];
}

/** Writes one revision through git and the database (see the header for the order). Null: the head moved meanwhile. */
export async function writeFiles(ctx: ServiceContext, input: WriteFilesInput): Promise<WriteResult | null> {
  // Only new bytes are written: a kept file, or one renamed without a change, already has its blob.
  const fresh = input.plan.files.filter((f) => f.blob === null);
  const revision = revisionOf(
    input.plan,
    await writeBlobs(
      input.dir,
      fresh.map((f) => f.content),
    ),
  );
  const rows: GistFileRow[] = [];
  for (const f of revision.files) if (f.change !== 'kept') rows.push(await fileRow(input.gistId, f.filename, f.content, f.blob));
  const head = await writeCommit(input.dir, {
    entries: revision.files.map((f) => ({ filename: f.filename, oid: f.blob })),
    parent: input.parent,
    author: identity(input.author, ctx.config.baseUrl),
    when: input.when,
  });

  // The rows go in with the other writes of the moment, in one transaction (group-commit.ts).
  const claimed = await commitRevision(ctx.db, {
    gistId: input.gistId,
    claim: input.claimHead(head),
    gone: input.plan.gone,
    rows,
    revision: {
      gist_id: input.gistId,
      version: head,
      user_id: input.author.id,
      committed_at: input.when.toISOString(),
      ...revision.change,
    },
    // A new gist (no parent) has no revisions yet: its first is 0, without asking the database.
    first: input.parent === null,
  });
  if (!claimed) return null;
  await moveHeadAfterCommit(ctx, input.dir, head);
  return { head, change: revision.change, rows };
}

/**
 * Moves the branch once the rows are committed. The write has happened by then, so a failure here is logged, not
 * thrown: the next git request repairs the ref from the database (syncRef).
 */
export async function moveHeadAfterCommit(ctx: ServiceContext, dir: string, head: string): Promise<void> {
  try {
    await setHead(dir, head);
  } catch (err) {
    ctx.log.warn({ err, dir, head }, 'gist branch not moved; the next git request will move it');
  }
}

/** Puts the branch where the database says the head is (repairs a ref left behind by an interrupted write). */
export async function syncRef(dir: string, dbHead: string): Promise<void> {
  if ((await readHead(dir)) !== dbHead) await setHead(dir, dbHead);
}
