// Group commit for gist revisions: the database part of concurrent writes (new gists, and updates of different gists)
// shares one transaction. While one batch holds the writer the next fills up, and a batch writes its file rows,
// revisions and search documents with a few multi-row statements instead of a dozen statements per write: SQLite's one
// writer is held once for the lot (PostgreSQL saves the round trips). Each writer is answered once the batch has
// committed. A batch that fails is not anyone's answer: each of its writes is tried again alone, in its own transaction,
// so one bad write fails by itself and the others are written as if they had come one by one.
import { Batcher } from '../db/batch.js';
import type { Db } from '../db/connect.js';
import type { GistFileRow, GistRevisionRow, GistRow } from '../db/tables/gists.js';
import { reindexGists } from './search-store.js';
import { advanceHeads, deleteManyFileRows, type HeadMove, insertFileRows, insertGists, insertRevisions, nextPositions } from './store.js';

/** The database part of one revision (write.ts builds it once the git objects exist). */
export interface RevisionRows {
  gistId: string;
  /**
   * Creates the gist row (and whatever the creator records with it), or moves its head from the parent commit (a
   * compare-and-set, which fails when another writer moved it first: then nothing of this write is written).
   */
  claim: Claim;
  /** File names the revision removes. */
  gone: readonly string[];
  /** File rows the revision adds or changes. */
  rows: GistFileRow[];
  /** The revision row; its position is the gist's next (0 for a new gist's first). */
  revision: Omit<GistRevisionRow, 'position'>;
  first: boolean;
}

/** How a write takes its gist's head: a new gist's row, or a move of an existing gist's head (store.ts). */
export type Claim = { insert: GistRow; alsoRecord?: (trx: Db, row: GistRow) => Promise<void> } | { move: HeadMove };

/** A write's outcome inside a batch: claimed or not, or the error of its own transaction (thrown to its writer alone). */
type Outcome = boolean | { failed: unknown };

/** At most this many writes share a transaction (a batch of gists with large files stays a bounded transaction). */
const MAX_BATCH = 64;

const batchers = new WeakMap<Db, Batcher<RevisionRows, Outcome>>();

/**
 * Commits one revision's rows with the writes that come at the same moment; true once committed, false when the head
 * moved first (nothing written). Never two writes of one gist in a batch: service.ts holds the gist's write lock around
 * each update (and writeRows leaves a second one unclaimed).
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

/**
 * Claims every write's head (the new gists' rows in one statement, the moved heads in another), then writes the
 * claimed ones' rows together: files, revisions, search documents. About eight statements for a batch of any size,
 * where a statement per write each took its turn on the writer (a batch of ten PATCHes: 25 ms, two thirds of it in
 * the claims and deletes one by one, while libuv's threads were busy with the git objects of the next).
 */
async function writeRows(trx: Db, writes: RevisionRows[]): Promise<boolean[]> {
  const inserts = writes.flatMap((w) => ('insert' in w.claim ? [w.claim] : []));
  await insertGists(
    trx,
    inserts.map((c) => c.insert),
  );
  for (const c of inserts) await c.alsoRecord?.(trx, c.insert);
  // One move per gist: a second for the same gist (never made, since the gist's write lock spans the processes on a
  // database) is left unclaimed, so its writer re-reads the head and tries again, as when its compare-and-set fails.
  const firstMoves = new Map<string, HeadMove>();
  for (const w of writes) if ('move' in w.claim && !firstMoves.has(w.gistId)) firstMoves.set(w.gistId, w.claim.move);
  const moved = await advanceHeads(trx, [...firstMoves.values()]);
  const claimed = (w: RevisionRows) => 'insert' in w.claim || (moved.has(w.gistId) && firstMoves.get(w.gistId) === w.claim.move);
  const done = writes.filter(claimed);
  await deleteManyFileRows(
    trx,
    done.map((w) => ({ gistId: w.gistId, names: w.gone })),
  );
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
  return writes.map(claimed);
}
