// An audit log entry as GitHub's audit log API shows it (`audit-log-event`): `@timestamp` and `created_at` in
// milliseconds since the epoch, `_document_id`, `action`, `operation_type`, who did it (`actor`, `actor_id`, and
// `actor_ip` and `user_agent` when known), what it concerns (`org`, `repo`, `user` with their ids), then the action's own
// fields; what an entry does not have is left out, as GitHub leaves it out.
import type { AuditEntryRow } from '../db/tables/audit.js';
import { operationOf } from './actions.js';

/** The entry's JSON; `business` (the enterprise's slug) on the site's own actions (`business.*`). */
export function auditEvent(row: AuditEntryRow, enterprise: string): Record<string, unknown> {
  const ms = Date.parse(row.created_at);
  const out: Record<string, unknown> = {};
  const base: [string, unknown][] = [
    ['@timestamp', ms],
    ['created_at', ms],
    ['_document_id', row.document_id],
    ['action', row.action],
    ['operation_type', operationOf(row.action)],
    ['actor', row.actor],
    ['actor_id', row.actor_id],
    ['actor_ip', row.actor_ip],
    ['user_agent', row.user_agent],
    ['business', row.action.startsWith('business.') ? enterprise : null],
    ['org', row.org],
    ['org_id', row.org_id],
    ['repo', row.repo],
    ['repo_id', row.repo_id],
    ['user', row.user_login],
    ['user_id', row.user_id],
  ];
  for (const [key, value] of base) if (value !== null && value !== undefined) out[key] = value;
  // The action's own fields never stand in for the ones above (an own field of the same name is left out).
  for (const [key, value] of Object.entries(JSON.parse(row.data) as Record<string, unknown>)) {
    if (!base.some(([k]) => k === key)) out[key] = value;
  }
  return out;
}
