// GitHub Enterprise's statistics of the instance (GET /enterprise/stats/*): users and organizations counted here, the
// other sections by the areas that own them (their `enterpriseStats`); what hublet does not have (issues, pull requests,
// pages, teams…) is 0 in GitHub's shape.
import { sql } from 'kysely';
import type { EnterpriseStats, EnterpriseStatsOf } from '../core/contributions.js';
import type { ServiceContext } from '../core/context.js';
import { requireSiteAdmin } from '../core/grants.js';

/** Every section GitHub Enterprise answers, with every count it defines (enterprise-overview in its OpenAPI description). */
const SECTIONS: Record<string, readonly string[]> = {
  repos: ['total_repos', 'root_repos', 'fork_repos', 'org_repos', 'total_pushes', 'total_wikis'],
  hooks: ['total_hooks', 'active_hooks', 'inactive_hooks'],
  pages: ['total_pages'],
  orgs: ['total_orgs', 'disabled_orgs', 'total_teams', 'total_team_members'],
  users: ['total_users', 'admin_users', 'suspended_users'],
  pulls: ['total_pulls', 'merged_pulls', 'mergeable_pulls', 'unmergeable_pulls'],
  issues: ['total_issues', 'open_issues', 'closed_issues'],
  milestones: ['total_milestones', 'open_milestones', 'closed_milestones'],
  gists: ['total_gists', 'private_gists', 'public_gists'],
  comments: ['total_commit_comments', 'total_gist_comments', 'total_issue_comments', 'total_pull_request_comments'],
};

/** The sections GET /enterprise/stats/{type} answers one by one. */
export const STAT_TYPES = Object.keys(SECTIONS);

const accountStats: EnterpriseStatsOf = async (db) => {
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.count<number>(sql`case when type = 'User' then 1 end`).as('users'),
      eb.fn.count<number>(sql`case when type = 'User' and site_admin = 1 then 1 end`).as('admins'),
      eb.fn.count<number>(sql`case when type = 'User' and suspended_at is not null then 1 end`).as('suspended'),
      eb.fn.count<number>(sql`case when type = 'Organization' then 1 end`).as('orgs'),
    ])
    .executeTakeFirstOrThrow();
  return {
    users: { total_users: Number(row.users), admin_users: Number(row.admins), suspended_users: Number(row.suspended) },
    orgs: { total_orgs: Number(row.orgs) },
  };
};

/** Every section with every count, for site admins. */
export async function enterpriseStats(ctx: ServiceContext): Promise<EnterpriseStats> {
  requireSiteAdmin(ctx.actor);
  const parts = await Promise.all([accountStats, ...ctx.accounts.enterpriseStats].map((stats) => stats(ctx.db)));
  const out: EnterpriseStats = {};
  for (const [section, counts] of Object.entries(SECTIONS)) {
    out[section] = Object.fromEntries(counts.map((c) => [c, 0]));
    for (const part of parts) Object.assign(out[section], part[section]);
  }
  return out;
}
