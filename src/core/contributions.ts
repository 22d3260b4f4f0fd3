// What areas contribute to accounts: the directories removed with a deleted account, counts on account profiles, and the
// instance's statistics (GitHub Enterprise's GET /enterprise/stats/*); and the repository reads the repositories area
// lends the other areas (webhooks), so each rule stays the repositories area's own.
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { RepositoryRow } from '../db/tables/repos.js';
import type { SecretBox } from '../secrets/secret-box.js';
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
