// Table types of migration archives: one row per export, and the repositories it names (in the order they were given).
import type { Generated, Selectable } from 'kysely';

export type MigrationState = 'pending' | 'exporting' | 'exported' | 'failed';
export type MigrationKind = 'organization' | 'user';

interface MigrationsTable {
  id: Generated<number>;
  guid: string;
  kind: MigrationKind;
  /** The organization (organization migrations) or the user (user migrations) whose data is exported. */
  owner_id: number;
  /** Who started it. */
  creator_id: number | null;
  state: MigrationState;
  lock_repositories: number;
  exclude_metadata: number;
  exclude_git_data: number;
  exclude_attachments: number;
  exclude_releases: number;
  exclude_owner_projects: number;
  org_metadata_only: number;
  failure_reason: string | null;
  /** Blob key of the archive once exported. */
  archive_key: string | null;
  archive_size: number | string | null;
  /** Per-migration HMAC key of its signed download URLs (replaced when the archive is deleted). */
  archive_secret: string;
  exported_at: string | null;
  archive_expires_at: string | null;
  archive_deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

interface MigrationRepositoriesTable {
  migration_id: number;
  repository_id: number;
  position: number;
  /** The repository's full name when the migration started (used if it is renamed or gone at export time). */
  full_name: string;
}

export interface MigrationTables {
  migrations: MigrationsTable;
  migration_repositories: MigrationRepositoriesTable;
}

export type MigrationRow = Selectable<MigrationsTable>;
