// `hublet admin …`: site administration, one command per file (fsck; user create/delete; token create/revoke; org create/add-member; repo import; migration import).
// Locally it acts as the site admin over the data dir, no server needed; remotely through the admin API.
import type { Command } from 'commander';
import { withExamples } from '../examples.js';
import type { Factory } from '../factory.js';
import { registerFsck } from './fsck.js';
import { registerMigrationImport } from './migration-import.js';
import { registerOrgAddMember } from './org-add-member.js';
import { registerOrgCreate } from './org-create.js';
import { registerRepoImport } from './repo-import.js';
import { registerTokenCreate } from './token-create.js';
import { registerTokenRevoke } from './token-revoke.js';
import { registerUserCreate } from './user-create.js';
import { registerUserDelete } from './user-delete.js';

export function registerAdmin(program: Command, f: Factory): void {
  const admin = withExamples(
    program
      .command('admin')
      .description('site administration: users, tokens, organizations, repository imports, fsck (local mode acts as the site admin over the data dir, no server needed)'),
    [
      '# on the server machine: local mode over its data dir',
      'hublet --data /var/lib/hublet admin user create alice',
      'hublet --data /var/lib/hublet admin token create alice --scopes gist,repo',
      "# from anywhere: remote mode with a site administrator's token",
      'hublet --server https://hublet.example.com --token "$ADMIN_TOKEN" admin org create acme --owner alice',
    ],
  );
  registerFsck(admin, f);

  const user = admin.command('user').description('create and delete users');
  registerUserCreate(user, f);
  registerUserDelete(user, f);

  const token = admin.command('token').description("issue and revoke users' access tokens");
  registerTokenCreate(token, f);
  registerTokenRevoke(token, f);

  const org = admin.command('org').description('create organizations and add their members');
  registerOrgCreate(org, f);
  registerOrgAddMember(org, f);

  const repo = admin.command('repo').description('import existing git repositories as a site admin');
  registerRepoImport(repo, f);

  const migration = admin.command('migration').description('import migration archives as a site admin');
  registerMigrationImport(migration, f);
}
