// `hublet admin …`: site administration, one command per file (fsck; backup and restore; user create/delete/set-password; token
// create/revoke; invite create; app create; org create/add-member; repo import; migration import; audit verify/export).
// Locally it acts as the site admin over the data dir, no server needed; remotely through the admin API.
import type { Command } from 'commander';
import { withExamples } from '../examples.js';
import type { Factory } from '../factory.js';
import { registerAppCreate } from './app-create.js';
import { registerAuditExport } from './audit-export.js';
import { registerAuditVerify } from './audit-verify.js';
import { registerBackup } from './backup.js';
import { registerFsck } from './fsck.js';
import { registerInviteCreate } from './invite-create.js';
import { registerMigrationImport } from './migration-import.js';
import { registerOrgAddMember } from './org-add-member.js';
import { registerOrgCreate } from './org-create.js';
import { registerRepoImport } from './repo-import.js';
import { registerRestore } from './restore.js';
import { registerTokenCreate } from './token-create.js';
import { registerTokenRevoke } from './token-revoke.js';
import { registerUserCreate } from './user-create.js';
import { registerUserDelete } from './user-delete.js';
import { registerUserSetPassword } from './user-set-password.js';

export function registerAdmin(program: Command, f: Factory): void {
  const admin = withExamples(
    program
      .command('admin')
      .description(
        'site administration: users, tokens, organizations, repository imports, fsck, backup and restore (local mode acts as the site admin over the data dir, no server needed)',
      ),
    [
      '# on the server machine: local mode over its data dir',
      'hublet --data /var/lib/hublet admin user create alice',
      'hublet --data /var/lib/hublet admin token create alice --scopes gist,repo',
      "# from anywhere: remote mode with a site administrator's token",
      'hublet --server https://hublet.example.com --token "$ADMIN_TOKEN" admin org create acme --owner alice',
    ],
  );
  registerFsck(admin, f);
  registerBackup(admin, f);
  registerRestore(admin, f);
  const groups: [string, string, ((parent: Command, f: Factory) => void)[]][] = [
    ['user', "create and delete users, set a user's password", [registerUserCreate, registerUserDelete, registerUserSetPassword]],
    ['token', "issue and revoke users' access tokens", [registerTokenCreate, registerTokenRevoke]],
    ['org', 'create organizations and add their members', [registerOrgCreate, registerOrgAddMember]],
    ['invite', 'make sign-up invitations (HUBLET_SIGNUP=invite)', [registerInviteCreate]],
    ['app', 'register OAuth apps (client id and secret)', [registerAppCreate]],
    ['repo', 'import existing git repositories as a site admin', [registerRepoImport]],
    ['migration', 'import migration archives as a site admin', [registerMigrationImport]],
    ['audit', "check the audit log's hash chain, export the site-wide log as JSON lines", [registerAuditVerify, registerAuditExport]],
  ];
  for (const [name, description, commands] of groups) {
    const group = admin.command(name).description(description);
    for (const register of commands) register(group, f);
  }
}
