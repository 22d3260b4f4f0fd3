// Migration operations: start an export, read and list migrations, hand out the archive, delete it, unlock repositories.
import crypto from 'node:crypto';
import { requireActor, type Actor } from '../core/grants.js';
import { requireOrgOwner } from '../accounts/service.js';
import { archiveStore } from '../blob/index.js';
import type { UserRow } from '../db/schema.js';
import { canRead, tokenSeesPrivate } from '../repos/access.js';
import { lockRepositories, unlockRepository } from '../repos/locks.js';
import { NotFound, Unprocessable, ValidationFailed } from '../core/errors.js';
import type { ServiceContext } from '../core/context.js';
import type { AuditEntry } from '../core/contributions.js';
import { EXPIRY_QUEUE, EXPORT_MAX_ATTEMPTS, EXPORT_QUEUE } from './queues.js';
import { archiveAvailable } from './present.js';
import { loadRepositories, resolveRepositories, type LoadedRepository } from './repositories.js';
import { newArchiveSecret, signedArchiveUrl } from './signing.js';
import {
  findMigration,
  insertMigration,
  listMigrations as listRows,
  markArchiveDeleted,
  migrationRepositories,
  repositoryIdsOf,
  type MigrationFlags,
} from './store.js';
import type { MigrationKind, MigrationRow } from '../db/tables/migrations.js';

/** Whose migrations a request is about: an organization (its owners) or the signed-in user (their own). */
export interface MigrationScope {
  kind: MigrationKind;
  owner: UserRow;
}

/** An entry about a migration of this scope: in its organization's log, or naming the user whose migration it is. */
function migrationEntry(scope: MigrationScope, action: string, m: MigrationRow, fields: Record<string, unknown> = {}): AuditEntry {
  const whose = scope.kind === 'organization' ? { org: scope.owner } : { user: scope.owner };
  return { action, ...whose, fields: { migration_id: m.id, guid: m.guid, ...fields } };
}

/** The organization's migrations, for its owners only (everyone else: 404). */
export async function organizationScope(ctx: ServiceContext, orgLogin: string): Promise<MigrationScope> {
  return { kind: 'organization', owner: await requireOrgOwner(ctx, orgLogin) };
}

/** The signed-in user's own migrations (anonymous: 401). */
export function userScope(ctx: ServiceContext): MigrationScope {
  return { kind: 'user', owner: requireActor(ctx.actor).user };
}

export interface StartInput extends Partial<MigrationFlags> {
  repositories: string[];
}

/** The most repositories one migration may name. */
export const MAX_REPOSITORIES = 1000;

const NO_STORAGE_MESSAGE =
  'Migrations need archive storage, and none is configured: set a blob storage provider in the server settings (HUBLET_ARCHIVE_STORAGE=filesystem).';

/**
 * Starts an export: checks the names, records the migration (state `pending`), locks its repositories when asked, and
 * enqueues the export job, all in one transaction.
 */
