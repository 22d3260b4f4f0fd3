// Checks the audit log's hash chain (`hublet admin audit verify`): walks the entries in chain order from where pruning
// left it to the head, recomputing each entry's hash from its stored columns. The first entry that fails names what was
// done: an entry whose columns no longer give its hash was changed; an entry whose own hash holds but which the next
// entry does not name as its previous one was changed and its hash recomputed; a gap in the ids (or an end short of the
// head) is a removal, named by the entries on both sides of it.
import type { Db } from '../db/connect.js';
import type { AuditChainRow } from '../db/tables/audit.js';
import { entryHash } from './chain.js';
import { entriesInOrder, readChain } from './store.js';

/** What the walk found: intact, or the first changed entry, or the entries on both sides of a removal (null: an end). */
export interface ChainVerdict {
  intact: boolean;
  /** The entries checked before the walk stopped (all of them when intact). */
  entries: number;
  /** The `_document_id` of the first changed entry. */
  changed?: string;
  /** A removal: the `_document_id`s of the entries just before and just after it (null: the chain's start or end). */
  removed?: { after: string | null; before: string | null };
}

const BATCH = 500;

async function walk(db: Db, chain: AuditChainRow): Promise<ChainVerdict> {
  let expectedId = chain.pruned_id + 1;
  let expectedPrev = chain.pruned_hash;
  let previous: string | null = null;
  let entries = 0;
  for (let cursor = chain.pruned_id; ; ) {
    const batch = await entriesInOrder(db, cursor, chain.head_id, BATCH);
    if (batch.length === 0) break;
    for (const e of batch) {
      const { hash, ...columns } = e;
      if (entryHash(columns) !== hash) return { intact: false, entries, changed: e.document_id };
      if (e.id !== expectedId) return { intact: false, entries, removed: { after: previous, before: e.document_id } };
      if (e.prev_hash !== expectedPrev) return { intact: false, entries, changed: previous ?? e.document_id };
      entries++;
      expectedId = e.id + 1;
      expectedPrev = hash;
      previous = e.document_id;
    }
    cursor = batch[batch.length - 1].id;
  }
  if (expectedId - 1 !== chain.head_id) return { intact: false, entries, removed: { after: previous, before: null } };
  if (expectedPrev !== chain.head_hash) return { intact: false, entries, changed: previous ?? undefined };
  return { intact: true, entries };
}

/**
 * Walks the chain as it stands. Entries appended meanwhile are left for the next walk (it stops at the head it read
 * first); a prune that ran during the walk is told apart from a removal by walking again.
 */
export async function verifyChain(db: Db): Promise<ChainVerdict> {
  for (let attempt = 0; ; attempt++) {
    const chain = await readChain(db);
    const verdict = await walk(db, chain);
    if (verdict.intact || attempt === 2) return verdict;
    if ((await readChain(db)).pruned_id === chain.pruned_id) return verdict;
  }
}
