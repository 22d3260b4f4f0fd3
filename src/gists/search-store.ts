// Gist search's tables and queries: the one upkeep of the index (reindexGists, called by store.ts inside the transaction
// of every write that changes what is searchable), and the query that finds matches. Each gist has one `gist_search`
// row (dropped with its gist by the foreign key) whose `seq` is new with every write, so it orders documents by their
// last change; its words are kept by the database's own full-text search, and that difference lives in one place, the
// two engines below:
//   SQLite: an FTS5 table without content (rowid = gist_search.seq; a trigger drops its entry with the row), columns
//     scope, description, filenames, content. `seq` counts down (the newest document first in rowid order), since FTS5
//     walks its index forwards three times cheaper than backwards, and stops at the window's size.
//   PostgreSQL: a tsvector column with a GIN index, written as a literal (no text search parser runs, so both databases
//     see the same words), weights A/B/C for description/file names/content, and `title` (A/B alone) for scoring;
//     `seq` counts up (a bigserial).
// Matches are scored alike on both (TIER_WEIGHTS).
// Beside the words, a document holds scope words that never change without a reindex: who may find it (public, or
// secret of owner N), its owner, its files' languages and extensions. So visibility, `user:`, `language:` and
// `extension:` cost nothing beyond the index; an owner's rename or a star needs no reindexing (logins are resolved to
// ids, stars counted, when searching). Only `filename:`, `size:`, `stars:` and `fork:` are checked on rows.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/connect.js';
import { isPostgresDb } from '../db/dialect.js';
import type { GistRow } from '../db/tables/gists.js';
import { MAX_INDEXED_FILE_BYTES, searchDocument, type SearchDocument } from './search-document.js';
import type { NumberRange } from './search-query.js';

/** What the index decides: words (each a phrase) that must and must not match, and scope words that must. */
export interface IndexMatch {
  phrases: string[][];
  excluded: string[][];
  /** Gists anyone may find, or also the secret gists of this owner. */
  viewerId: number | null;
  /** Any of these owners (`user:`). */
  ownerIds?: number[];
  /** Any of these (search-document.ts's languageWord, extensionWord). */
  languages: string[];
  extensions: string[];
}

/** What rows decide (gists, their files, their stars). */
export interface RowFilter {
  fork: 'include' | 'only' | 'exclude';
  stars?: NumberRange;
  /** A file whose name contains any of `names` (lowercase) and whose size is in `size`. */
  file?: { names: string[]; size?: NumberRange };
}

/** A matching document: its row (seq), its gist where already read, how recent it is, how well it matches the words. */
interface Candidate {
  seq: number;
  gistId?: string;
  /** Greater is more recently written. */
  recency: number;
  /** Greater is better. */
  score: number;
}

interface Engine {
  /** The `seq` of `n` new rows, newest last, where the engine numbers them itself (SQLite counts down). */
  nextSeqs(trx: Db, n: number): Promise<number[] | null>;
  /** Writes the documents of new `gist_search` rows (SQLite's FTS table). */
  write(trx: Db, rows: { seq: number; doc: SearchDocument }[]): Promise<void>;
  /** The document as `gist_search`'s own column, where the engine keeps it there (PostgreSQL). */
  inline(doc: SearchDocument): Record<string, RawBuilder<string>>;
  /** The `size` matching documents meeting `conditions` (on `s.gist_id`) written last (or first), scored. */
  candidates(db: Db, m: IndexMatch, conditions: RawBuilder<SqlBool>[], size: number, oldestFirst: boolean): Promise<Candidate[]>;
}

/** The scope words of a document, and of a match (each list: any of them). */
function scopeWords(doc: SearchDocument): string[] {
  return [
    doc.public ? 'p' : `s${doc.ownerId}`,
    `u${doc.ownerId}`,
    ...doc.languages.map((w) => `l${w}`),
    ...doc.extensions.map((w) => `x${w}`),
  ];
}
function scopeLists(m: IndexMatch): string[][] {
  const lists = [['p', ...(m.viewerId === null ? [] : [`s${m.viewerId}`])]];
  if (m.ownerIds) lists.push(m.ownerIds.map((id) => `u${id}`));
  if (m.languages.length) lists.push(m.languages.map((w) => `l${w}`));
  if (m.extensions.length) lists.push(m.extensions.map((w) => `x${w}`));
  return lists;
}

