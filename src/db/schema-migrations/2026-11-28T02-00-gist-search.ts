// Gist search: one `gist_search` row per gist (dropped with it), its words in SQLite's FTS5 (a contentless table whose
// entry a trigger drops with the row) or in a PostgreSQL tsvector with a GIN index, and an index of file sizes for
// `size:`; then every gist that exists is indexed, oldest update first (so `seq` follows the order of updates: down on
// SQLite, whose FTS5 walks forwards cheapest, up on PostgreSQL). Frozen: documents are made here as
// src/gists/search-*.ts make them on this date, with nothing of the application imported.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

const FILE_BYTES = 384 * 1024;
const BUDGET = 900_000;

function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+/gu))
    if (m[0].length <= 100) out.push(m[0]);
  return out;
}

interface Doc {
  /** Who may find it, its owner, its files' languages and extensions. */
  scope: string[];
  fields: [string[], string[], string[]];
}

interface File {
  filename: string;
  language: string | null;
  head: Buffer | null;
}

function documentOf(g: { owner_id: number; public: number; description: string }, files: File[]): Doc {
  const seen = new Map<string, number>();
  let used = 0;
  const within = (list: string[]) => {
    const kept: string[] = [];
    for (const w of list) {
      const n = seen.get(w);
      if (n === undefined) {
        if (used + 10 + Buffer.byteLength(w) > BUDGET) break;
        used += 10 + Buffer.byteLength(w);
        seen.set(w, 1);
      } else if (n < 256) {
        seen.set(w, n + 1);
        used += 2;
      }
      kept.push(w);
    }
    return kept;
  };
  const description = within(words(g.description));
  const names = within(files.flatMap((f) => words(f.filename)));
  const content: string[] = [];
  for (const f of files) {
    if (!f.head) continue;
    const all = words(f.head.subarray(0, FILE_BYTES).toString('utf8'));
    const kept = within(all);
    for (const w of kept) content.push(w);
    if (kept.length < all.length) break;
  }
  const hex = (v: string) => Buffer.from(v).toString('hex');
  const scope = new Set([Number(g.public) === 1 ? 'p' : `s${g.owner_id}`, `u${g.owner_id}`]);
  for (const f of files) if (f.language) scope.add(`l${hex(f.language.trim().toLowerCase().replace(/\s+/g, '-'))}`);
  for (const f of files) {
    const dot = f.filename.lastIndexOf('.');
    if (dot >= 0 && dot < f.filename.length - 1) scope.add(`x${hex(f.filename.slice(dot + 1).toLowerCase())}`);
  }
  return { scope: [...scope], fields: [description, names, content] };
}

/** The `document` (every word and the scope) and `title` (description and file names) tsvector literals. */
function tsvectors(doc: Doc): { document: string; title: string } {
  const positions = new Map<string, string[]>();
  let at = 0;
  let title = '';
  doc.fields.forEach((list, i) => {
    if (i === 2) title = [...positions].map(([w, p]) => `'${w}':${p.join(',')}`).join(' ');
    for (const w of list) {
      at = Math.min(at + 1, 16383);
      const p = positions.get(w) ?? [];
      if (!p.length) positions.set(w, p);
      if (p.length < 256) p.push(`${at}${'ABC'[i]}`);
    }
  });
  const scope = doc.scope.map((w) => `'~${w}'`);
  return { document: [...scope, ...[...positions].map(([w, p]) => `'${w}':${p.join(',')}`)].join(' '), title };
}

/** Indexes every gist, a batch at a time (their files' bytes are read a batch at a time too). */
async function indexAll(db: Kysely<any>, pg: boolean): Promise<void> {
  let after: { updated_at: string; id: string } | null = null;
  // SQLite's seq counts down (the newest document first in its FTS index's rowid order), PostgreSQL's up.
  let seq = 0;
  for (;;) {
    let q = db.selectFrom('gists').select(['id', 'owner_id', 'public', 'description', 'updated_at']);
    if (after) {
      const { updated_at, id } = after;
      q = q.where((eb) => eb.or([eb('updated_at', '>', updated_at), eb.and([eb('updated_at', '=', updated_at), eb('id', '>', id)])]));
    }
    const gists = await q.orderBy('updated_at').orderBy('id').limit(200).execute();
    if (!gists.length) return;
    after = gists[gists.length - 1];
    const files = await db
      .selectFrom('gist_files')
      .select(['gist_id', 'filename', 'language', 'binary', sql<Buffer>`substr(content, 1, ${FILE_BYTES})`.as('head')])
      .where(
        'gist_id',
        'in',
        gists.map((g) => g.id),
      )
      .orderBy('gist_id')
      .orderBy('filename')
      .execute();
    const filesOf = new Map<string, File[]>(gists.map((g) => [g.id, []]));
    for (const f of files)
      filesOf.get(f.gist_id)?.push({ filename: f.filename, language: f.language, head: Number(f.binary) ? null : Buffer.from(f.head) });
    for (const g of gists) {
      const doc = documentOf(g, filesOf.get(g.id)!);
      if (pg) {
        const { document, title } = tsvectors(doc);
        await db
          .insertInto('gist_search')
          .values({ gist_id: g.id, document: sql`${document}::tsvector`, title: sql`${title}::tsvector` })
          .execute();
        continue;
      }
      seq -= 1;
      await db.insertInto('gist_search').values({ seq, gist_id: g.id }).execute();
      const [description, names, content] = doc.fields.map((f) => f.join(' '));
      await sql`insert into gist_search_fts (rowid, scope, description, filenames, content)
        values (${seq}, ${doc.scope.join(' ')}, ${description}, ${names}, ${content})`.execute(db);
    }
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  let table = db.schema
    .createTable('gist_search')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) => c.primaryKey())
    .addColumn('gist_id', 'text', (c) => c.notNull().unique().references('gists.id').onDelete('cascade'));
  if (pg) table = table.addColumn('document', sql`tsvector`, (c) => c.notNull()).addColumn('title', sql`tsvector`, (c) => c.notNull());
  await table.execute();
  if (pg) {
    await db.schema.createIndex('gist_search_document').on('gist_search').using('gin').column('document').execute();
  } else {
    await sql`create virtual table gist_search_fts using fts5(scope, description, filenames, content,
      content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`.execute(db);
    await sql`create trigger gist_search_unindex after delete on gist_search
      begin delete from gist_search_fts where rowid = old.seq; end`.execute(db);
  }
  // `size:` reads sizes without the files' bytes (filename: has the primary key's (gist_id, filename)).
  await db.schema.createIndex('gist_files_size').on('gist_files').columns(['gist_id', 'size']).execute();
  await indexAll(db, pg);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('gist_files_size').execute();
  if (!isPostgres(db)) {
    await sql`drop trigger if exists gist_search_unindex`.execute(db);
    await sql`drop table if exists gist_search_fts`.execute(db);
  }
  await db.schema.dropTable('gist_search').execute();
}