export async function startMigration(ctx: ServiceContext, scope: MigrationScope, input: StartInput): Promise<MigrationRow> {
  if (!archiveStore(ctx.config)) throw new Unprocessable(NO_STORAGE_MESSAGE);
  const actor = requireActor(ctx.actor);
  const flags: MigrationFlags = {
    lock_repositories: input.lock_repositories ?? false,
    exclude_metadata: input.exclude_metadata ?? false,
    exclude_git_data: input.exclude_git_data ?? false,
    exclude_attachments: input.exclude_attachments ?? false,
    exclude_releases: input.exclude_releases ?? false,
    exclude_owner_projects: input.exclude_owner_projects ?? false,
    org_metadata_only: input.org_metadata_only ?? false,
  };
  if (flags.org_metadata_only && input.repositories.length > 0) {
    throw new ValidationFailed([
      {
        resource: 'Migration',
        field: 'repositories',
        code: 'invalid',
        message: 'repositories must be empty when org_metadata_only is true',
      },
    ]);
  }
  if (!flags.org_metadata_only && input.repositories.length === 0) {
    throw new ValidationFailed([
      {
        resource: 'Migration',
        field: 'repositories',
        code: 'missing_field',
        message: 'repositories cannot be empty unless org_metadata_only is true',
      },
    ]);
  }
  const now = ctx.clock.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    // An export never gives a token more than it can read: each repository passes GET /repos's read rule for this caller
    // (a classic token without `repo` names no private repository, whatever the owner's role).
    const { repositories, errors } = await resolveRepositories(trx, scope.owner, input.repositories, (repo) =>
      canRead(trx, actor, repo, scope.owner),
    );
    if (errors.length) throw new ValidationFailed(errors);
    const m = await insertMigration(trx, {
      guid: crypto.randomUUID(),
      kind: scope.kind,
      ownerId: scope.owner.id,
      creatorId: actor.user.id,
      flags,
      archiveSecret: newArchiveSecret(),
      repositories: repositories.map((r) => ({ id: r.id, fullName: `${scope.owner.login}/${r.name}` })),
      now,
    });
    if (flags.lock_repositories && !flags.org_metadata_only)
      await lockRepositories(
        trx,
        repositories.map((r) => r.id),
        m.id,
        now,
      );
    await ctx.jobs.enqueue(trx, { queue: EXPORT_QUEUE, payload: { migrationId: m.id }, maxAttempts: EXPORT_MAX_ATTEMPTS }, now);
    await ctx.audit.record(
      trx,
      ctx,
      migrationEntry(scope, 'migration.create', m, {
        repositories: repositories.map((r) => `${scope.owner.login}/${r.name}`),
        lock_repositories: flags.lock_repositories,
        exclude_metadata: flags.exclude_metadata,
        exclude_git_data: flags.exclude_git_data,
        org_metadata_only: flags.org_metadata_only,
      }),
    );
    return m;
  });
  ctx.jobs.wake();
  return row;
}

/** A migration of this scope by id; 404 for anything else (another owner's, the other kind, or no such id). */
export async function getMigration(ctx: ServiceContext, scope: MigrationScope, id: number): Promise<MigrationRow> {
  const m = Number.isSafeInteger(id) && id > 0 ? await findMigration(ctx.db, id) : undefined;
  if (!m || m.owner_id !== scope.owner.id || m.kind !== scope.kind) throw new NotFound();
  return m;
}

/** One page of the scope's migrations, newest first. */
export async function listMigrations(ctx: ServiceContext, scope: MigrationScope, page: { offset: number; perPage: number }) {
  return listRows(ctx.db, scope.owner.id, scope.kind, { offset: page.offset, limit: page.perPage });
}

/**
 * The repositories (still existing) of each migration that the caller may read now, in the order they were named. In
 * a migration's scope the caller owns them (or owns their organization), so GET /repos's read rule comes down to what
 * the token reaches: a token without `repo` is not shown the private ones.
 */
export async function repositoriesOf(ctx: ServiceContext, migrations: MigrationRow[]): Promise<Map<number, LoadedRepository[]>> {
  const ids = await repositoryIdsOf(
    ctx.db,
    migrations.map((m) => m.id),
  );
  const all = await loadRepositories(ctx.db, [...new Set([...ids.values()].flat())]);
  const seesPrivate = tokenSeesPrivate(ctx.actor);
  const byId = new Map(all.filter((r) => seesPrivate || r.row.visibility === 'public').map((r) => [r.row.id, r]));
  const out = new Map<number, LoadedRepository[]>();
  for (const [migrationId, repoIds] of ids)
    out.set(
      migrationId,
      repoIds.map((id) => byId.get(id)).filter((r): r is LoadedRepository => r !== undefined),
    );
  return out;
}

/** One page of a migration's repositories and how many there are. */
export async function listMigrationRepositories(
  ctx: ServiceContext,
  scope: MigrationScope,
  id: number,
  page: { offset: number; perPage: number },
) {
  const m = await getMigration(ctx, scope, id);
  const repositories = (await repositoriesOf(ctx, [m])).get(m.id) ?? [];
  return { migration: m, repositories: repositories.slice(page.offset, page.offset + page.perPage), total: repositories.length };
}

/**
 * Whether the caller may hold a migration's archive: it carries its repositories' data, so every one of them must pass
 * GET /repos's read rule for this caller now (one deleted since: only a token that reaches private repositories).
 */