/**
 * How a match is scored: a searched word in the description weighs 2, in a file name 1, in the contents alone 0; equal
 * scores go newest first. (bm25 and ts_rank weigh words by how often they occur, which means walking every document
 * holding a common word: ten times the cost of the rest of a search on 100,000 gists.)
 */
const TIER_WEIGHTS = [2, 1] as const;

const all = (conds: RawBuilder<SqlBool>[]) => (conds.length ? sql.join(conds, sql` and `) : sql`1 = 1`);

// SQLite: FTS5 strings in double quotes are phrases of the words inside; every word is letters and digits only
// (search-query.ts, hex for languages and extensions), so no query can hold FTS syntax of its own.
const TEXT_COLUMNS = '{description filenames content}';
const ftsPhrase = (words: string[]) => `"${words.join(' ')}"`;
function ftsMatch(m: IndexMatch): string {
  const parts = scopeLists(m).map((list) => `scope : (${list.map((w) => `"${w}"`).join(' OR ')})`);
  if (m.phrases.length) parts.unshift(`${TEXT_COLUMNS} : (${m.phrases.map(ftsPhrase).join(' AND ')})`);
  const must = parts.join(' AND ');
  return m.excluded.length ? `(${must}) NOT ${TEXT_COLUMNS} : (${m.excluded.map(ftsPhrase).join(' OR ')})` : must;
}

/** The rowids a `select group_concat(rowid) as ids …` lists. */
async function rowids(db: Db, query: RawBuilder<unknown>): Promise<number[]> {
  const r = await sql<{ ids: string | null }>`${query}`.execute(db);
  const ids = r.rows[0]?.ids;
  return ids ? ids.split(',').map(Number) : [];
}

const SQLITE: Engine = {
  async nextSeqs(trx, n) {
    const r = await sql<{ low: number | null }>`select min(seq) as low from gist_search`.execute(trx);
    const below = r.rows[0]?.low ?? 0;
    return Array.from({ length: n }, (_, i) => Math.min(below, 0) - 1 - i);
  },
  async write(trx, rows) {
    for (let i = 0; i < rows.length; i += 100) {
      const values = rows
        .slice(i, i + 100)
        .map(
          ({ seq, doc }) =>
            sql`(${seq}, ${scopeWords(doc).join(' ')}, ${doc.description.join(' ')}, ${doc.filenames.join(' ')}, ${doc.content.join(' ')})`,
        );
      await sql`insert into gist_search_fts (rowid, scope, description, filenames, content) values ${sql.join(values)}`.execute(trx);
    }
  },
  inline: () => ({}),
  async candidates(db, m, conditions, size, oldestFirst) {
    const match = ftsMatch(m);
    // The window: the first matches in rowid order (the newest; the oldest walking backwards), of the index alone or
    // joined to the rows its conditions read. Its rowids come back as one list: a thousand one-column rows cost more to
    // hand over than to find.
    const order = oldestFirst ? sql`order by f.rowid desc` : sql``;
    const window = conditions.length
      ? sql`select f.rowid from gist_search_fts f join gist_search s on s.seq = f.rowid
          where gist_search_fts match ${match} and ${all(conditions)} ${order} limit ${size}`
      : sql`select f.rowid from gist_search_fts f where gist_search_fts match ${match} ${order} limit ${size}`;
    const seqs = await rowids(db, sql`select group_concat(rowid) as ids from (${window})`);
    const score = new Map<number, number>();
    if (seqs.length && m.phrases.length) {
      // Which of the window's documents have a searched word in their description, or in a file name: one walk each
      // of that column's entries within the window's range, in one statement.
      const any = `(${m.phrases.map(ftsPhrase).join(' OR ')})`;
      const range = sql`rowid between ${Math.min(...seqs)} and ${Math.max(...seqs)}`;
      const tier = (column: string) =>
        sql`(select group_concat(rowid) from gist_search_fts where gist_search_fts match ${`{${column}} : ${any}`} and ${range})`;
      const r = await sql<{ a: string | null; b: string | null }>`select ${tier('description')} as a, ${tier('filenames')} as b`.execute(
        db,
      );
      const tiers = [r.rows[0]?.a, r.rows[0]?.b].map((ids) => (ids ? ids.split(',').map(Number) : []));
      for (const [i, seqsOf] of tiers.entries()) for (const seq of seqsOf) score.set(seq, (score.get(seq) ?? 0) + TIER_WEIGHTS[i]);
    }
    return seqs.map((seq) => ({ seq, recency: -seq, score: score.get(seq) ?? 0 }));
  },
};

