// Whose hooks a request is about (an organization's, a repository's or the whole site's), who may manage them, and how
// that target is named everywhere else: in queries, the hooks' URLs, their payloads and the delivery headers.
import { requireOrgOwner } from '../accounts/service.js';
import { findAccount } from '../accounts/store.js';
import type { ServiceContext } from '../core/context.js';
import type { UserRow } from '../db/schema.js';
import type { HookRow } from '../db/tables/webhooks.js';
import { NotFound } from '../core/errors.js';
import { requireActor, requireSiteAdmin, type Actor } from '../core/grants.js';
import { hasAnyScope } from '../core/scopes.js';
import { HOOK_EVENT_NAMES } from './event-names.js';
import type { Visibility } from './store.js';

/** The columns that say whose a hook is (the same in `hooks` and `hook_farewells`). */
export type HookTarget = Pick<HookRow, 'scope' | 'org_id' | 'repository_id'>;

/** The hooks of one target as a caller who may manage them sees them. */
export interface HookScope {
  target: HookTarget;
  actor: Actor;
  who: Visibility;
  /** The hooks' collection, relative to the API root: `/orgs/Acme/hooks`, `/repos/o/r/hooks`, `/admin/hooks`. */
  path: string;
  /** The hook object's `type`. */
  type: 'Organization' | 'Repository' | 'Global';
  /** The organization payloads name: an organization hook's, or the owner of an organization's repository. */
  org: UserRow | null;
  /** The repository payloads name (a repository hook's, as the repositories area presents it for webhooks). */
  repository: Record<string, unknown> | null;
  /** The event names a hook of this scope may subscribe to, and those it gets when it names none. */
  eventNames: ReadonlySet<string>;
  defaultEvents: readonly string[];
  /** The row whose lock makes this target's hook writes take turns (none for global hooks: the URL index holds). */
  lock: { table: 'users' | 'repositories'; id: number } | null;
}

/**
 * GitHub Enterprise's global hooks subscribe to these (`user` and `organization` when they name none) and receive them
 * from the whole site; `ping` stays hook-scoped like every hook's.
 */
export const GLOBAL_HOOK_EVENTS: ReadonlySet<string> = new Set([
  'organization',
  'user',
  'repository',
  'team',
  'member',
  'membership',
  'fork',
  'ping',
]);

const who = (actor: Actor): Visibility => ({ appId: actor.kind === 'oauth' ? actor.appId : null });

/** An organization's hooks: its owners only (404 for anyone else). */
export async function organizationScope(ctx: ServiceContext, orgLogin: string): Promise<HookScope> {
  const actor = requireActor(ctx.actor);
  const org = await requireOrgOwner(ctx, orgLogin);
  return {
    target: { scope: 'organization', org_id: org.id, repository_id: null },
    actor,
    who: who(actor),
    path: `/orgs/${org.login}/hooks`,
    type: 'Organization',
    org,
    repository: null,
    eventNames: HOOK_EVENT_NAMES,
    defaultEvents: ['push'],
    lock: { table: 'users', id: org.id },
  };
}

/** What a classic or OAuth token needs for a repository's hooks, per level (`repo` always does; `public_repo` on public ones). */
const HOOK_SCOPE: Record<'read' | 'write' | 'admin', string> = {
  read: 'read:repo_hook',
  write: 'write:repo_hook',
  admin: 'admin:repo_hook',
};

/**
 * A repository's hooks: its admins only (the owner of a user's repository, the owners of an organization's), 404 for
 * anyone else, a private repository included. A classic or OAuth token reaches a private repository's hooks with `repo`
 * or the `*:repo_hook` scope of the operation, a public one's with `public_repo` too (the route checked the scope was
 * among them). Finding the repository and the rule for admins are the repositories area's, lent through the app
 * context (ctx.repositories), as is the repository object its payloads carry.
 */
export async function repositoryScope(
  ctx: ServiceContext,
  ownerLogin: string,
  name: string,
  level: 'read' | 'write' | 'admin',
): Promise<HookScope> {
  const actor = requireActor(ctx.actor);
  const owner = await findAccount(ctx.db, ownerLogin);
  const repo = owner && (await ctx.repositories.find(ctx.db, owner, name));
  if (!owner || !repo) throw new NotFound();
  if (!(await ctx.repositories.isAdmin(ctx.db, actor.user, repo, owner))) throw new NotFound();
  if (
    (actor.kind === 'classic' || actor.kind === 'oauth') &&
    repo.visibility !== 'public' &&
    !hasAnyScope(actor.scopes, ['repo', HOOK_SCOPE[level]])
  )
    throw new NotFound();
  return {
    target: { scope: 'repository', org_id: null, repository_id: repo.id },
    actor,
    who: who(actor),
    path: `/repos/${owner.login}/${repo.name}/hooks`,
    type: 'Repository',
    org: owner.type === 'Organization' ? owner : null,
    repository: ctx.repositories.payloadObject(repo, owner, ctx.urls.root),
    eventNames: HOOK_EVENT_NAMES,
    defaultEvents: ['push'],
    lock: { table: 'repositories', id: repo.id },
  };
}

/** The site's global hooks: site admins only (404 for anyone else, 403 for a token without `site_admin`). */
export function globalScope(ctx: ServiceContext): HookScope {
  const actor = requireSiteAdmin(ctx.actor);
  return {
    target: { scope: 'global', org_id: null, repository_id: null },
    actor,
    who: who(actor),
    path: '/admin/hooks',
    type: 'Global',
    org: null,
    repository: null,
    eventNames: GLOBAL_HOOK_EVENTS,
    defaultEvents: ['user', 'organization'],
    lock: null,
  };
}

/** The id GitHub Enterprise's single enterprise (its "business") has: the target of every global hook. */
const SITE_TARGET_ID = 1;

/**
 * What a delivery's `X-Service-Hook-Installation-Target-Type` and `-ID` name: the repository or organization whose hook
 * it is, or, for a global hook, the site as GitHub names an enterprise (`business`).
 */
export function installationTarget(hook: HookTarget): { type: string; id: number } {
  if (hook.scope === 'repository') return { type: 'repository', id: hook.repository_id ?? 0 };
  if (hook.scope === 'organization') return { type: 'organization', id: hook.org_id ?? 0 };
  return { type: 'business', id: SITE_TARGET_ID };
}
