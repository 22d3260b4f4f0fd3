// Table types for Kysely. Booleans are stored as 0/1 integers and timestamps as ISO-8601 UTC text on both databases.
import type { Generated, Kysely, Selectable } from 'kysely';
import type { EventTables } from './tables/events.js';
import type { HookTables } from './tables/webhooks.js';
import type { RepoTables } from './tables/repos.js';
import type { GistTables } from './tables/gists.js';
import type { MigrationTables } from './tables/migrations.js';
import type { SignInTables } from './tables/sign-in.js';
import type { ProfileTables } from './tables/profiles.js';
import type { AuditTables } from './tables/audit.js';

interface UsersTable {
  id: Generated<number>;
  login: string;
  login_lower: string;
  type: 'User' | 'Organization';
  name: string | null;
  email: string | null;
  company: string | null;
  blog: string | null;
  location: string | null;
  bio: string | null;
  site_admin: Generated<number>;
  members_can_create_repositories: Generated<number>;
  created_at: string;
  updated_at: string;
  /** When a site admin suspended the user (their tokens and git access are refused); null when not suspended. */
  suspended_at: string | null;
}

interface MembershipsTable {
  org_id: number;
  user_id: number;
  role: 'admin' | 'member';
  created_at: string;
}

interface TokensTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  token_hash: string;
  token_last_eight: string;
  scopes: Generated<string>;
  permissions: Generated<string>;
  app_id: number | null;
  note: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** A user's password: its scrypt hash only (accounts/passwords.ts), apart from `users` so no read of a user carries it. */
interface UserPasswordsTable {
  user_id: number;
  hash: string;
  updated_at: string;
}

interface JobsTable {
  id: Generated<number>;
  queue: string;
  payload: string;
  state: Generated<'pending' | 'done' | 'failed'>;
  run_at: string;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** The foundation's tables. Each area's are declared in `src/db/tables/<area>.ts` and added to `Database` below. */
interface CoreTables {
  users: UsersTable;
  memberships: MembershipsTable;
  tokens: TokensTable;
  user_passwords: UserPasswordsTable;
  jobs: JobsTable;
}

/** Every table: add an area's `XTables` interface to the extends list (one line per area). */
export interface Database
  extends CoreTables,
    EventTables,
    RepoTables,
    HookTables,
    GistTables,
    MigrationTables,
    SignInTables,
    ProfileTables,
    AuditTables {}

/** An open database (connect.ts) or a transaction on one. */
export type Db = Kysely<Database>;

export type UserRow = Selectable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type JobRow = Selectable<JobsTable>;