// PostgreSQL: the document is a tsvector literal and queries are tsquery literals, words in single quotes (letters and
// digits only), so the text search parser never runs. Scope words start with `~`, which no searched word can.
/** tsvector's limits: positions up to 16,383 (later words share the last) and 256 positions a word. */
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;

/**
 * The document as tsvector literals: `document`, every word (weights A, B, C) and the scope words; `title`, the words of
 * the description and file names alone (A, B), which scoring reads (a small vector: reading the whole document of
 * each of a thousand matches cost ten times the rest of the query).
 */
function tsvectorLiterals(doc: SearchDocument): { document: string; title: string } {
  const positions = new Map<string, string[]>();
  let at = 0;
  let title = '';
  for (const [weight, words] of [
    ['A', doc.description],
    ['B', doc.filenames],
    ['C', doc.content],
  ] as const) {
    if (weight === 'C') title = [...positions].map(([w, list]) => `'${w}':${list.join(',')}`).join(' ');
    for (const w of words) {
      at = Math.min(at + 1, MAX_POSITION);
      const list = positions.get(w) ?? [];
      if (!list.length) positions.set(w, list);
      if (list.length < MAX_POSITIONS) list.push(`${at}${weight}`);
    }
  }
  const scope = scopeWords(doc).map((w) => `'~${w}'`);
  return { document: [...scope, ...[...positions].map(([w, list]) => `'${w}':${list.join(',')}`)].join(' '), title };
}

/** A phrase as tsquery, its words in any field or (`weight`) in one. */
const tsPhrase = (words: string[], weight = '') => `(${words.map((w) => `'${w}'${weight && `:${weight}`}`).join(' <-> ')})`;
function tsMatch(m: IndexMatch): string {
  const parts = [...m.phrases.map((p) => tsPhrase(p)), ...scopeLists(m).map((list) => `(${list.map((w) => `'~${w}'`).join(' | ')})`)];
  if (m.excluded.length) parts.push(`!(${m.excluded.map((p) => tsPhrase(p)).join(' | ')})`);
  return parts.join(' & ');
}

const POSTGRES: Engine = {
  nextSeqs: async () => null,
  async write() {},
  inline(doc) {
    const { document, title } = tsvectorLiterals(doc);
    return { document: sql<string>`${document}::tsvector`, title: sql<string>`${title}::tsvector` };
  },
  async candidates(db, m, conditions, size, oldestFirst) {
    // Scored once the window is cut, so only its documents are read: a searched word in the description (weight A),
    // in a file name (B).
    const any = (weight: string) => m.phrases.map((p) => tsPhrase(p, weight)).join(' | ');
    const score = m.phrases.length
      ? sql`(c.title @@ ${any('A')}::tsquery)::int * ${TIER_WEIGHTS[0]} + (c.title @@ ${any('B')}::tsquery)::int * ${TIER_WEIGHTS[1]}`
      : sql`0`;
    const r = await sql<{ seq: string; gist_id: string; score: number }>`select c.seq, c.gist_id, ${score} as score from (
        select s.seq, s.gist_id, s.title from gist_search s where s.document @@ ${tsMatch(m)}::tsquery and ${all(conditions)}
        order by s.seq ${oldestFirst ? sql`asc` : sql`desc`} limit ${size}) c`.execute(db);
    return r.rows.map((row) => ({ seq: Number(row.seq), gistId: row.gist_id, recency: Number(row.seq), score: Number(row.score) }));
  },
};

const engine = (db: Db): Engine => (isPostgresDb(db) ? POSTGRES : SQLITE);

/**
 * Rewrites the search documents of these gists from their rows as they are now in `trx` (a gist no longer there loses
 * its document). Every write that changes a gist's description or files calls it in its own transaction (store.ts).
 */
