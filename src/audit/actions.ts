// The actions hublet records, by GitHub's operation type (`operation_type` on each entry, and the `operation:` qualifier),
// and which of them are git events (`include=git`) rather than web ones (`include=web`, the default).

type Operation = 'access' | 'authentication' | 'create' | 'modify' | 'remove' | 'transfer';

const OPERATIONS: Record<Operation, readonly string[]> = {
  create: [
    'hook.create',
    'org.create',
    'org.add_member',
    'org.invite_member',
    'repo.create',
    'migration.create',
    'personal_access_token.create',
    'oauth_authorization.create',
    'oauth_access.create',
    'user.create',
    'business.create_user',
    'business.create_invitation',
    'business.create_oauth_app',
  ],
  modify: [
    'hook.config_changed',
    'hook.events_changed',
    'hook.active_changed',
    'org.update_member',
    'org.rename',
    'repo.rename',
    'repo.access',
    'repo.archived',
    'repo.unarchived',
    'repo.unlock',
    'git.push',
    'business.rename_user',
    'business.set_user_password',
    'business.promote_site_admin',
    'business.demote_site_admin',
    'business.suspend_user',
    'business.unsuspend_user',
  ],
  remove: [
    'hook.destroy',
    'org.remove_member',
    'org.destroy',
    'repo.destroy',
    'migration.destroy_file',
    'personal_access_token.destroy',
    'oauth_authorization.destroy',
    'oauth_access.destroy',
    'business.destroy_user',
  ],
  access: ['migration.download'],
  authentication: ['user.login', 'user.failed_login', 'user.logout'],
  transfer: ['repo.transfer'],
};

const OPERATION_OF = new Map<string, Operation>(
  (Object.entries(OPERATIONS) as [Operation, readonly string[]][]).flatMap(([op, actions]) => actions.map((a) => [a, op] as const)),
);

/** GitHub's operation type of an action (undefined for one hublet does not class). */
export function operationOf(action: string): Operation | undefined {
  return OPERATION_OF.get(action);
}

/** The actions of an operation type, or undefined when it is none of GitHub's. */
export function actionsOf(operation: string): readonly string[] | undefined {
  return Object.hasOwn(OPERATIONS, operation) ? OPERATIONS[operation as Operation] : undefined;
}

/** Git events (`git.push`) are the `git` category; everything else is `web`. */
export const GIT_CATEGORY = 'git';
