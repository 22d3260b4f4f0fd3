// GitHub's GraphQL arguments for a user's gists (`privacy`, GistOrder) turned into the gists store's list: the
// visibility rule is the REST one (reads.ts listForUser): secret gists are listed for their owner only.
import type { Db } from '../db/connect.js';
import type { GistRow } from '../db/tables/gists.js';
import { ownerGistsWindow, type PublicFilter } from '../gists/store.js';

export type GistPrivacy = 'ALL' | 'PUBLIC' | 'SECRET';
export interface GistOrder {
  field: 'CREATED_AT' | 'UPDATED_AT' | 'PUSHED_AT';
  direction: 'ASC' | 'DESC';
}

/** Which of an owner's gists a caller sees for a `privacy` argument: null when none at all. */
function visiblePublic(privacy: GistPrivacy | null | undefined, callerIsOwner: boolean): PublicFilter | null {
  if (privacy === 'PUBLIC') return 1;
  if (privacy === 'SECRET') return callerIsOwner ? 0 : null;
  return callerIsOwner ? 'any' : 1;
}

/** An owner's gists the caller may see, in the requested order, one window of them, and how many there are. */
export async function ownerGists(
  db: Db,
  ownerId: number,
  callerIsOwner: boolean,
  privacy: GistPrivacy | null | undefined,
  order: GistOrder,
  window: (total: number) => { offset: number; limit: number },
): Promise<{ rows: GistRow[]; offset: number; total: number }> {
  const visible = visiblePublic(privacy, callerIsOwner);
  if (visible === null) return { rows: [], offset: 0, total: 0 };
  // hublet records no push time apart from the update time: PUSHED_AT orders as UPDATED_AT.
  const column = order.field === 'CREATED_AT' ? 'created_at' : 'updated_at';
  return ownerGistsWindow(db, ownerId, visible, { column, direction: order.direction === 'ASC' ? 'asc' : 'desc' }, window);
}
