// Gist tables: gists, current files, revisions, stars, comments (both databases); file and description writes reindex.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/connect.js';
import { lockForWriting } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import type { GistCommentRow, GistFileRow, GistRevisionRow, GistRow, GistsTable } from '../db/tables/gists.js';
import { byName } from './rules.js';
import { reindexGists } from './search-store.js';

export { byName };

/** A current file without its bytes (what list responses need). */
export type GistFileMeta = Omit<GistFileRow, 'content'>;

const FILE_META_COLUMNS = ['gist_id', 'filename', 'size', 'blob_sha', 'language', 'type', 'binary'] as const;

/** Gist ids are hex; anything else cannot name a gist (and must not reach the database: PostgreSQL refuses NUL). */
function plausibleGistId(id: string): boolean {
  return /^[0-9a-f]{1,64}$/i.test(id);
}

export async function findGist(db: Db, id: string, opts: { forUpdate?: boolean } = {}): Promise<GistRow | undefined> {
  if (!plausibleGistId(id)) return undefined;
  return db
    .selectFrom('gists')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .$if(Boolean(opts.forUpdate), (q) => lockForWriting(db, q))
    .executeTakeFirst();
}

export interface GistFilter {
  ownerId?: number;
  publicOnly?: boolean;
  starredBy?: number;
  forkOf?: string;
  /** ISO timestamp: only gists updated at or after it. */
  since?: string;
}

export interface Page {
  offset: number;
  limit: number;
}

type GistsEb = ExpressionBuilder<Database & { g: GistsTable }, 'g'>;

function conditions(filter: GistFilter) {
  return (eb: GistsEb) => {
    const conds: Expression<SqlBool>[] = [];
    if (filter.ownerId !== undefined) conds.push(eb('g.owner_id', '=', filter.ownerId));
    if (filter.publicOnly) conds.push(eb('g.public', '=', 1));
    if (filter.forkOf !== undefined) conds.push(eb('g.fork_of', '=', filter.forkOf));
    if (filter.since !== undefined) conds.push(eb('g.updated_at', '>=', filter.since));
    if (filter.starredBy !== undefined) {
      conds.push(
        eb('g.id', 'in', eb.selectFrom('gist_stars').select('gist_stars.gist_id').where('gist_stars.user_id', '=', filter.starredBy)),
      );
    }
    return eb.and(conds);
  };
}

/**
 * One page of gists (newest updated first, or oldest created first for forks) and the number of all that match, or
 * at most `maxCount` of them: counting stops there (the public listing pages only 3,000 deep, and counting all of
 * 100,000 public gists cost 7 ms of SQLite per request).
 */