export async function reindexGists(trx: Db, gistIds: readonly string[]): Promise<void> {
  const ids = [...new Set(gistIds)];
  if (!ids.length) return;
  const [gists, files] = await Promise.all([
    trx.selectFrom('gists').select(['id', 'owner_id', 'public', 'description']).where('id', 'in', ids).execute(),
    trx
      .selectFrom('gist_files')
      .select(['gist_id', 'filename', 'language', 'binary', sql<Buffer>`substr(content, 1, ${MAX_INDEXED_FILE_BYTES})`.as('head')])
      .where('gist_id', 'in', ids)
      .orderBy('gist_id')
      .orderBy('filename')
      .execute(),
  ]);
  const filesOf = new Map<string, { filename: string; language: string | null; content: Buffer | null }[]>(ids.map((id) => [id, []]));
  for (const f of files)
    filesOf.get(f.gist_id)?.push({ filename: f.filename, language: f.language, content: Number(f.binary) ? null : Buffer.from(f.head) });
  const docs = gists.map((g) => ({
    gistId: g.id,
    doc: searchDocument({
      ownerId: g.owner_id,
      public: Number(g.public) === 1,
      description: g.description,
      files: filesOf.get(g.id) ?? [],
    }),
  }));
  await trx.deleteFrom('gist_search').where('gist_id', 'in', ids).execute();
  await writeSearchDocuments(trx, docs);
}

/** Adds documents for gists that have none (reindexGists drops the old ones first). */
async function writeSearchDocuments(trx: Db, docs: { gistId: string; doc: SearchDocument }[]): Promise<void> {
  const e = engine(trx);
  for (let i = 0; i < docs.length; i += 100) {
    const chunk = docs.slice(i, i + 100);
    const seqs = await e.nextSeqs(trx, chunk.length);
    const inserted = await trx
      .insertInto('gist_search')
      .values(chunk.map((d, j) => ({ gist_id: d.gistId, ...(seqs ? { seq: seqs[j] } : {}), ...e.inline(d.doc) })))
      .returning(['seq', 'gist_id'])
      .execute();
    const seqOf = new Map(inserted.map((r) => [r.gist_id, Number(r.seq)]));
    await e.write(
      trx,
      chunk.map((d) => ({ seq: seqOf.get(d.gistId)!, doc: d.doc })),
    );
  }
}

/** Conditions on rows for the gist whose id is `id` (a column reference). */
function rowConditions(filter: RowFilter, id: RawBuilder<string>): RawBuilder<SqlBool>[] {
  const out: RawBuilder<SqlBool>[] = [];
  const range = (value: RawBuilder<number>, r: NumberRange) => [
    ...(r.min === undefined ? [] : [sql<SqlBool>`${value} >= ${r.min}`]),
    ...(r.max === undefined ? [] : [sql<SqlBool>`${value} <= ${r.max}`]),
  ];
  if (filter.fork !== 'include') {
    const forks = sql<SqlBool>`exists (select 1 from gists fg where fg.id = ${id} and fg.fork_of is not null)`;
    out.push(filter.fork === 'only' ? forks : sql<SqlBool>`not ${forks}`);
  }
  if (filter.stars) out.push(...range(sql<number>`(select count(*) from gist_stars st where st.gist_id = ${id})`, filter.stars));
  if (filter.file) {
    const conds: RawBuilder<SqlBool>[] = [];
    const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
    if (filter.file.names.length)
      conds.push(
        sql<SqlBool>`(${sql.join(
          filter.file.names.map((n) => sql<SqlBool>`lower(f.filename) like ${`%${literal(n)}%`} escape '\\'`),
          sql` or `,
        )})`,
      );
    if (filter.file.size) conds.push(...range(sql<number>`f.size`, filter.file.size));
    if (conds.length) out.push(sql<SqlBool>`exists (select 1 from gist_files f where f.gist_id = ${id} and ${all(conds)})`);
  }
  return out;
}

/** The order of results: best match first, or by stars or by the last update; `desc` or `asc`. */
export interface SearchOrder {
  sort: 'best-match' | 'stars' | 'updated';
  direction: 'desc' | 'asc';
}

