// Importing a migration archive (site admins): unpack it, read it, plan every record (dry run: stop there), check every
// repository to import with `git fsck`, then write; the answer is the plan's records and the audit.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { findAccount } from '../../accounts/store.js';
import type { ServiceContext } from '../../core/context.js';
import type { Db } from '../../db/connect.js';
import type { UserRow } from '../../db/schema.js';
import type { RepositoryRow } from '../../db/tables/repos.js';
import { gitFsck } from '../../git/fsck.js';
import { requireGit } from '../../git/smart-http.js';
import { requireSiteAdmin } from '../../core/grants.js';
import { findRepository } from '../../repos/store.js';
import { applyPlan, count, newCounts, type ActionCounts } from './apply.js';
import type { MapRow } from './csv.js';
import { archiveRefused, extractArchive, type ExtractLimits } from './extract.js';
import { readArchive, type ArchiveContents, type ArchiveRepository } from './layout.js';
import { accountKey, planImport, repositoryKey, type ImportPlan, type Lookup } from './plan.js';

/** What an import answers: every record with its action (the conflicts CSV's rows), and the audit. */
export interface ImportReport {
  dry_run: boolean;
  schema_version: string;
  records: MapRow[];
  /** Per kind: imported, mapped, renamed, skipped (for a dry run: what the import would do). */
  counts: ActionCounts[];
  /** What the archive holds that hublet does not model, by kind: never imported, always listed. */
  not_imported: { model_name: string; count: number }[];
  notes: string[];
}

interface ImportOptions {
  dryRun: boolean;
  edits: readonly MapRow[];
  limits: ExtractLimits;
}

/** Git configuration an archive's repository may not bring: its config (replaced), hooks and alternates (which could name other repositories on this machine). */
async function neutralize(gitDir: string): Promise<void> {
  for (const p of ['hooks', 'objects/info/alternates', 'objects/info/http-alternates', 'info/grafts', 'shallow', 'commondir']) {
    await fs.promises.rm(path.join(gitDir, p), { recursive: true, force: true });
  }
  await fs.promises.writeFile(path.join(gitDir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
}

/** Every repository the plan imports passes `git fsck`, or the archive is refused naming the first that does not. */
async function checkRepositories(repos: ArchiveRepository[]): Promise<void> {
  for (const r of repos) {
    if (!r.gitDir) continue;
    await neutralize(r.gitDir);
    const problems = await gitFsck(r.gitDir);
    if (problems.length) throw archiveRefused(`the git data of ${r.url} fails git fsck: ${problems.slice(0, 3).join('; ')}`);
  }
}

/** What the plan has asked about this server so far (see `Existing`). */
type Asked = { accounts: Map<string, UserRow | null>; repositories: Map<string, RepositoryRow | null> };

/** Answers the plan's lookups: an account by login, a repository by owner and name (null: there is none). */
async function lookUp(db: Db, missing: readonly Lookup[], asked: Asked): Promise<void> {
  for (const l of missing) {
    if (l.kind === 'account' && !asked.accounts.has(accountKey(l.login)))
      asked.accounts.set(accountKey(l.login), (await findAccount(db, l.login)) ?? null);
    if (l.kind === 'repository' && !asked.repositories.has(repositoryKey(l.ownerId, l.name))) {
      asked.repositories.set(repositoryKey(l.ownerId, l.name), (await findRepository(db, l.ownerId, l.name)) ?? null);
    }
  }
}

/**
 * The plan for `contents` on this server. Planning is pure: each pass says what it needed and did not know (accounts,
 * then repositories of accounts it found, then the next `<login>-N` to try), and is repeated with those read until one
 * needs nothing more; that is the plan (or its 422). Each account and repository is read once.
 */
async function planAgainst(ctx: ServiceContext, contents: ArchiveContents, edits: readonly MapRow[]): Promise<ImportPlan> {
  const asked: Asked = { accounts: new Map(), repositories: new Map() };
  for (;;) {
    const outcome = planImport(contents, edits, asked, ctx.urls);
    if ('plan' in outcome) return outcome.plan;
    await lookUp(ctx.db, outcome.missing, asked);
  }
}

function plannedCounts(plan: ImportPlan): ActionCounts[] {
  const users = newCounts('user');
  const orgs = newCounts('organization');
  const memberships = newCounts('membership');
  const repos = newCounts('repository');
  const hooks = newCounts('organization webhook');
  for (const p of plan.users) count(users, p.action);
  for (const p of plan.organizations) {
    count(orgs, p.action);
    // Whether each would be created, is there already or is refused is known only as the import writes it.
    hooks[p.action === 'skip' ? 'skipped' : 'imported'] += p.source.webhooks.length;
    for (const m of p.source.members) {
      const u = plan.account(m.user);
      if (p.action === 'skip' || !u || u.action === 'skip') memberships.skipped++;
      else if (p.action === 'map' && u.action === 'map') memberships.mapped++;
      else memberships.imported++;
    }
  }
  for (const p of plan.repositories) count(repos, p.action);
  // The webhooks' row only when the archive has any (hublet's own archives have none).
  return [users, orgs, memberships, ...(plan.organizations.some((p) => p.source.webhooks.length) ? [hooks] : []), repos];
}

/**
 * Imports the migration archive `input` streams (site admins only). Refused with a 422 before anything is written: a
 * damaged, oversized or hostile archive, an unknown schema version, a map that cannot apply, a repository failing
 * `git fsck`. With `dryRun`, nothing is written and the answer says what would be done.
 */
export async function importArchive(ctx: ServiceContext, input: Readable, opts: ImportOptions): Promise<ImportReport> {
  requireSiteAdmin(ctx.actor);
  requireGit();
  const root = path.join(ctx.config.dataDir, 'tmp', 'imports');
  await fs.promises.mkdir(root, { recursive: true });
  const dir = path.join(root, crypto.randomUUID());
  await fs.promises.mkdir(dir);
  try {
    await extractArchive(input, dir, opts.limits);
    const contents = await readArchive(dir);
    const plan = await planAgainst(ctx, contents, opts.edits);
    const toImport = plan.repositories.filter((r) => r.action === 'import' || r.action === 'rename').map((r) => r.source);
    await checkRepositories(toImport);
    const notImported = Object.entries(contents.unmodeled).map(([model_name, n]) => ({ model_name, count: n }));
    const notes = contents.organizations.some((o) => o.webhooks.length)
      ? ['organization webhooks are imported inactive: archives carry no webhook secrets (the import reports each one it cannot create)']
      : [];
    const report: ImportReport = {
      dry_run: opts.dryRun,
      schema_version: contents.version,
      records: plan.rows,
      counts: plannedCounts(plan),
      not_imported: notImported,
      notes,
    };
    if (opts.dryRun) return report;
    const applied = await applyPlan(ctx, plan, newCounts('membership'));
    ctx.log.info({ counts: applied.counts }, 'migration archive imported');
    return { ...report, counts: applied.counts, notes: applied.notes };
  } finally {
    // A refused archive may still have a file being written as the refusal lands: retried until the tree is gone.
    await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}
