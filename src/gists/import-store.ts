// The gist_imports table: which gist holds a user's copy of a gist of another server (`hublet gist import`).
import type { Db } from '../db/connect.js';
import type { GistImportRow } from '../db/tables/gists.js';

/** A recorded import with the gist's current head (still the placeholder until the source's history is pushed). */
export interface ImportEntry extends GistImportRow {
  head_sha: string;
}

/** Records that `gist_id` is the user's copy of `source` (in the transaction that creates the gist). */
export async function insertImport(db: Db, row: GistImportRow): Promise<void> {
  await db.insertInto('gist_imports').values(row).execute();
}

/** The user's imports, each with its gist's current head: the query findImport and listImports narrow. */
function importsOf(db: Db, userId: number) {
  return db
    .selectFrom('gist_imports')
    .innerJoin('gists', 'gists.id', 'gist_imports.gist_id')
    .selectAll('gist_imports')
    .select('gists.head_sha')
    .where('gist_imports.user_id', '=', userId);
}

/** The user's import of `source`, if any. */
export async function findImport(db: Db, userId: number, source: string): Promise<ImportEntry | undefined> {
  return importsOf(db, userId).where('gist_imports.source', '=', source).executeTakeFirst();
}

/** One page of the user's imports, oldest first, and how many there are. */
export async function listImports(
  db: Db,
  userId: number,
  page: { offset: number; limit: number },
): Promise<{ items: ImportEntry[]; total: number }> {
  const [items, count] = await Promise.all([
    importsOf(db, userId)
      .orderBy('gist_imports.created_at')
      .orderBy('gist_imports.gist_id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    db
      .selectFrom('gist_imports')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}
