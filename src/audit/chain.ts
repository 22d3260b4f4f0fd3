// The audit log's hash chain: each entry carries the SHA-256 of the entry before it and its own, computed over the
// canonical JSON of its stored columns (keys sorted, no spaces) with that previous hash among them. Recording takes the
// chain's one row (`audit_chain`) for the rest of the caller's transaction (PostgreSQL `FOR UPDATE`; SQLite's single
// writer already runs one transaction at a time), so entries are appended one after another, each id one past the head.
import crypto from 'node:crypto';
import type { AuditEntry, AuditLog, AuditSource } from '../core/contributions.js';
import type { Db } from '../db/connect.js';
import { lockForWriting } from '../db/dialect.js';
import type { AuditChainRow, AuditEntryRow } from '../db/tables/audit.js';

/** The columns an entry's hash covers: all of them but the hash itself. */
export type HashedColumns = Omit<AuditEntryRow, 'hash'>;

/** Longest User-Agent kept (a header can be kilobytes; what identifies a client is at its start). */
const MAX_USER_AGENT = 512;
const MAX_ADDRESS = 64;

/** JSON with every object's keys in sorted order and no whitespace: one text for one value, whoever writes it. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** An entry's hash: SHA-256 (hex) of the canonical JSON of its stored columns, the previous entry's hash among them. */
export function entryHash(columns: HashedColumns): string {
  return crypto.hash('sha256', canonicalJson(columns), 'hex');
}

/** The chain's row (where its head is, where pruning left it), locked for writing until `trx` ends. */
export function lockChain(trx: Db): Promise<AuditChainRow> {
  return lockForWriting(trx, trx.selectFrom('audit_chain').selectAll().where('id', '=', 1)).executeTakeFirstOrThrow();
}

function clip(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined || value === '') return null;
  return value.length > max ? value.slice(0, max) : value;
}

/** A new `_document_id`: 22 base64url characters (128 random bits), as GitHub's look. */
function newDocumentId(): string {
  return crypto.randomBytes(16).toString('base64url');
}

/**
 * Appends an entry to the chain in the caller's transaction: the head locked, the entry written one past it with the
 * head's hash as its previous hash, the head moved to it. Its time is read once the head is held, so times follow ids.
 */
async function record(trx: Db, source: AuditSource, entry: AuditEntry): Promise<void> {
  const head = await lockChain(trx);
  const actor = entry.actor === undefined ? (source.actor?.user ?? null) : entry.actor;
  const columns: HashedColumns = {
    id: head.head_id + 1,
    document_id: newDocumentId(),
    created_at: source.clock.now().toISOString(),
    action: entry.action,
    actor_id: actor?.id ?? null,
    actor: actor?.login ?? null,
    actor_ip: clip(source.client?.ip, MAX_ADDRESS),
    user_agent: clip(source.client?.userAgent, MAX_USER_AGENT),
    org_id: entry.org?.id ?? null,
    org: entry.org?.login ?? null,
    repo_id: entry.repo?.id ?? null,
    repo: entry.repo?.name ?? null,
    user_id: entry.user?.id ?? null,
    user_login: entry.user?.login ?? null,
    data: JSON.stringify(entry.fields ?? {}),
    prev_hash: head.head_hash,
  };
  const hash = entryHash(columns);
  await trx
    .insertInto('audit_entries')
    .values({ ...columns, hash })
    .execute();
  await trx.updateTable('audit_chain').set({ head_id: columns.id, head_hash: hash }).where('id', '=', 1).execute();
}

/** The audit log the app's context carries (`ctx.audit`): lent to every area by the audit area. */
export const auditLog: AuditLog = { record };
