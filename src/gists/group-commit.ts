// Group commit for gist revisions: the database part of concurrent writes (new gists, and updates of different gists)
// shares one transaction. While one batch holds the writer the next fills up, and a batch writes its file rows,
// revisions and search documents with a few multi-row statements instead of a dozen statements per write: SQLite's one
// writer is held once for the lot (PostgreSQL saves the round trips). Each writer is answered once the batch has
// committed. A batch that fails is not anyone's answer: each of its writes is tried again alone, in its own transaction,
// so one bad write fails by itself and the others are written as if they had come one by one.
import { Batcher } from '../db/batch.js';
import type { Db } from '../db/connect.js';
import type { GistFileRow, GistRevisionRow } from '../db/tables/gists.js';
import { reindexGists } from './search-store.js';
import { deleteFileRows, insertFileRows, insertRevisions, nextPositions } from './store.js';

/** The database part of one revision (write.ts builds it once the git objects exist). */
export interface RevisionRows {
  gistId: string;
  /**
   * Creates the gist row, or moves its head from the parent commit (a compare-and-set): false when another writer
   * moved it first, and then nothing of this write is written.
   */
  claim: (trx: Db) => Promise<boolean>;
  /** File names the revision removes. */
  gone: readonly string[];
  /** File rows the revision adds or changes. */
  rows: GistFileRow[];
  /** The revision row; its position is the gist's next (0 for a new gist's first). */
  revision: Omit<GistRevisionRow, 'position'>;
  first: boolean;
}

/** A write's outcome inside a batch: claimed or not, or the error of its own transaction (thrown to its writer alone). */
type Outcome = boolean | { failed: unknown };

/** At most this many writes share a transaction (a batch of gists with large files stays a bounded transaction). */
const MAX_BATCH = 64;

const batchers = new WeakMap<Db, Batcher<RevisionRows, Outcome>>();

/**
 * Commits one revision's rows with the writes that come at the same moment; true once committed, false when the head
 * moved first (nothing written). Never two writes of one gist in a batch for the same head: service.ts holds the gist's
 * write lock around each update, and a second claim on a moved head would only fail its compare-and-set.
 */
export async function commitRevision(db: Db, write: RevisionRows): Promise<boolean> {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new Batcher((writes) => commitBatch(db, writes), { max: MAX_BATCH, oneAtATime: true });
    batchers.set(db, batcher);
  }
  const outcome = await batcher.add(write);
  if (typeof outcome === 'object') throw outcome.failed;
  return outcome;
}

async function commitBatch(db: Db, writes: RevisionRows[]): Promise<Outcome[]> {
  try {
    return await db.transaction().execute((trx) => writeRows(trx, writes));
  } catch (err) {
    if (writes.length === 1) return [{ failed: err }];
    // Rolled back whole: each write again by itself, so only a write that fails alone fails.
    const outcomes: Outcome[] = [];
    for (const write of writes) {
      try {
        outcomes.push(...(await db.transaction().execute((trx) => writeRows(trx, [write]))));
      } catch (own) {
        outcomes.push({ failed: own });
      }
    }
    return outcomes;
  }
}

/** Claims each write in order, then writes the claimed ones' rows together: files, revisions, search documents. */
async function writeRows(trx: Db, writes: RevisionRows[]): Promise<boolean[]> {
  const claimed = new Set<RevisionRows>();
  // In the order of their gists' ids: two processes' batches on PostgreSQL lock the rows they move in the same order.
  const ordered = [...writes].sort((a, b) => (a.gistId < b.gistId ? -1 : a.gistId > b.gistId ? 1 : 0));
  for (const write of ordered) if (await write.claim(trx)) claimed.add(write);
  const done = [...claimed];
  for (const write of done) await deleteFileRows(trx, write.gistId, write.gone);
  await insertFileRows(
    trx,
    done.flatMap((w) => w.rows),
  );
  const positions = await nextPositions(
    trx,
    done.filter((w) => !w.first).map((w) => w.gistId),
  );
  await insertRevisions(
    trx,
    done.map((w) => ({ ...w.revision, position: w.first ? 0 : (positions.get(w.gistId) ?? 0) })),
  );
  await reindexGists(
    trx,
    done.map((w) => w.gistId),
  );
  return writes.map((w) => claimed.has(w));
}
