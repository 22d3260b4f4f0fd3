// `hublet admin …`: site administration, one command per file (fsck; user create/delete; token create/revoke; org create/add-member; repo import).
// Locally it acts as the site admin over the data dir, no server needed; remotely through the admin API.
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { registerFsck } from './fsck.js';
import { registerOrgAddMember } from './org-add-member.js';
import { registerOrgCreate } from './org-create.js';
import { registerRepoImport } from './repo-import.js';
import { registerTokenCreate } from './token-create.js';
import { registerTokenRevoke } from './token-revoke.js';
import { registerUserCreate } from './user-create.js';
import { registerUserDelete } from './user-delete.js';

export function registerAdmin(program: Command, f: Factory): void {
  const admin = program.command('admin').description('site administration (users, tokens, organizations)');
  registerFsck(admin, f);

  const user = admin.command('user').description('manage users');
  registerUserCreate(user, f);
  registerUserDelete(user, f);

  const token = admin.command('token').description('manage access tokens');
  registerTokenCreate(token, f);
  registerTokenRevoke(token, f);

  const org = admin.command('org').description('manage organizations');
  registerOrgCreate(org, f);
  registerOrgAddMember(org, f);

  const repo = admin.command('repo').description('manage repositories as a site admin');
  registerRepoImport(repo, f);
}