export async function listGists(
  db: Db,
  filter: GistFilter,
  page: Page,
  order: 'updated' | 'created' = 'updated',
  maxCount?: number,
): Promise<{ rows: GistRow[]; total: number }> {
  const where = conditions(filter);
  let q = db.selectFrom('gists as g').selectAll('g').where(where);
  q =
    order === 'updated'
      ? q.orderBy('g.updated_at', 'desc').orderBy('g.id', 'desc')
      : q.orderBy('g.created_at', 'asc').orderBy('g.id', 'asc');
  const counting =
    maxCount === undefined
      ? db
          .selectFrom('gists as g')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(where)
      : db
          .selectFrom((eb) => eb.selectFrom('gists as g').select('g.id').where(where).limit(maxCount).as('capped'))
          .select((eb) => eb.fn.countAll<number>().as('n'));
  const [rows, counted] = await Promise.all([
    page.limit > 0 ? q.limit(page.limit).offset(page.offset).execute() : [],
    counting.executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(counted.n) };
}

/** File metadata (no bytes) of several gists, in git's (byte) order of names. */
export async function fileMetas(db: Db, gistIds: string[]): Promise<Map<string, GistFileMeta[]>> {
  const out = new Map<string, GistFileMeta[]>(gistIds.map((id) => [id, []]));
  if (!gistIds.length) return out;
  const rows = await db.selectFrom('gist_files').select(FILE_META_COLUMNS).where('gist_id', 'in', gistIds).execute();
  for (const r of rows) out.get(r.gist_id)?.push(r);
  for (const list of out.values()) list.sort(byName);
  return out;
}

/** A gist's current files with their bytes, in name order. */
export async function filesWithContent(db: Db, gistId: string): Promise<GistFileRow[]> {
  const rows = await db.selectFrom('gist_files').selectAll().where('gist_id', '=', gistId).execute();
  return rows.sort(byName);
}

export async function findFile(db: Db, gistId: string, filter: { filename?: string; blobSha?: string }): Promise<GistFileRow | undefined> {
  if (filter.filename?.includes('\0') || (filter.blobSha !== undefined && !/^[0-9a-f]{40}$/.test(filter.blobSha))) return undefined;
  let q = db.selectFrom('gist_files').selectAll().where('gist_id', '=', gistId);
  if (filter.filename !== undefined) q = q.where('filename', '=', filter.filename);
  if (filter.blobSha !== undefined) q = q.where('blob_sha', '=', filter.blobSha);
  return q.executeTakeFirst();
}

export async function insertGist(db: Db, row: GistRow): Promise<void> {
  await db.insertInto('gists').values(row).execute();
}

/** Inserts new gists' rows, many per statement. */
export async function insertGists(db: Db, rows: readonly GistRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto('gists')
      .values(rows.slice(i, i + 100))
      .execute();
}

/**
 * Moves a gist's head from `from` to `to` (with its other changed columns) only if nobody moved it first: false means
 * another writer won. A new description alone is reindexed here; a new head comes with file rows (replaceFileRows).
 */
export async function advanceHead(
  db: Db,
  id: string,
  from: string,
  changes: { head_sha?: string; description?: string; updated_at: string },
): Promise<boolean> {
  const onlyDescription = changes.head_sha === undefined && changes.description !== undefined;
  if (onlyDescription && !db.isTransaction) return db.transaction().execute((trx) => advanceHead(trx, id, from, changes));
  const r = await db.updateTable('gists').set(changes).where('id', '=', id).where('head_sha', '=', from).executeTakeFirst();
  if (onlyDescription && Number(r.numUpdatedRows) === 1) await reindexGists(db, [id]);
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteGistRow(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('gists').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Inserts file rows and reindexes their gists. */
export async function insertFiles(db: Db, rows: GistFileRow[]): Promise<void> {
  await insertFileRows(db, rows);
  await reindexGists(
    db,
    rows.map((r) => r.gist_id),
  );
}

/** Inserts file rows, a few per statement (SQLite caps bound parameters, file bytes make rows large); no reindex. */
export async function insertFileRows(db: Db, rows: GistFileRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 25)
    await db
      .insertInto('gist_files')
      .values(rows.slice(i, i + 25))
      .execute();
}

/** A new head for a gist, moved only from `from` (a compare-and-set), with the other columns that change with it. */
export interface HeadMove {
  id: string;
  from: string;
  changes: { head_sha: string; description: string; updated_at: string };
}

/**
 * Moves many gists' heads in one statement, each only if it is still at its `from`; returns the ids moved (the others'
 * heads were moved first by another writer). One UPDATE … FROM (VALUES …) … RETURNING, the same text on SQLite and
 * PostgreSQL (both name a VALUES list's columns column1, column2, …). Each gist at most once.
 */
export async function advanceHeads(db: Db, moves: readonly HeadMove[]): Promise<Set<string>> {
  const moved = new Set<string>();
  for (let i = 0; i < moves.length; i += 100) {
    const values = sql.join(
      moves
        .slice(i, i + 100)
        .map((m) => sql`(${m.id}, ${m.from}, ${m.changes.head_sha}, ${m.changes.description}, ${m.changes.updated_at})`),
    );
    const rows = await sql<{ id: string }>`update gists set head_sha = v.column3, description = v.column4, updated_at = v.column5
      from (values ${values}) as v where gists.id = v.column1 and gists.head_sha = v.column2 returning gists.id`.execute(db);
    for (const r of rows.rows) moved.add(r.id);
  }
  return moved;
}

/** Deletes the file rows of many gists' `gone` names in one statement (a few hundred names each); no reindex. */
export async function deleteManyFileRows(db: Db, gone: readonly { gistId: string; names: readonly string[] }[]): Promise<void> {
  const pairs = gone.flatMap((g) => g.names.map((name) => [g.gistId, name] as const));
  for (let i = 0; i < pairs.length; i += 200) {
    const chunk = pairs.slice(i, i + 200);
    await db
      .deleteFrom('gist_files')
      .where((eb) => eb.or(chunk.map(([gistId, name]) => eb.and([eb('gist_id', '=', gistId), eb('filename', '=', name)]))))
      .execute();
  }
}

/** A new revision's file rows: those of the names in `gone` deleted, `rows` inserted (plan.ts decides which), reindexed. */
export async function replaceFileRows(db: Db, gistId: string, gone: readonly string[], rows: GistFileRow[]): Promise<void> {
  await deleteManyFileRows(db, [{ gistId, names: gone }]);
  await insertFileRows(db, rows);
  await reindexGists(db, [gistId]);
}

export async function insertRevisions(db: Db, rows: GistRevisionRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto('gist_revisions')
      .values(rows.slice(i, i + 100))
      .execute();
}

/** The next position in the history of each gist (0 for a gist without revisions), in one query. */
export async function nextPositions(db: Db, gistIds: readonly string[]): Promise<Map<string, number>> {
  const next = new Map<string, number>(gistIds.map((id) => [id, 0]));
  if (!gistIds.length) return next;
  const rows = await db
    .selectFrom('gist_revisions')
    .select(['gist_id', (eb) => eb.fn.max('position').as('p')])
    .where('gist_id', 'in', gistIds)
    .groupBy('gist_id')
    .execute();
  for (const r of rows) if (r.p !== null) next.set(r.gist_id, Number(r.p) + 1);
  return next;
}

export async function deleteRevisionsFrom(db: Db, gistId: string, position: number): Promise<void> {
  await db.deleteFrom('gist_revisions').where('gist_id', '=', gistId).where('position', '>=', position).execute();
}

/** Revisions newest first. */
export async function listRevisions(db: Db, gistId: string, page?: Page, maxPosition?: number): Promise<GistRevisionRow[]> {
  let q = db.selectFrom('gist_revisions').selectAll().where('gist_id', '=', gistId);
  if (maxPosition !== undefined) q = q.where('position', '<=', maxPosition);
  q = q.orderBy('position', 'desc');
  if (page) q = q.limit(page.limit).offset(page.offset);
  return q.execute();
}

export async function countRevisions(db: Db, gistId: string): Promise<number> {
  const r = await db
    .selectFrom('gist_revisions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('gist_id', '=', gistId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The revision a full SHA or a unique prefix of at least 4 hex digits names. */
export async function findRevision(db: Db, gistId: string, sha: string): Promise<GistRevisionRow | undefined> {
  const lower = sha.toLowerCase();
  if (lower.length === 40) {
    return db.selectFrom('gist_revisions').selectAll().where('gist_id', '=', gistId).where('version', '=', lower).executeTakeFirst();
  }
  const rows = await db
    .selectFrom('gist_revisions')
    .selectAll()
    .where('gist_id', '=', gistId)
    .where('version', 'like', `${lower}%`)
    .limit(2)
    .execute();
  return rows.length === 1 ? rows[0] : undefined;
}

export async function revisionsOf(db: Db, gistId: string): Promise<Map<string, GistRevisionRow>> {
  const rows = await db.selectFrom('gist_revisions').selectAll().where('gist_id', '=', gistId).execute();
  return new Map(rows.map((r) => [r.version, r]));
}

export async function findFork(db: Db, parentId: string, ownerId: number): Promise<GistRow | undefined> {
  return db
    .selectFrom('gists')
    .selectAll()
    .where('fork_of', '=', parentId)
    .where('owner_id', '=', ownerId)
    .orderBy('created_at')
    .executeTakeFirst();
}

export async function allForks(db: Db, parentId: string): Promise<GistRow[]> {
  return db.selectFrom('gists').selectAll().where('fork_of', '=', parentId).orderBy('created_at').orderBy('id').execute();
}

/** Counts for profiles: each owner's public gists and (unless publicOnly) secret ones, in one query. */
export async function countGists(
  db: Db,
  ownerIds: readonly number[],
  publicOnly: boolean,
): Promise<Map<number, { public: number; secret: number }>> {
  const out = new Map(ownerIds.map((id) => [id, { public: 0, secret: 0 }]));
  if (!ownerIds.length) return out;
  let q = db
    .selectFrom('gists')
    .select(['owner_id', 'public', (eb) => eb.fn.countAll<number>().as('n')])
    .where('owner_id', 'in', [...ownerIds])
    .groupBy(['owner_id', 'public']);
  if (publicOnly) q = q.where('public', '=', 1);
  for (const r of await q.execute()) out.get(r.owner_id)![Number(r.public) ? 'public' : 'secret'] = Number(r.n);
  return out;
}

/** The ids of an account's gists. */
export async function gistIdsOwnedBy(db: Db, ownerId: number): Promise<string[]> {
  const rows = await db.selectFrom('gists').select('id').where('owner_id', '=', ownerId).execute();
  return rows.map((r) => r.id);
}

// Stars.

export async function isStarred(db: Db, gistId: string, userId: number): Promise<boolean> {
  const r = await db
    .selectFrom('gist_stars')
    .select('gist_id')
    .where('gist_id', '=', gistId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Boolean(r);
}

/** Idempotent: starring twice, also at the same moment, leaves one star (the first one's time). */
export async function addStar(db: Db, gistId: string, userId: number, now: string): Promise<void> {
  await db
    .insertInto('gist_stars')
    .values({ gist_id: gistId, user_id: userId, created_at: now })
    .onConflict((oc) => oc.columns(['gist_id', 'user_id']).doNothing())
    .execute();
}

export async function removeStar(db: Db, gistId: string, userId: number): Promise<void> {
  await db.deleteFrom('gist_stars').where('gist_id', '=', gistId).where('user_id', '=', userId).execute();
}

// Comments.

export async function findComment(db: Db, gistId: string, id: number): Promise<GistCommentRow | undefined> {
  return db.selectFrom('gist_comments').selectAll().where('gist_id', '=', gistId).where('id', '=', id).executeTakeFirst();
}

export async function listComments(db: Db, gistId: string, page: Page): Promise<GistCommentRow[]> {
  return db
    .selectFrom('gist_comments')
    .selectAll()
    .where('gist_id', '=', gistId)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Adds a comment and keeps the gist's `comments` count true, in one transaction. */
export async function insertComment(
  db: Db,
  row: { gist_id: string; user_id: number; body: string; created_at: string },
): Promise<GistCommentRow> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('gist_comments')
      .values({ ...row, updated_at: row.created_at })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('gists')
      .set((eb) => ({ comments: eb('comments', '+', 1) }))
      .where('id', '=', row.gist_id)
      .execute();
    return inserted;
  });
}

export async function updateCommentBody(db: Db, id: number, body: string, now: string): Promise<GistCommentRow> {
  return db.updateTable('gist_comments').set({ body, updated_at: now }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteComment(db: Db, gistId: string, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const r = await trx.deleteFrom('gist_comments').where('gist_id', '=', gistId).where('id', '=', id).executeTakeFirst();
    if (Number(r.numDeletedRows) > 0) {
      await trx
        .updateTable('gists')
        .set((eb) => ({ comments: eb('comments', '-', 1) }))
        .where('id', '=', gistId)
        .execute();
    }
  });
}

/** Which of an owner's gists a list shows: public ones (1), secret ones (0) or both ('any'). */
export type PublicFilter = 0 | 1 | 'any';

/** An owner's gists in `order` (newest or oldest first by creation or update), one window of them, and how many match. */
export async function ownerGistsWindow(
  db: Db,
  ownerId: number,
  visible: PublicFilter,
  order: { column: 'created_at' | 'updated_at'; direction: 'asc' | 'desc' },
  window: (total: number) => { offset: number; limit: number },
): Promise<{ rows: GistRow[]; offset: number; total: number }> {
  let base = db.selectFrom('gists').where('owner_id', '=', ownerId);
  if (visible !== 'any') base = base.where('public', '=', visible);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const { offset, limit } = window(total);
  if (limit <= 0) return { rows: [], offset, total };
  const rows = await base
    .selectAll()
    .orderBy(order.column, order.direction)
    .orderBy('id', order.direction)
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, offset, total };
}

/** The number of stars of each gist, in one query. */
export async function starCounts(db: Db, gistIds: readonly string[]): Promise<Map<string, number>> {
  if (gistIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('gist_stars')
    .select(['gist_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('gist_id', 'in', [...gistIds])
    .groupBy('gist_id')
    .execute();
  return new Map(rows.map((r) => [r.gist_id, Number(r.n)]));
}

/** Which of these gists the user starred, in one query. */
export async function starredBy(db: Db, userId: number, gistIds: readonly string[]): Promise<Set<string>> {
  if (gistIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('gist_stars')
    .select('gist_id')
    .where('user_id', '=', userId)
    .where('gist_id', 'in', [...gistIds])
    .execute();
  return new Set(rows.map((r) => r.gist_id));
}
