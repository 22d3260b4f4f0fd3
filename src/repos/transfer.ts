// Transferring a repository to another account (POST /repos/{owner}/{repo}/transfer): the row changes owner (and name,
// with new_name) in one transaction with a redirect from the old address and the `repository` `transferred` event.
import type { ServiceContext } from '../core/context.js';
import { findAccount, membershipRole } from '../accounts/store.js';
import { isUniqueViolation } from '../db/dialect.js';
import type { UserRow } from '../db/schema.js';
import { Forbidden, ValidationFailed } from '../core/errors.js';
import { requireActor, type Actor } from '../core/grants.js';
import { atLeast, effectiveAccess, permissionsFor } from './access.js';
import { repositoryAudit } from './audit.js';
import { isLocked, LOCKED_MESSAGE } from './locks.js';
import { repositoryName } from './names.js';
import { previousOwner } from './repository-payload.js';
import { emitRepositoryEvent, lockCurrent, resolveRepository, type ResolvedRepository } from './service.js';
import { addRedirect, findRepository, updateRepository } from './store.js';

const invalid = (field: string, message: string) => new ValidationFailed([{ resource: 'Repository', field, code: 'invalid', message }]);
const nameTaken = () =>
  new ValidationFailed([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);

/**
 * Where the caller may move a repository at once: their own account, an organization they may create repositories in
 * (its owners; its members when it lets them), or any account for a site admin. GitHub asks another user to accept a
 * transfer to their account; hublet has no transfer requests, so that is a site admin's to do.
 */
async function transferTarget(ctx: ServiceContext, actor: Actor, login: string): Promise<UserRow> {
  const target = await findAccount(ctx.db, login);
  if (!target) throw invalid('new_owner', `no user or organization named ${login}`);
  if (actor.user.site_admin) return target;
  if (target.type === 'User') {
    if (target.id === actor.user.id && actor.kind !== 'installation') return target;
    throw invalid(
      'new_owner',
      `${actor.user.login} may transfer repositories to their own account or an organization only (a site admin may transfer to any account)`,
    );
  }
  const role = await membershipRole(ctx.db, target.id, actor.user.id);
  if (role === 'admin' || (role === 'member' && target.members_can_create_repositories)) return target;
  throw invalid('new_owner', `You don't have the permission to create repositories on ${target.login}`);
}

/**
 * Moves `owner/name` to the account `new_owner` (repository admins only), under `new_name` when given. The old address
 * answers with a redirect to the repository from then on; its git data stays where it is (directories are by id).
 */
export async function transferRepository(
  ctx: ServiceContext,
  ownerLogin: string,
  name: string,
  input: { new_owner: string; new_name?: string | null },
): Promise<ResolvedRepository> {
  const actor = requireActor(ctx.actor);
  const { repo, owner, access } = await resolveRepository(ctx, ownerLogin, name, 307);
  if (!atLeast(access, 'admin')) throw new Forbidden('Must have admin rights to Repository.');
  if (await isLocked(ctx.db, repo.id)) throw new Forbidden(LOCKED_MESSAGE);
  const target = await transferTarget(ctx, actor, input.new_owner);
  const newName = input.new_name != null ? repositoryName(input.new_name) : repo.name;
  if (target.id === owner.id) throw invalid('new_owner', `${owner.login}/${repo.name} already belongs to ${owner.login}`);
  const now = ctx.clock.now();
  const moved = await ctx.db
    .transaction()
    .execute(async (trx) => {
      await lockCurrent(trx, ctx, repo);
      if (await isLocked(trx, repo.id)) throw new Forbidden(LOCKED_MESSAGE);
      if (await findRepository(trx, target.id, newName)) throw nameTaken();
      const row = await updateRepository(trx, repo.id, {
        owner_id: target.id,
        name: newName,
        name_lower: newName.toLowerCase(),
        updated_at: now.toISOString(),
      });
      await addRedirect(trx, owner.id, repo.name, repo.id, now);
      const changes = previousOwner(owner, ctx.urls.root);
      await emitRepositoryEvent(trx, ctx, { action: 'transferred', repo: row, owner: target, sender: actor.user, changes }, now);
      const named = repositoryAudit(row, target);
      await ctx.audit.record(trx, ctx, {
        action: 'repo.transfer',
        ...named,
        org: named.org ?? (owner.type === 'Organization' ? owner : null),
        fields: { repo_was: `${owner.login}/${repo.name}`, visibility: row.visibility },
      });
      return row;
    })
    .catch((err: unknown) => {
      // A repository of the same name made in the target at the same moment: the unique index decides.
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    });
  const newAccess = await effectiveAccess(ctx.db, actor, moved, target);
  return { repo: moved, owner: target, access: newAccess, permissions: permissionsFor(newAccess) };
}
