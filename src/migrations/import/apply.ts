// Carrying out an import plan: accounts (each user, each organization with its memberships and its webhooks, inactive, in
// its own transaction), then each repository whole (its row, topics and archived flag written, its git data staged
// beside the repositories moved into place, in one transaction).
import { insertingLogin } from '../../accounts/service.js';
import { insertAccount, membershipRole, setMembership, updateAccount } from '../../accounts/store.js';
import type { UserRow } from '../../db/schema.js';
import type { ServiceContext } from '../../core/context.js';
import { requireActor } from '../../core/grants.js';
import { removeRepo } from '../../git/bare.js';
import { stageGitData } from '../../repos/import.js';
import { createRepository } from '../../repos/service.js';
import type { HookImportResult } from '../../core/contributions.js';
import type { ImportAction } from './csv.js';
import type { ArchiveOrganization, ArchiveUser } from './layout.js';
import type { ImportPlan, PlannedAccount, PlannedRepository } from './plan.js';

/** Per kind of record: how many were imported, mapped onto existing ones, renamed and skipped. */
export interface ActionCounts {
  model_name: string;
  imported: number;
  mapped: number;
  renamed: number;
  skipped: number;
}

/** Zero counts for one kind of record. */
export function newCounts(model: string): ActionCounts {
  return { model_name: model, imported: 0, mapped: 0, renamed: 0, skipped: 0 };
}

const FIELD: Record<ImportAction, 'imported' | 'mapped' | 'renamed' | 'skipped'> = {
  import: 'imported',
  map: 'mapped',
  rename: 'renamed',
  skip: 'skipped',
};

/** Adds one record's action to its kind's counts. */
export function count(c: ActionCounts, action: ImportAction): void {
  c[FIELD[action]]++;
}

/** Text cut to what a column holds (archives from elsewhere may carry longer values than hublet accepts). */
const clip = (v: string | null, max: number): string | null => (v === null ? null : v.replace(/\0/g, '').slice(0, max) || null);

async function createAccount(
  ctx: ServiceContext,
  p: PlannedAccount<ArchiveUser | ArchiveOrganization>,
  type: 'User' | 'Organization',
  fill: (trx: ServiceContext['db'], row: UserRow) => Promise<void>,
): Promise<UserRow> {
  const s = p.source;
  const profile = {
    name: clip(s.name, 255),
    email: clip(s.email, 255),
    blog: clip(s.website, 255),
    location: clip(s.location, 255),
    ...('company' in s ? { company: clip(s.company, 255) } : { bio: clip(s.description, 160) }),
  };
  return insertingLogin(type, () =>
    ctx.db.transaction().execute(async (trx) => {
      const now = ctx.clock.now();
      const row = await insertAccount(trx, { login: p.login, type }, now);
      const filled = (await updateAccount(trx, row.id, profile, now)) ?? row;
      await fill(trx, filled);
      return filled;
    }),
  );
}

interface ApplyResult {
  counts: ActionCounts[];
  notes: string[];
}

/**
 * Writes what `plan` says. Accounts come first (a repository's owner must exist), then repositories one at a time,
 * each whole or not at all: a failure stops the import there, and a re-run skips what this one already wrote.
 */
