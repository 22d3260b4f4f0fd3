// The audit log's queries: one page of entries that match a search (an organization's, or the site's), in either order,
// from a cursor on either side; whether entries lie beyond a page; pruning the oldest; reading the chain in order.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import type { AuditEntryRow } from '../db/tables/audit.js';
import { actionsOf, GIT_CATEGORY } from './actions.js';
import type { Phrase, TextKey, TextTerm } from './phrase.js';

type Eb = ExpressionBuilder<Database, 'audit_entries'>;

/** What a listing keeps: one organization's entries (or the site's), git and/or web events, the phrase, a time floor. */
export interface AuditFilter {
  orgId?: number;
  include: 'web' | 'git' | 'all';
  phrase: Phrase;
  /** Entries from this time on (ISO), when the phrase names no `created:` (GitHub shows three months by default). */
  since?: string;
}

/** A page's place: after and/or before an entry's id, in listing order. */
export interface PageBounds {
  order: 'asc' | 'desc';
  afterId?: number;
  beforeId?: number;
  limit: number;
}

const COLUMN: Record<Exclude<TextKey, 'operation' | 'action'>, 'actor' | 'user_login' | 'org' | 'repo'> = {
  actor: 'actor',
  user: 'user_login',
  org: 'org',
  repo: 'repo',
};

/** A category (`git`) matches its actions (`git.push`): the text before the dot. */
function categoryIs(eb: Eb, category: string): Expression<SqlBool> {
  return eb(sql<string>`substr(action, 1, ${category.length + 1})`, '=', `${category}.`);
}

/** One value of a qualifier, as a condition on the entry (never null: negations of it must see every entry). */
function matches(eb: Eb, key: TextKey, value: string): Expression<SqlBool> {
  if (key === 'action') return value.includes('.') ? eb('action', '=', value) : categoryIs(eb, value);
  if (key === 'operation') return eb('action', 'in', [...(actionsOf(value) ?? [])]);
  const column = COLUMN[key];
  return eb.and([eb(column, 'is not', null), eb(eb.fn<string>('lower', [column]), '=', value)]);
}

function termCondition(eb: Eb, term: TextTerm): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (term.anyOf.length) parts.push(eb.or(term.anyOf.map((v) => matches(eb, term.key, v))));
  for (const v of term.noneOf) parts.push(eb.not(matches(eb, term.key, v)));
  return eb.and(parts);
}

function filterCondition(eb: Eb, f: AuditFilter): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (f.orgId !== undefined) parts.push(eb('org_id', '=', f.orgId));
  if (f.include === 'git') parts.push(categoryIs(eb, GIT_CATEGORY));
  if (f.include === 'web') parts.push(eb.not(categoryIs(eb, GIT_CATEGORY)));
  for (const term of f.phrase.terms) parts.push(termCondition(eb, term));
  for (const range of f.phrase.created) {
    const bounds: Expression<SqlBool>[] = [];
    if (range.from) bounds.push(eb('created_at', '>=', range.from));
    if (range.to) bounds.push(eb('created_at', '<', range.to));
    const within = eb.and(bounds);
    parts.push(range.negated ? eb.not(within) : within);
  }
  if (f.since !== undefined && f.phrase.created.length === 0) parts.push(eb('created_at', '>=', f.since));
  return eb.and(parts);
}

/**
 * One page of matching entries in listing order (`desc`: newest first), after `afterId` and before `beforeId` in that
 * order. A page asked for with `before` alone is the one just before it (read from that side, then turned around).
 */
export async function pageOfEntries(db: Db, f: AuditFilter, b: PageBounds): Promise<AuditEntryRow[]> {
  // In listing order, "after" an id is below it when newest come first.
  const down = b.order === 'desc';
  const fromBefore = b.beforeId !== undefined && b.afterId === undefined;
  const rows = await db
    .selectFrom('audit_entries')
    .selectAll()
    .where((eb) => filterCondition(eb, f))
    .$if(b.afterId !== undefined, (q) => q.where('id', down ? '<' : '>', b.afterId!))
    .$if(b.beforeId !== undefined, (q) => q.where('id', down ? '>' : '<', b.beforeId!))
    .orderBy('id', down !== fromBefore ? 'desc' : 'asc')
    .limit(b.limit)
    .execute();
  return fromBefore ? rows.reverse() : rows;
}

/** Whether a matching entry lies beyond `id` in listing order (`side` after) or before it. */
export async function entryBeyond(db: Db, f: AuditFilter, order: 'asc' | 'desc', id: number, side: 'after' | 'before'): Promise<boolean> {
  const below = (order === 'desc') === (side === 'after');
  const row = await db
    .selectFrom('audit_entries')
    .select('id')
    .where((eb) => filterCondition(eb, f))
    .where('id', below ? '<' : '>', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The entries after `afterId` up to `lastId`, in chain order, at most `limit` (the chain's walk, verify.ts). */
export function entriesInOrder(db: Db, afterId: number, lastId: number, limit: number): Promise<AuditEntryRow[]> {
  return db
    .selectFrom('audit_entries')
    .selectAll()
    .where('id', '>', afterId)
    .where('id', '<=', lastId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The chain's row as it is now (not locked). */
export function readChain(db: Db) {
  return db.selectFrom('audit_chain').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

/** The newest entry older than `before` (its id and hash): retention deletes up to it. */
export function lastEntryBefore(db: Db, before: string): Promise<{ id: number; hash: string } | undefined> {
  return db
    .selectFrom('audit_entries')
    .select(['id', 'hash'])
    .where('created_at', '<', before)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Deletes the entries up to and including `id`; how many went. */
export async function deleteEntriesThrough(db: Db, id: number): Promise<number> {
  const result = await db.deleteFrom('audit_entries').where('id', '<=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
