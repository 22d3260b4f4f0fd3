// What areas contribute to accounts: the directories removed with a deleted account, counts on account profiles, and the
// instance's statistics (GitHub Enterprise's GET /enterprise/stats/*); the repository reads the repositories area
// lends the other areas (webhooks), so each rule stays the repositories area's own; and the audit log every area records
// its changes in (the audit area's).
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { RepositoryRow } from '../db/tables/repos.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Actor } from './grants.js';
import type { Urls } from './urls.js';

/** Lists the directories an area keeps for an account; called inside the deleting transaction, before the rows go. */
export type AccountFiles = (db: Db, config: Readonly<Config>, accountId: number) => Promise<string[]>;

/** The counts on an account's profile (GitHub's user and organization objects). */
export interface ProfileCounts {
  public_repos: number;
  public_gists: number;
  private_gists: number;
  owned_private_repos: number;
  total_private_repos: number;
}

/**
 * An area's counts on accounts' profiles (the fields it owns; the others stay 0), for every account given, by account
 * id, in a number of queries that does not grow with the number of accounts (lists show a profile per row).
 * @param own true when each account reads its own profile (private counts are then real).
 */
export type ProfileCountsOf = (db: Db, accounts: readonly UserRow[], own: boolean) => Promise<Map<number, Partial<ProfileCounts>>>;

/**
 * GitHub Enterprise's statistics of the instance, by section (`repos`, `hooks`, `gists`, `users`, …): each a set of
 * counts. Every section and count GitHub defines is answered; what no area counts is 0.
 */
export type EnterpriseStats = Record<string, Record<string, number>>;

/** An area's sections (or counts within a section) of the instance's statistics, counted now. */
export type EnterpriseStatsOf = (db: Db) => Promise<EnterpriseStats>;

/** Every area's contributions, collected once per app from the areas' declarations. */
export interface AccountContributions {
  readonly files: readonly AccountFiles[];
  readonly profileCounts: readonly ProfileCountsOf[];
  readonly enterpriseStats: readonly EnterpriseStatsOf[];
}

/**
 * What the repositories area lends the areas that may not import it (webhooks): finding a repository, its rule for who
 * administers one, and the repository object webhook payloads embed. Provided by exactly one area.
 */
export interface RepositoryReads {
  /** The repository `name` of `owner` as it is now (names are not case sensitive), or undefined. */
  find(db: Db, owner: UserRow, name: string): Promise<RepositoryRow | undefined>;
  /** Whether `user`'s role on the repository is admin (before any token restriction). */
  isAdmin(db: Db, user: UserRow, repo: RepositoryRow, owner: UserRow): Promise<boolean>;
  /** The repository as webhook payloads embed it (GitHub's `repository` object of `ping`, `meta`, `repository`, …). */
  payloadObject(repo: RepositoryRow, owner: UserRow, urls: Urls): Record<string, unknown>;
}

/** An organization webhook as a migration archive carries it (never with a secret: archives have none). */
export interface ArchivedHook {
  url: string;
  events: string[];
  contentType: 'json' | 'form';
  insecureSsl: boolean;
}

/** What importing an organization's archived webhooks did: created (inactive), already there, left out (with why). */
export interface HookImportResult {
  imported: number;
  existing: number;
  refused: { url: string; reason: string }[];
}

/**
 * What the webhooks area lends the migrations importer (which may not import it): an organization's archived webhooks
 * created inactive, without a secret, by the webhooks area's own rules, in the caller's transaction. Provided by exactly one area.
 */
export interface HookImports {
  importOrgHooks(
    env: { config: Readonly<Config>; secrets: SecretBox; now: Date },
    trx: Db,
    org: UserRow,
    hooks: readonly ArchivedHook[],
  ): Promise<HookImportResult>;
}

/** Who sent a request, as far as the server can tell: its address (request.ip) and its User-Agent header. */
export interface RequestClient {
  ip: string | null;
  userAgent: string | null;
}

/** An account as an audit entry names it (its login as it was then, and its id). */
type AuditAccount = Pick<UserRow, 'id' | 'login'>;

/** One change as the audit log records it: GitHub's action name, the accounts and repository it concerns, its own fields. */
export interface AuditEntry {
  /** GitHub's action name: `hook.create`, `org.add_member`, `repo.rename`, `user.login`, … */
  action: string;
  /** Who did it; left out: the context's caller (null when nobody is signed in). */
  actor?: AuditAccount | null;
  /** The organization it concerns (an organization's hook, member, repository or migration). */
  org?: AuditAccount | null;
  /** The repository it concerns: its id and `owner/name`. */
  repo?: { id: number; name: string } | null;
  /** The user it concerns (the member added, the token's owner, the person who signed in). */
  user?: AuditAccount | null;
  /** The action's own fields in GitHub's names (`hook_id`, `config`, `events_were`, `visibility`…): JSON values, never a secret. */
  fields?: Record<string, unknown>;
}

/** What the audit log reads of the context an entry is recorded in: the caller, where the request came from, the clock. */
export interface AuditSource {
  actor: Actor | null;
  client?: RequestClient | null;
  clock: { now(): Date };
}

/**
 * The audit log, provided by exactly one area (the audit area) and called by every area through the app context:
 * `ctx.audit.record(trx, ctx, entry)` writes the entry in the caller's transaction, so it exists exactly when the change
 * does. Entries form a hash chain (each carries the hash of the one before), so the record takes the chain's head for
 * the rest of the transaction: call it after the transaction's other locks and writes.
 */
export interface AuditLog {
  record(trx: Db, source: AuditSource, entry: AuditEntry): Promise<void>;
}
