// The audit log page of an organization's owners (GET /organizations/<org>/settings/audit-log?q=…&after=…&before=…):
// read through the audit service with the viewer's own authority, as GET /orgs/{org}/audit-log reads it; an anonymous
// visitor is sent to sign in, anyone who does not own the organization gets the not-found page, and a phrase or cursor
// the log refuses is shown above the form.
import type { FastifyInstance } from 'fastify';
import { auditEvent } from '../../audit/present.js';
import { organizationAuditLog, type AuditPage } from '../../audit/service.js';
import { requireOrgOwner } from '../../accounts/service.js';
import { HttpError } from '../../core/errors.js';
import { pathParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import type { AuditEntryRow } from '../../db/tables/audit.js';
import { htmlPage, queryValue, send, wantsHtml, webConfig as config } from '../serve.js';
import { organizationSettingsNav } from '../settings/settings-layout.js';
import { asViewer } from '../viewer.js';
import { auditLogPage, type ShownEntry } from './audit-log-page.js';

const PAGE_SIZE = 30;
const auditQuery = { type: 'object', properties: { q: queryValue, after: queryValue, before: queryValue } } as const;

/** The last of a repeated query value, or the one given. */
const last = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.at(-1) : v);

/** What every entry shows in columns of their own; the rest of the event is the action's own fields. */
const COLUMNS = new Set([
  '@timestamp',
  'created_at',
  '_document_id',
  'action',
  'operation_type',
  'actor',
  'actor_id',
  'actor_ip',
  'user_agent',
]);
const NAMED = new Set(['org', 'org_id', 'repo', 'repo_id', 'user', 'user_id', 'business']);

function shown(row: AuditEntryRow, enterprise: string): ShownEntry {
  const event = auditEvent(row, enterprise);
  const fields = Object.entries(event)
    .filter(([k]) => !COLUMNS.has(k) && !NAMED.has(k))
    .map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
  return {
    documentId: row.document_id,
    at: row.created_at,
    action: row.action,
    actor: row.actor,
    actorIp: row.actor_ip,
    org: row.org,
    repo: row.repo,
    user: row.user_login,
    fields,
  };
}

export function auditLogPageRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);
  app.get(
    '/organizations/:org/settings/audit-log',
    { schema: { params: pathParams('org'), querystring: auditQuery }, config },
    async (request, reply) =>
      asViewer(request, reply, async (ctx) => {
        // Owners only, before the search is read: anyone else learns nothing from a refused phrase.
        const org = await requireOrgOwner(ctx, request.params.org);
        const phrase = last(request.query.q) ?? '';
        let page: AuditPage = { rows: [] };
        let error: string | undefined;
        try {
          page = await organizationAuditLog(ctx, org.login, {
            phrase,
            after: last(request.query.after),
            before: last(request.query.before),
            perPage: PAGE_SIZE,
          });
        } catch (err) {
          // A person reads what is wrong above the form; any other client gets the API's answer.
          if (!(err instanceof HttpError) || err.status === 404 || err.status >= 500 || !wantsHtml(request)) throw err;
          error = err.message === 'Validation Failed' ? validationMessage(err) : err.message;
        }
        const path = `/organizations/${encodeURIComponent(org.login)}/settings/audit-log`;
        const markup = auditLogPage({
          base: ctx.urls.base,
          org,
          path,
          nav: organizationSettingsNav(org.login),
          phrase,
          entries: page.rows.map((r) => shown(r, ctx.config.enterprise)),
          newer: page.prev,
          older: page.next,
          error,
        });
        return send(reply, htmlPage(markup, error ? 422 : 200));
      }),
  );
}

/** The first problem's message of a 422 (a phrase the log cannot read says why). */
function validationMessage(err: HttpError): string {
  const errors = (err.extra as { errors?: { message?: string }[] }).errors;
  return errors?.[0]?.message ?? err.message;
}