export async function applyPlan(ctx: ServiceContext, plan: ImportPlan, memberships: ActionCounts): Promise<ApplyResult> {
  const actor = requireActor(ctx.actor);
  const notes: string[] = [];
  const users = newCounts('user');
  const orgs = newCounts('organization');
  const repos = newCounts('repository');
  const hooks = newCounts('organization webhook');
  /** The account each planned one became (or was mapped onto), by source URL. */
  const made = new Map<unknown, UserRow>();

  for (const p of plan.users) {
    count(users, p.action);
    if (p.action === 'map' && p.existing) made.set(p, p.existing);
    if (p.action === 'import' || p.action === 'rename') made.set(p, await createAccount(ctx, p, 'User', async () => {}));
  }

  for (const p of plan.organizations) {
    count(orgs, p.action);
    if (p.action === 'skip') {
      memberships.skipped += p.source.members.length;
      hooks.skipped += p.source.webhooks.length;
      continue;
    }
    // The archive's webhooks, inactive, in the organization's own transaction (the last attempt's result is the one that holds).
    let hooked: HookImportResult | undefined;
    const addHooks = async (trx: ServiceContext['db'], org: UserRow) => {
      if (p.source.webhooks.length)
        hooked = await ctx.hooks.importOrgHooks(
          { config: ctx.config, secrets: ctx.secrets, now: ctx.clock.now() },
          trx,
          org,
          p.source.webhooks,
        );
    };
    const members: { user: UserRow; role: 'admin' | 'member' }[] = [];
    for (const m of p.source.members) {
      const planned = plan.account(m.user);
      const user = planned ? made.get(planned) : undefined;
      if (user && user.type === 'User') members.push({ user, role: m.role });
      else memberships.skipped++;
    }
    const addMembers = async (trx: ServiceContext['db'], org: UserRow) => {
      const now = ctx.clock.now();
      for (const m of members) {
        // Onto an existing organization: members are added, roles already there are kept.
        if (await membershipRole(trx, org.id, m.user.id)) memberships.mapped++;
        else {
          await setMembership(trx, org.id, m.user.id, m.role, now);
          memberships.imported++;
        }
      }
    };
    if (p.action === 'map' && p.existing) {
      const org = p.existing;
      await ctx.db.transaction().execute(async (trx) => {
        await addMembers(trx, org);
        await addHooks(trx, org);
      });
      made.set(p, org);
    } else if (p.action === 'import' || p.action === 'rename') {
      const org = await createAccount(ctx, p, 'Organization', async (trx, row) => {
        await addMembers(trx, row);
        if (!members.some((m) => m.role === 'admin')) {
          // An organization needs an owner: with none of the archive's owners imported, the importing admin is one.
          await setMembership(trx, row.id, actor.user.id, 'admin', ctx.clock.now());
          notes.push(`${row.login} has none of its owners in this import: ${actor.user.login} was made its owner`);
        }
        await addHooks(trx, row);
      });
      made.set(p, org);
    }
    if (hooked) {
      hooks.imported += hooked.imported;
      hooks.skipped += hooked.existing + hooked.refused.length;
      for (const r of hooked.refused) notes.push(`organization webhook ${r.url} of ${p.login} not imported: ${r.reason}`);
    }
  }
  const hasHooks = plan.organizations.some((p) => p.source.webhooks.length);
  if (hasHooks)
    notes.unshift(`organization webhooks: ${hooks.imported} imported inactive (no secrets in archives: set a secret and activate them)`);

  for (const r of plan.repositories) {
    count(repos, r.action);
    if (r.action !== 'import' && r.action !== 'rename') continue;
    const owner = 'source' in r.owner ? made.get(r.owner) : r.owner.existing;
    if (!owner) throw new Error(`the owner of ${r.owner.login}/${r.name} was not created`);
    await importOneRepository(ctx, r, owner);
  }
  // The webhooks' row only when the archive has any (hublet's own archives have none).
  return { counts: [users, orgs, memberships, ...(hasHooks ? [hooks] : []), repos], notes };
}

/** One repository, whole: its git data staged, the row and the data committed together. */
async function importOneRepository(ctx: ServiceContext, r: PlannedRepository, owner: UserRow): Promise<void> {
  const s = r.source;
  // The unpacked repository (checked by git fsck, stripped of its configuration) is moved into place, not copied.
  const staged = await stageGitData(ctx.config.dataDir, s.gitDir, s.defaultBranch, { adopt: true });
  try {
    await createRepository(
      ctx,
      null,
      {
        name: r.name,
        private: s.private,
        description: s.description,
        homepage: s.homepage,
        has_issues: s.hasIssues,
        has_wiki: s.hasWiki,
        has_downloads: s.hasDownloads,
      },
      // Topics and the archived flag are written in the row's own transaction: the repository is whole or absent.
      { imported: { owner, ...staged, topics: r.topics, archived: s.archived } },
    );
  } finally {
    removeRepo(staged.stagingDir);
  }
}
