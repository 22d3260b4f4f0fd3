// Table types of the audit log (migration 2026-11-29T00-00-audit-log.ts): its entries, a hash chain, and the chain's one
// row saying where its head is and where pruning left it.
import type { Selectable } from 'kysely';

interface AuditEntriesTable {
  /** The entry's place in the chain: one after the head it was recorded on. */
  id: number;
  /** GitHub's `_document_id`: 22 random base64url characters. */
  document_id: string;
  created_at: string;
  action: string;
  actor_id: number | null;
  actor: string | null;
  actor_ip: string | null;
  user_agent: string | null;
  org_id: number | null;
  org: string | null;
  repo_id: number | null;
  /** `owner/name`. */
  repo: string | null;
  user_id: number | null;
  user_login: string | null;
  /** The action's own fields: a JSON object. */
  data: string;
  /** The hash of the entry before (`audit_chain.pruned_hash` for the first one left). */
  prev_hash: string;
  /** SHA-256 (hex) of the canonical JSON of every other column (audit/chain.ts). */
  hash: string;
}

interface AuditChainTable {
  /** Always 1. */
  id: number;
  head_id: number;
  head_hash: string;
  /** The last entry retention pruned (0 before any) and its hash: the first entry left follows it. */
  pruned_id: number;
  pruned_hash: string;
}

export interface AuditTables {
  audit_entries: AuditEntriesTable;
  audit_chain: AuditChainTable;
}

export type AuditEntryRow = Selectable<AuditEntriesTable>;
export type AuditChainRow = Selectable<AuditChainTable>;