/** The number of stars of each gist, in one query. */
async function starsOf(db: Db, gistIds: string[]): Promise<Map<string, number>> {
  if (!gistIds.length) return new Map();
  const rows = await sql<{ gist_id: string; n: number | string }>`select gist_id, count(*) as n from gist_stars
    where gist_id in (${sql.join(gistIds)}) group by gist_id`.execute(db);
  return new Map(rows.rows.map((r) => [r.gist_id, Number(r.n)]));
}

/**
 * The ids of one page of matching gists, in order, and how many match (at most `rankWindow`: the window is the count).
 * Of the `rankWindow` most recently changed matches (the oldest, for the last update ascending), the best (or most
 * starred, or newest) first.
 */
export async function findMatches(
  db: Db,
  m: IndexMatch,
  filter: RowFilter,
  order: SearchOrder,
  window: { offset: number; limit: number; rankWindow: number },
): Promise<{ rows: GistRow[]; total: number }> {
  const e = engine(db);
  const conditions = rowConditions(filter, sql<string>`s.gist_id`);
  const oldestFirst = order.sort === 'updated' && order.direction === 'asc';
  const found = await e.candidates(db, m, conditions, window.rankWindow, oldestFirst);
  const total = found.length;
  // Stars are counted for the whole window; otherwise only the page's documents need their gist's id.
  if (order.sort === 'stars') await withGistIds(db, found);
  const stars =
    order.sort === 'stars'
      ? await starsOf(
          db,
          found.map((c) => c.gistId!),
        )
      : undefined;
  const key = (c: Candidate) => (stars ? (stars.get(c.gistId!) ?? 0) : order.sort === 'updated' ? c.recency : c.score);
  const sign = order.direction === 'asc' ? 1 : -1;
  found.sort((a, b) => sign * (key(a) - key(b)) || b.recency - a.recency);
  return { rows: await gistRowsOf(db, found.slice(window.offset, window.offset + window.limit)), total };
}

/** The gist rows of candidates, in their order (found through their search rows; one no longer there is left out). */
async function gistRowsOf(db: Db, page: Candidate[]): Promise<GistRow[]> {
  if (!page.length) return [];
  const rows = await db
    .selectFrom('gist_search as s')
    .innerJoin('gists as g', 'g.id', 's.gist_id')
    .selectAll('g')
    .select('s.seq as search_seq')
    .where(
      's.seq',
      'in',
      page.map((c) => c.seq),
    )
    .execute();
  const bySeq = new Map(rows.map(({ search_seq, ...gist }) => [Number(search_seq), gist as GistRow]));
  return page.flatMap((c) => bySeq.get(c.seq) ?? []);
}

/** Fills in the gist ids candidates lack (one query). */
async function withGistIds(db: Db, candidates: Candidate[]): Promise<void> {
  const missing = candidates.filter((c) => c.gistId === undefined);
  if (!missing.length) return;
  const rows = await db
    .selectFrom('gist_search')
    .select(['seq', 'gist_id'])
    .where(
      'seq',
      'in',
      missing.map((c) => c.seq),
    )
    .execute();
  const byseq = new Map(rows.map((r) => [Number(r.seq), r.gist_id]));
  for (const c of missing) c.gistId = byseq.get(c.seq);
}

/** The first MAX_INDEXED_FILE_BYTES of each text file of these gists (for snippets), in name order. */
export async function searchedTexts(db: Db, gistIds: readonly string[]): Promise<Map<string, { filename: string; text: string }[]>> {
  const out = new Map<string, { filename: string; text: string }[]>(gistIds.map((id) => [id, []]));
  if (!gistIds.length) return out;
  const rows = await db
    .selectFrom('gist_files')
    .select(['gist_id', 'filename', sql<Buffer>`substr(content, 1, ${MAX_INDEXED_FILE_BYTES})`.as('head')])
    .where('gist_id', 'in', [...gistIds])
    .where('binary', '=', 0)
    .orderBy('gist_id')
    .orderBy('filename')
    .execute();
  for (const r of rows) out.get(r.gist_id)?.push({ filename: r.filename, text: Buffer.from(r.head).toString('utf8') });
  return out;
}
