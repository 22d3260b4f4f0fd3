// The audit log's API: GET /orgs/{org}/audit-log (the organization's owners: `admin:org` or `read:audit_log`, the
// Administration permission at read), GET /enterprises/{enterprise}/audit-log (site admins: `site_admin`,
// `admin:enterprise` or `read:audit_log`), both as GitHub's (phrase, include, order, per_page, `after`/`before` cursors
// in the Link header); and hublet's own GET /admin/audit-log/verification, the hash chain checked (site admins).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Grant } from '../core/grants.js';
import { parsePaging, requestUrlWith } from '../http/pagination.js';
import { orgParams, pathParams } from '../http/route-params.js';
import { typed } from '../http/typed.js';
import { auditEvent } from './present.js';
import { enterpriseAuditLog, organizationAuditLog, verifyAuditLog, type AuditPage, type AuditQuery } from './service.js';

/** GitHub: organization owners; classic and OAuth tokens with `read:audit_log` (`admin:org` too, as it includes org reads). */
const ORG_AUDIT: Grant = {
  scopes: ['admin:org', 'read:audit_log'],
  fineGrained: { permission: 'organization_administration', level: 'read' },
  apps: true,
};

/** Site admins only (anyone else: 404); their classic or OAuth token needs one of these scopes (403 naming them). */
const ENTERPRISE_AUDIT: Grant = {
  scopes: ['site_admin', 'admin:enterprise', 'read:audit_log'],
  fineGrained: null,
  missingScope: 403,
  siteAdmin: true,
};

const VERIFY: Grant = { scopes: ['site_admin', 'admin:enterprise'], fineGrained: null, missingScope: 403, siteAdmin: true };

const text = { type: 'string' } as const;
const auditQuery = {
  type: 'object',
  properties: { phrase: text, include: text, order: text, after: text, before: text, per_page: text, page: text },
} as const;

type Query = { phrase?: string; include?: string; order?: string; after?: string; before?: string };

function queryOf(request: FastifyRequest): AuditQuery {
  const q = request.query as Query;
  return {
    phrase: q.phrase,
    include: q.include,
    order: q.order,
    after: q.after,
    before: q.before,
    perPage: parsePaging(request.query).perPage,
  };
}

/** GitHub's Link header of a cursor list: next (`after`), prev (`before`), and first once past it. */
function setCursorLinks(request: FastifyRequest, reply: FastifyReply, page: AuditPage, perPage: number): void {
  const q = request.query as Query;
  const link = (params: Record<string, string>, rel: string) =>
    `<${requestUrlWith(request, { per_page: String(perPage), ...params })}>; rel="${rel}"`;
  const links: string[] = [];
  if (page.next) links.push(link({ after: page.next, before: '' }, 'next'));
  if (page.prev) links.push(link({ after: '', before: page.prev }, 'prev'));
  if (q.after || q.before) links.push(link({ after: '', before: '' }, 'first'));
  if (links.length) reply.header('link', links.join(', '));
}

export async function auditRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  app.get(
    '/orgs/:org/audit-log',
    { schema: { params: orgParams, querystring: auditQuery }, config: { grant: ORG_AUDIT } },
    async (request, reply) => {
      const query = queryOf(request);
      const page = await organizationAuditLog(request.ctx, request.params.org, query);
      setCursorLinks(request, reply, page, query.perPage);
      return page.rows.map((row) => auditEvent(row, request.ctx.config.enterprise));
    },
  );

  app.get(
    '/enterprises/:enterprise/audit-log',
    { schema: { params: pathParams('enterprise'), querystring: auditQuery }, config: { grant: ENTERPRISE_AUDIT } },
    async (request, reply) => {
      const query = queryOf(request);
      const page = await enterpriseAuditLog(request.ctx, request.params.enterprise, query);
      setCursorLinks(request, reply, page, query.perPage);
      return page.rows.map((row) => auditEvent(row, request.ctx.config.enterprise));
    },
  );

  app.get('/admin/audit-log/verification', { config: { grant: VERIFY } }, async (request) => {
    const verdict = await verifyAuditLog(request.ctx);
    return {
      intact: verdict.intact,
      entries: verdict.entries,
      ...(verdict.changed !== undefined ? { changed: verdict.changed } : {}),
      ...(verdict.removed ? { removed: verdict.removed } : {}),
    };
  });
}
