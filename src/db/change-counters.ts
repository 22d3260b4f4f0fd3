// PostgreSQL's change stamp, counted per table: a trigger on every table that cached reads may depend on adds one to
// that table's counter in the transaction that changed it, so the counter moves exactly when the change commits (and
// not when it rolls back). The stamp is their sum (change-stamp.ts): counters only grow, so an equal sum means no
// counted table changed. Tables that no kept read looks at (the shared rate counts flushed every 200 ms, sign-in
// throttles, the job queue's claims and leases) have no trigger, and other databases of the cluster count nothing:
// their commits no longer make every cached read stale, as the cluster's snapshot did.
import { sql } from 'kysely';
import type { Db } from './schema.js';

/** Tables written on hot paths that no cached read, page or token lookup reads; their commits leave the stamp alone. */
export const UNCOUNTED_TABLES: readonly string[] = [
  'rate_limit_counts', // every process's flush of its request counts (src/http/shared-rate-counts.ts)
  'throttle_counts', // failed sign-ins (src/accounts/throttle.ts)
  'jobs', // claims, leases and retries of background jobs (src/jobs/queue.ts)
  'kysely_migration',
  'kysely_migration_lock',
  'change_counters',
];

/**
 * Each connection counts in its own shard (its backend pid modulo 8), so writers on different connections never wait
 * for each other's counter row; a transaction counts a table once (a transaction-local setting remembers it), however
 * many of its rows it changes.
 */
const FUNCTION = sql`
  create or replace function hublet_count_change() returns trigger language plpgsql as $$
  begin
    if current_setting('hublet.counted_' || tg_table_name, true) is distinct from '1' then
      perform set_config('hublet.counted_' || tg_table_name, '1', true);
      insert into change_counters (table_name, shard, version) values (tg_table_name, pg_backend_pid() % 8, 1)
        on conflict (table_name, shard) do update set version = change_counters.version + 1;
    end if;
    return null;
  end $$`;

/** The statement that reads the stamp: the sum of every counter. */
export const COUNTED_STAMP_SQL = 'select coalesce(sum(version), 0)::text as v from change_counters';

/**
 * Creates the counters' table and function when missing and a counting trigger on every table of the schema that
 * lacks one, except UNCOUNTED_TABLES; run after every migration (migrate.ts), so a table a later migration adds is
 * counted from its first start.
 */
export async function ensureChangeCounting(db: Db): Promise<void> {
  await sql`create table if not exists change_counters (
    table_name text not null, shard integer not null, version bigint not null, primary key (table_name, shard))`.execute(db);
  await FUNCTION.execute(db);
  const missing = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
      and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'hublet_count_change')`.execute(db);
  for (const { name } of missing.rows) {
    if (UNCOUNTED_TABLES.includes(name)) continue;
    await sql`create trigger hublet_count_change after insert or update or delete on ${sql.table(name)}
      for each row execute function hublet_count_change()`.execute(db);
  }
}
