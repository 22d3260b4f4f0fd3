// Bulk seeding straight into a server's database (SQLite or PostgreSQL): many gists in seconds, not one API call each.
//
// A template gist is created through the API first; every seeded gist copies its file row and its revision's change
// counts, so the rows are exactly what the API writes. Seeded gists have no git repository: the reads measured here
// (GET /gists/{id}, GET /gists/public) never open one.
import { sql } from 'kysely';
import { connect, type Db } from '../../src/db/connect.js';
import { isPostgresDb } from '../../src/db/dialect.js';

export async function withDb<T>(url: string, run: (db: Db) => Promise<T>): Promise<T> {
  const db = connect(url);
  try {
    return await run(db);
  } finally {
    await db.destroy();
  }
}

export interface GistSeed {
  /** How many gists to add. */
  count: number;
  /** The gist (created through the API) whose file and revision every seeded gist copies. */
  templateGistId: string;
  /** Owners, used in turn; they must be consecutive ids (accounts created one after another on a fresh database). */
  ownerIds: number[];
}

const CHUNK = 100_000;

/** Fills a temporary `seed` table with ids, owners, heads and timestamps (a second apart, older than 2025). */
function seedRows(db: Db, from: number, to: number, minOwner: number, owners: number) {
  if (isPostgresDb(db)) {
    return sql`create temp table seed on commit drop as
      select md5(random()::text || i::text) as id, ${sql.lit(minOwner)} + (i % ${sql.lit(owners)}) as owner_id,
             md5(random()::text) || substr(md5(i::text), 1, 8) as head_sha,
             to_char(timestamp '2025-01-01 00:00:00' - make_interval(secs => i), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as t,
             i
      from generate_series(${sql.lit(from)}, ${sql.lit(to - 1)}) as i`;
  }
  return sql`create temp table seed as
    with recursive n(i) as (select ${sql.lit(from)} union all select i + 1 from n where i + 1 < ${sql.lit(to)})
    select lower(hex(randomblob(16))) as id, ${sql.lit(minOwner)} + (i % ${sql.lit(owners)}) as owner_id,
           lower(hex(randomblob(20))) as head_sha,
           strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01 00:00:00', '-' || i || ' seconds') as t,
           i
    from n`;
}

/** Adds `count` public gists, each with the template's file and one revision, in transactions of 100,000. */
export async function seedGists(db: Db, seed: GistSeed): Promise<void> {
  const minOwner = Math.min(...seed.ownerIds);
  const owners = seed.ownerIds.length;
  if (Math.max(...seed.ownerIds) - minOwner !== owners - 1)
    throw new Error(`seed owners must have consecutive ids: ${seed.ownerIds.join(',')}`);
  const template = seed.templateGistId;
  for (let from = 0; from < seed.count; from += CHUNK) {
    const to = Math.min(seed.count, from + CHUNK);
    await db.transaction().execute(async (trx) => {
      await seedRows(trx, from, to, minOwner, owners).execute(trx);
      await sql`insert into gists (id, owner_id, description, "public", fork_of, head_sha, comments, created_at, updated_at)
        select id, owner_id, 'seeded gist ' || i, 1, null, head_sha, 0, t, t from seed`.execute(trx);
      await sql`insert into gist_files (gist_id, filename, content, size, blob_sha, language, type, "binary")
        select s.id, f.filename, f.content, f.size, f.blob_sha, f.language, f.type, f."binary"
        from seed s cross join gist_files f where f.gist_id = ${template}`.execute(trx);
      await sql`insert into gist_revisions (gist_id, version, position, user_id, committed_at, additions, deletions, total)
        select s.id, s.head_sha, 0, s.owner_id, s.t, r.additions, r.deletions, r.total
        from seed s cross join gist_revisions r where r.gist_id = ${template}`.execute(trx);
      if (!isPostgresDb(trx)) await sql`drop table seed`.execute(trx);
    });
  }
  // PostgreSQL's autovacuum would analyze the new rows soon after; do it now so plans are the steady state's.
  if (isPostgresDb(db)) await sql`analyze`.execute(db);
}

/** Creates `count` users through the admin API (consecutive ids on a fresh database); returns their ids. */
export async function createUsers(
  api: (method: string, path: string, body?: unknown) => Promise<any>,
  prefix: string,
  count: number,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await api('POST', '/admin/users', { login: `${prefix}${i}` })).id as number);
  return ids;
}
