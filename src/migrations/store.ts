// Migration rows: insert with their repositories, look up within an owner, list, and the state changes of an export.
import type { Db } from '../db/connect.js';
import type { MigrationKind, MigrationRow, MigrationState } from '../db/tables/migrations.js';

export interface NewMigration {
  guid: string;
  kind: MigrationKind;
  ownerId: number;
  creatorId: number;
  flags: MigrationFlags;
  archiveSecret: string;
  repositories: { id: number; fullName: string }[];
  now: Date;
}

export interface MigrationFlags {
  lock_repositories: boolean;
  exclude_metadata: boolean;
  exclude_git_data: boolean;
  exclude_attachments: boolean;
  exclude_releases: boolean;
  exclude_owner_projects: boolean;
  org_metadata_only: boolean;
}

const n = (b: boolean) => (b ? 1 : 0);

/** pg returns bigint columns as strings; SQLite as numbers. */
function normalize(row: MigrationRow): MigrationRow {
  return { ...row, archive_size: row.archive_size === null ? null : Number(row.archive_size) };
}

export async function insertMigration(db: Db, input: NewMigration): Promise<MigrationRow> {
  const now = input.now.toISOString();
  const f = input.flags;
  const row = await db
    .insertInto('migrations')
    .values({
      guid: input.guid,
      kind: input.kind,
      owner_id: input.ownerId,
      creator_id: input.creatorId,
      state: 'pending',
      lock_repositories: n(f.lock_repositories),
      exclude_metadata: n(f.exclude_metadata),
      exclude_git_data: n(f.exclude_git_data),
      exclude_attachments: n(f.exclude_attachments),
      exclude_releases: n(f.exclude_releases),
      exclude_owner_projects: n(f.exclude_owner_projects),
      org_metadata_only: n(f.org_metadata_only),
      failure_reason: null,
      archive_key: null,
      archive_size: null,
      archive_secret: input.archiveSecret,
      exported_at: null,
      archive_expires_at: null,
      archive_deleted_at: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (input.repositories.length) {
    await db
      .insertInto('migration_repositories')
      .values(input.repositories.map((r, position) => ({ migration_id: row.id, repository_id: r.id, position, full_name: r.fullName })))
      .execute();
  }
  return normalize(row);
}

export async function findMigration(db: Db, id: number): Promise<MigrationRow | undefined> {
  const row = await db.selectFrom('migrations').selectAll().where('id', '=', id).executeTakeFirst();
  return row && normalize(row);
}

export async function findMigrationByGuid(db: Db, guid: string): Promise<MigrationRow | undefined> {
  const row = await db.selectFrom('migrations').selectAll().where('guid', '=', guid).executeTakeFirst();
  return row && normalize(row);
}

/** One page of an owner's migrations of a kind, newest first, and their total. */
export async function listMigrations(
  db: Db,
  ownerId: number,
  kind: MigrationKind,
  page: { offset: number; limit: number },
): Promise<{ rows: MigrationRow[]; total: number }> {
  const base = db.selectFrom('migrations').where('owner_id', '=', ownerId).where('kind', '=', kind);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute();
  return { rows: rows.map(normalize), total: Number(total) };
}

/** The repositories a migration names, in the order they were given. */
export async function migrationRepositories(db: Db, migrationId: number): Promise<{ repository_id: number; full_name: string }[]> {
  return db
    .selectFrom('migration_repositories')
    .select(['repository_id', 'full_name'])
    .where('migration_id', '=', migrationId)
    .orderBy('position')
    .execute();
}

/** Ids of the repositories of several migrations at once, per migration, in order. */
export async function repositoryIdsOf(db: Db, migrationIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(migrationIds.map((id) => [id, []]));
  if (migrationIds.length === 0) return out;
  const rows = await db
    .selectFrom('migration_repositories')
    .select(['migration_id', 'repository_id'])
    .where('migration_id', 'in', migrationIds)
    .orderBy('migration_id')
    .orderBy('position')
    .execute();
  for (const r of rows) out.get(r.migration_id)!.push(r.repository_id);
  return out;
}

/** Moves a migration between states; only from the given states (so a finished export is never reopened). True when it moved. */
export async function transition(
  db: Db,
  id: number,
  from: MigrationState[],
  to: MigrationState,
  now: Date,
  extra: { failure_reason?: string | null } = {},
): Promise<boolean> {
  const r = await db
    .updateTable('migrations')
    .set({ state: to, updated_at: now.toISOString(), ...extra })
    .where('id', '=', id)
    .where('state', 'in', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Records a finished export and its archive; only while the migration is still pending or exporting. */
export async function markExported(
  db: Db,
  id: number,
  archive: { key: string; size: number; expiresAt: Date },
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('migrations')
    .set({
      state: 'exported',
      archive_key: archive.key,
      archive_size: archive.size,
      exported_at: now.toISOString(),
      archive_expires_at: archive.expiresAt.toISOString(),
      archive_deleted_at: null,
      failure_reason: null,
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .where('state', 'in', ['pending', 'exporting'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Marks the archive gone and rotates the URL key, so every signed URL handed out before stops working. */
export async function markArchiveDeleted(db: Db, id: number, newSecret: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('migrations')
    .set({ archive_deleted_at: now.toISOString(), archive_secret: newSecret, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('archive_deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