async function mayDownload(ctx: ServiceContext, actor: Actor | null, m: MigrationRow): Promise<boolean> {
  const named = await migrationRepositories(ctx.db, m.id);
  const live = await loadRepositories(
    ctx.db,
    named.map((r) => r.repository_id),
  );
  if (live.length < named.length && !tokenSeesPrivate(actor)) return false;
  for (const r of live) if (!(await canRead(ctx.db, actor, r.row, r.owner))) return false;
  return true;
}

/** A time-limited URL of the archive, once exported and until deleted or expired, for a caller who may read it all (404 otherwise). */
export async function archiveUrl(ctx: ServiceContext, scope: MigrationScope, id: number): Promise<string> {
  const m = await getMigration(ctx, scope, id);
  if (!(await mayDownload(ctx, ctx.actor, m))) throw new NotFound();
  const now = ctx.clock.now();
  const store = archiveStore(ctx.config);
  if (!archiveAvailable(m, now) || !store || !(await store.stat(m.archive_key!))) throw new NotFound();
  // A store that serves downloads itself (S3) gets the client there, with a pre-signed URL of the same lifetime.
  const ttl = ctx.config.archiveUrlTtlSeconds;
  const url = store.downloadUrl
    ? await store.downloadUrl(m.archive_key!, { now, expiresInSeconds: ttl, filename: `${m.guid}.tar.gz`, contentType: 'application/gzip' })
    : signedArchiveUrl(ctx.urls, m.guid, m.archive_secret, Math.floor(now.getTime() / 1000) + ttl);
  // Handing out the URL is the download as far as the log can tell (the URL itself is a credential: never logged).
  await ctx.db.transaction().execute((trx) => ctx.audit.record(trx, ctx, migrationEntry(scope, 'migration.download', m)));
  return url;
}

/** Deletes the archive now (404 when there is none to delete); URLs handed out before stop working. */
export async function deleteArchive(ctx: ServiceContext, scope: MigrationScope, id: number): Promise<void> {
  const m = await getMigration(ctx, scope, id);
  const now = ctx.clock.now();
  if (!archiveAvailable(m, now)) throw new NotFound();
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    if (!(await markArchiveDeleted(trx, m.id, newArchiveSecret(), now))) return false;
    await ctx.audit.record(trx, ctx, migrationEntry(scope, 'migration.destroy_file', m));
    return true;
  });
  if (!deleted) throw new NotFound();
  const key = m.archive_key!;
  await archiveStore(ctx.config)
    ?.delete(key)
    .catch(async (err: unknown) => {
      // The store is down: the archive is gone for the API already, and the expiry job (with its retries) deletes the object.
      ctx.log.warn({ migration: m.id, err }, 'migration archive not deleted yet; the expiry job will retry');
      await ctx.jobs.enqueue(ctx.db, { queue: EXPIRY_QUEUE, payload: { migrationId: m.id, key } }, now);
    });
}

/** Releases the lock this migration holds on one of its repositories (404 when it is not in the migration or not locked). */
export async function unlockMigrationRepository(ctx: ServiceContext, scope: MigrationScope, id: number, repoName: string): Promise<void> {
  const m = await getMigration(ctx, scope, id);
  const named = await migrationRepositories(ctx.db, m.id);
  const live = await loadRepositories(
    ctx.db,
    named.map((r) => r.repository_id),
  );
  const wanted = repoName.toLowerCase();
  const repo =
    live.find((r) => r.row.name.toLowerCase() === wanted) ??
    live.find(
      (r) =>
        named
          .find((n) => n.repository_id === r.row.id)
          ?.full_name.split('/')[1]
          ?.toLowerCase() === wanted,
    );
  if (!repo) throw new NotFound();
  const released = await ctx.db.transaction().execute(async (trx) => {
    if (!(await unlockRepository(trx, repo.row.id, m.id))) return false;
    await ctx.audit.record(trx, ctx, {
      action: 'repo.unlock',
      org: repo.owner.type === 'Organization' ? repo.owner : null,
      repo: { id: repo.row.id, name: `${repo.owner.login}/${repo.row.name}` },
      fields: { migration_id: m.id, guid: m.guid },
    });
    return true;
  });
  if (!released) throw new NotFound();
}
