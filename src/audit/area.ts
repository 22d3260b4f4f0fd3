// The audit area (issue 29): the audit log every other area records its changes in (lent to them on the app context as
// `ctx.audit`, written in each change's transaction as a hash chain), its API (an organization's log, the site's log,
// the chain's check), and the hourly job that prunes entries past HUBLET_AUDIT_RETENTION_DAYS.
import type { Area } from '../core/area.js';
import { auditLog } from './chain.js';
import { AUDIT_PRUNE_QUEUE, auditPruneHandler, scheduleAuditPrune } from './retention.js';
import { auditRoutes } from './routes.js';

export const auditArea: Area = {
  name: 'audit',
  routes: auditRoutes,
  auditLog,
  setup(ctx) {
    return {
      queues: [{ queue: AUDIT_PRUNE_QUEUE, handler: auditPruneHandler(ctx), concurrency: 1 }],
      onReady: () => scheduleAuditPrune(ctx),
    };
  },
};
