// Importing a migration archive (site admins): unpack it, read it, plan every record (dry run: stop there), check every
// repository to import with `git fsck`, then write; the answer is the plan's records and the audit.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ServiceContext } from '../../core/context.js';
import { gitFsck } from '../../git/fsck.js';
import { requireGit } from '../../git/smart-http.js';
import { requireSiteAdmin } from '../../core/grants.js';
import { applyPlan, count, newCounts, type ActionCounts } from './apply.js';
import type { MapRow } from './csv.js';
import { archiveRefused, extractArchive, type ExtractLimits } from './extract.js';
import { readArchive, type ArchiveRepository } from './layout.js';
import { planImport, type ImportPlan } from './plan.js';

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
    const plan = await planImport(ctx.db, ctx.urls, contents, opts.edits);
    const toImport = plan.repositories.filter((r) => r.action === 'import' || r.action === 'rename').map((r) => r.source);
    await checkRepositories(toImport);
    const notImported = Object.entries(contents.unmodeled).map(([model_name, n]) => ({ model_name, count: n }));
    const notes = contents.organizations.some((o) => o.webhooks.length)
      ? ['organization webhooks are imported inactive: archives carry no webhook secrets (the import reports each one it cannot create)']
      : [];
    const report: ImportReport = { dry_run: opts.dryRun, schema_version: contents.version, records: plan.rows, counts: plannedCounts(plan), not_imported: notImported, notes };
    if (opts.dryRun) return report;
    const applied = await applyPlan(ctx, plan, newCounts('membership'));
    ctx.log.info({ counts: applied.counts }, 'migration archive imported');
    return { ...report, counts: applied.counts, notes: applied.notes };
  } finally {
    // A refused archive may still have a file being written as the refusal lands: retried until the tree is gone.
    await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}
