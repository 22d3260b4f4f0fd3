// The schema migrations, imported here one by one so the bundle carries them (no folder reads), and their provider.
import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './2026-11-22T00-00-accounts.js';
import * as events from './2026-11-22T00-30-events.js';
import * as gists from './2026-11-22T01-00-gists.js';
import * as repos from './2026-11-22T01-10-repos.js';
import * as hooks from './2026-11-22T01-20-hooks.js';
import * as migrationExports from './2026-11-22T01-30-migrations.js';
import * as hookSecrets from './2026-11-23T00-00-hook-secrets.js';
import * as suspendedUsers from './2026-11-24T00-00-suspended-users.js';
import * as hookScopes from './2026-11-25T00-00-hook-scopes.js';
import * as gistImports from './2026-11-25T02-00-gist-imports.js';
import * as rateLimits from './2026-11-25T03-00-rate-limits.js';
import * as passwords from './2026-11-28T00-00-passwords.js';
import * as signIn from './2026-11-28T01-00-sign-in.js';
import * as gistSearch from './2026-11-28T02-00-gist-search.js';
import * as avatars from './2026-11-28T02-10-avatars.js';
import * as auditLog from './2026-11-29T00-00-audit-log.js';
import * as eventTraceContext from './2026-11-29T01-00-event-trace-context.js';
import * as repositoryForks from './2026-11-29T03-00-repository-forks.js';
import * as hookSigning from './2026-11-29T03-10-hook-signing.js';

export const schemaMigrations: Record<string, Migration> = {
  '2026-11-22T00-00-accounts': accounts,
  '2026-11-22T00-30-events': events,
  '2026-11-22T01-00-gists': gists,
  '2026-11-22T01-10-repos': repos,
  '2026-11-22T01-20-hooks': hooks,
  '2026-11-22T01-30-migrations': migrationExports,
  '2026-11-23T00-00-hook-secrets': hookSecrets,
  '2026-11-24T00-00-suspended-users': suspendedUsers,
  '2026-11-25T00-00-hook-scopes': hookScopes,
  '2026-11-25T02-00-gist-imports': gistImports,
  '2026-11-25T03-00-rate-limits': rateLimits,
  '2026-11-28T00-00-passwords': passwords,
  '2026-11-28T01-00-sign-in': signIn,
  '2026-11-28T02-00-gist-search': gistSearch,
  '2026-11-28T02-10-avatars': avatars,
  '2026-11-29T00-00-audit-log': auditLog,
  '2026-11-29T01-00-event-trace-context': eventTraceContext,
  '2026-11-29T03-00-repository-forks': repositoryForks,
  '2026-11-29T03-10-hook-signing': hookSigning,
};

export const schemaMigrationProvider: MigrationProvider = {
  async getMigrations() {
    return schemaMigrations;
  },
};
