// Site admin operations on accounts (GitHub Enterprise Server's admin API): renaming users and organizations, making
// users site admins or not, suspending users.
import type { ServiceContext } from '../core/context.js';
import type { UserRow } from '../db/schema.js';
import { Forbidden, NotFound, ValidationFailed } from '../core/errors.js';
import { requireSiteAdmin } from '../core/grants.js';
import { loginProblem } from './logins.js';
import { emitOrganizationEvent } from './org-events.js';
import { insertingLogin } from './service.js';
import { ADMIN_LOGIN } from './site-admin.js';
import { findAccount, renameAccount as renameRow, setSiteAdmin, setSuspended } from './store.js';

/**
 * Gives a user or an organization a new login (a change of case only, too). Everything hublet keeps is by id, so URLs
 * under the new login work at once and the old ones answer 404. The built-in `admin` keeps its login: `serve` finds
 * (or recreates) the first site admin by it. An organization's rename is the `organization` `renamed` event.
 */
export async function renameAccount(ctx: ServiceContext, type: 'User' | 'Organization', login: string, newLogin: string): Promise<UserRow> {
  const actor = requireSiteAdmin(ctx.actor);
  const account = await findAccount(ctx.db, login);
  if (account?.type !== type) throw new NotFound();
  const problem = loginProblem(newLogin, type);
  if (problem) throw new ValidationFailed([problem]);
  if (account.login_lower === ADMIN_LOGIN) {
    throw new ValidationFailed([
      { resource: type, field: 'login', code: 'invalid', message: `the built-in site admin keeps the login ${ADMIN_LOGIN}` },
    ]);
  }
  const taken = () => new ValidationFailed([{ resource: type, field: 'login', code: 'already_exists', message: 'login is already taken' }]);
  return insertingLogin(type, () =>
    ctx.db.transaction().execute(async (trx) => {
      const holder = await findAccount(trx, newLogin);
      if (holder && holder.id !== account.id) throw taken();
      const now = ctx.clock.now();
      const row = await renameRow(trx, account.id, newLogin, now);
      if (!row) throw new NotFound();
      if (type === 'Organization' && row.login !== account.login) {
        await emitOrganizationEvent(trx, ctx, { action: 'renamed', org: row, sender: actor.user, previousLogin: account.login }, now);
      }
      if (row.login !== account.login) {
        // An organization's change by a site admin is the organization's own action; a user's is the site's.
        await ctx.audit.record(
          trx,
          ctx,
          type === 'Organization'
            ? { action: 'org.rename', org: row, fields: { old_org: account.login } }
            : { action: 'business.rename_user', user: row, fields: { old_user: account.login } },
        );
      }
      return row;
    }),
  );
}

/** Makes a user a site admin, or no longer one; a site admin cannot demote themself (someone must stay). */
export async function changeSiteAdmin(ctx: ServiceContext, login: string, siteAdmin: boolean): Promise<void> {
  const actor = requireSiteAdmin(ctx.actor);
  const user = await findAccount(ctx.db, login);
  if (user?.type !== 'User') throw new NotFound();
  if (!siteAdmin && user.id === actor.user.id) throw new Forbidden('You cannot demote yourself.');
  await ctx.db.transaction().execute(async (trx) => {
    await setSiteAdmin(trx, user.id, siteAdmin, ctx.clock.now());
    if (Boolean(user.site_admin) !== siteAdmin)
      await ctx.audit.record(trx, ctx, { action: siteAdmin ? 'business.promote_site_admin' : 'business.demote_site_admin', user });
  });
}

/**
 * Suspends a user or lifts it: a suspended user's tokens answer 403 on every API call and git request (authenticate.ts)
 * and start working again when unsuspended. Site admins cannot suspend themselves. Suspending a suspended user keeps the
 * first date. The reason given (GitHub Enterprise's `reason`) is kept in the audit log's entry.
 */
export async function changeSuspension(ctx: ServiceContext, login: string, suspended: boolean, reason?: string): Promise<void> {
  const actor = requireSiteAdmin(ctx.actor);
  const user = await findAccount(ctx.db, login);
  if (user?.type !== 'User') throw new NotFound();
  if (suspended && user.id === actor.user.id) throw new Forbidden('You cannot suspend yourself.');
  if (suspended === Boolean(user.suspended_at)) return;
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await setSuspended(trx, user.id, suspended ? now : null, now);
    await ctx.audit.record(trx, ctx, {
      action: suspended ? 'business.suspend_user' : 'business.unsuspend_user',
      user,
      fields: suspended && reason ? { reason } : {},
    });
  });
}
