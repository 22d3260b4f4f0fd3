// Reading the audit log: an organization's (its owners) and the site's (site admins, at the enterprise's slug), searched
// with GitHub's phrase, `include` (web, git or all events) and `order`, one page at a time from a cursor (`after`,
// `before`: opaque, as GitHub's Link header hands them out); and checking its hash chain (site admins).
import { requireOrgOwner } from '../accounts/service.js';
import type { ServiceContext } from '../core/context.js';
import { BadRequest, NotFound, ValidationFailed } from '../core/errors.js';
import { requireActor } from '../core/grants.js';
import type { UserRow } from '../db/schema.js';
import type { AuditEntryRow } from '../db/tables/audit.js';
import { parsePhrase } from './phrase.js';
import { entryBeyond, pageOfEntries, type AuditFilter } from './store.js';
import { verifyChain, type ChainVerdict } from './verify.js';

/** A search as the API and the pages take it (each value as given; checked here). */
export interface AuditQuery {
  phrase?: string;
  include?: string;
  order?: string;
  after?: string;
  before?: string;
  perPage: number;
}

/** One page: its entries in listing order, and the cursors of the pages on either side (when there are entries there). */
export interface AuditPage {
  rows: AuditEntryRow[];
  /** The cursor of the next page (`after=`), or undefined at the end. */
  next?: string;
  /** The cursor of the page before (`before=`), or undefined at the start. */
  prev?: string;
}

/** GitHub shows the last three months unless the phrase names a `created:` range. */
const DEFAULT_MONTHS = 3;

/** A cursor names the entry a page ends at: opaque to clients (base64url of `v1:<id>`). */
function encodeCursor(id: number): string {
  return Buffer.from(`v1:${id}`).toString('base64url');
}

function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const m = /^v1:([1-9]\d{0,9})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!m || Number(m[1]) > 2_147_483_647 || encodeCursor(Number(m[1])) !== cursor) throw new BadRequest('Invalid cursor');
  return Number(m[1]);
}

function oneOf<T extends string>(field: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ValidationFailed([{ resource: 'AuditLog', field, code: 'invalid', message: `${field} must be one of ${allowed.join(', ')}` }]);
}

function monthsBefore(now: Date, months: number): string {
  const d = new Date(now.getTime());
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString();
}

/** One page of the entries `query` asks for among those `orgId` (or the whole site) has. */
async function searchLog(ctx: ServiceContext, orgId: number | undefined, query: AuditQuery): Promise<AuditPage> {
  const filter: AuditFilter = {
    orgId,
    include: oneOf('include', query.include, ['web', 'git', 'all'], 'web'),
    phrase: parsePhrase(query.phrase),
    since: monthsBefore(ctx.clock.now(), DEFAULT_MONTHS),
  };
  const order = oneOf('order', query.order, ['desc', 'asc'], 'desc');
  const afterId = decodeCursor(query.after);
  const beforeId = decodeCursor(query.before);
  const rows = await pageOfEntries(ctx.db, filter, { order, afterId, beforeId, limit: query.perPage });
  if (rows.length === 0) return { rows };
  const first = rows[0].id;
  const last = rows[rows.length - 1].id;
  const [more, earlier] = await Promise.all([
    entryBeyond(ctx.db, filter, order, last, 'after'),
    entryBeyond(ctx.db, filter, order, first, 'before'),
  ]);
  return { rows, next: more ? encodeCursor(last) : undefined, prev: earlier ? encodeCursor(first) : undefined };
}

/** An organization's audit log, for its owners (anyone else: 404). */
export async function organizationAuditLog(
  ctx: ServiceContext,
  orgLogin: string,
  query: AuditQuery,
): Promise<AuditPage & { org: UserRow }> {
  const org = await requireOrgOwner(ctx, orgLogin);
  return { ...(await searchLog(ctx, org.id, query)), org };
}

/** The enterprise's slug as configured, when `slug` names it (not case sensitive); 404 for any other. */
function requireEnterprise(ctx: ServiceContext, slug: string): void {
  if (slug.toLowerCase() !== ctx.config.enterprise) throw new NotFound();
}

/**
 * A site admin (anyone else: 404). Which scopes a token needs is the route's grant (`site_admin`, `admin:enterprise` or
 * `read:audit_log`), not SITE_ADMIN's `site_admin` alone.
 */
function requireSiteAdminUser(ctx: ServiceContext): void {
  if (!requireActor(ctx.actor).user.site_admin) throw new NotFound();
}

/** The site's whole audit log, at the enterprise's slug, for site admins (anyone else: 404). */
export async function enterpriseAuditLog(ctx: ServiceContext, slug: string, query: AuditQuery): Promise<AuditPage> {
  requireSiteAdminUser(ctx);
  requireEnterprise(ctx, slug);
  return searchLog(ctx, undefined, query);
}

/** Recomputes the hash chain (site admins): intact, or the first changed entry, or the entries around a removal. */
export async function verifyAuditLog(ctx: ServiceContext): Promise<ChainVerdict> {
  requireSiteAdminUser(ctx);
  return verifyChain(ctx.db);
}
