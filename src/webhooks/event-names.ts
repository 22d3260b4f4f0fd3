// The event names a webhook may subscribe to: GitHub's webhook events (`*` subscribes to all of them).

export const HOOK_EVENT_NAMES: ReadonlySet<string> = new Set([
  'branch_protection_configuration', 'branch_protection_rule', 'check_run', 'check_suite', 'code_scanning_alert', 'commit_comment',
  'create', 'custom_property', 'custom_property_values', 'delete', 'dependabot_alert', 'deploy_key', 'deployment',
  'deployment_protection_rule', 'deployment_review', 'deployment_status', 'discussion', 'discussion_comment', 'fork',
  'github_app_authorization', 'gollum', 'installation', 'installation_repositories', 'installation_target', 'issue_comment',
  'issue_dependencies', 'issues', 'label', 'marketplace_purchase', 'member', 'membership', 'merge_group', 'meta', 'milestone',
  'org_block', 'organization', 'package', 'page_build', 'personal_access_token_request', 'ping', 'project', 'project_card',
  'project_column', 'projects_v2', 'projects_v2_item', 'projects_v2_status_update', 'public', 'pull_request',
  'pull_request_review', 'pull_request_review_comment', 'pull_request_review_thread', 'push', 'registry_package', 'release',
  'repository', 'repository_advisory', 'repository_dispatch', 'repository_import', 'repository_ruleset',
  'repository_vulnerability_alert', 'secret_scanning_alert', 'secret_scanning_alert_location', 'secret_scanning_scan',
  'security_advisory', 'security_and_analysis', 'sponsorship', 'star', 'status', 'sub_issues', 'team', 'team_add', 'watch',
  'workflow_dispatch', 'workflow_job', 'workflow_run',
]);

export const ALL_EVENTS = '*';

/** Events that go only to the hook they are about, whatever its subscriptions. */
export const HOOK_SCOPED_EVENTS: ReadonlySet<string> = new Set(['ping', 'meta']);

/** Whether a hook subscribed to `events` receives `name`. */
export function subscribes(events: readonly string[], name: string): boolean {
  return events.includes(name) || events.includes(ALL_EVENTS);
}
