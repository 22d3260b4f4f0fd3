// `hublet admin …`: users, tokens and organizations, through the admin API (locally: as the site admin, no server needed).
import { Command, Option } from 'commander';
import { expectOk, printJson } from '../output.js';
import { registerAdminFsck } from './admin-fsck.js';
import { commaList as csv, positiveInteger } from './option-values.js';
import { withClient } from './with-client.js';

/** `gists=write,organization_hooks=read` → `{gists: 'write', organization_hooks: 'read'}` */
function permissionsList(v: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of csv(v)) {
    const [k, level] = pair.split(/[=:]/);
    out[k.trim()] = (level ?? '').trim();
  }
  return out;
}

export function registerAdmin(program: Command): void {
  const admin = program.command('admin').description('site administration (users, tokens, organizations)');

  registerAdminFsck(admin);

  const user = admin.command('user').description('manage users');
  user
    .command('create <login>')
    .option('--site-admin', 'make the user a site administrator')
    .option('--email <email>', 'email address')
    .action(async (login: string, opts: { siteAdmin?: boolean; email?: string }, command: Command) =>
      withClient(command, async (client, g) => {
        const res = expectOk(await client.request('POST', '/admin/users', { body: { login, email: opts.email, site_admin: opts.siteAdmin } }));
        if (g.json) printJson(res.body);
        else process.stdout.write(`created user ${(res.body as { login: string }).login}\n`);
      }),
    );
  user.command('delete <login>').action(async (login: string, _opts: unknown, command: Command) =>
    withClient(command, async (client) => {
      expectOk(await client.request('DELETE', `/admin/users/${encodeURIComponent(login)}`));
      process.stdout.write(`deleted user ${login}\n`);
    }),
  );

  const token = admin.command('token').description('manage access tokens');
  token
    .command('create <login>')
    .description('issue a token; prints the token alone (or the whole record with --json)')
    .option('--scopes <list>', 'OAuth scopes, comma separated (classic and oauth kinds)', csv)
    .addOption(new Option('--kind <kind>', 'token kind').choices(['classic', 'fine_grained', 'fine-grained', 'oauth', 'installation', 'app_user', 'app-user']).default('classic'))
    .option('--permissions <list>', 'fine-grained permissions, e.g. gists=write,organization_hooks=read', permissionsList)
    .option('--app <id>', 'OAuth app id the token belongs to (oauth kind)', positiveInteger)
    .option('--expires <iso>', 'expiry time (ISO 8601) or a number of days, e.g. 30d')
    .option('--note <text>', 'what the token is for')
    .action(async (login: string, opts: { scopes?: string[]; kind: string; permissions?: Record<string, string>; app?: number; expires?: string; note?: string }, command: Command) =>
      withClient(command, async (client, g) => {
        const expires = opts.expires && /^\d+d$/.test(opts.expires) ? new Date(Date.now() + parseInt(opts.expires, 10) * 86_400_000).toISOString() : opts.expires;
        const res = expectOk(
          await client.request('POST', `/admin/users/${encodeURIComponent(login)}/authorizations`, {
            body: { scopes: opts.scopes, kind: opts.kind.replace('-', '_'), permissions: opts.permissions, app_id: opts.app, expires_at: expires, note: opts.note },
          }),
        );
        if (g.json) printJson(res.body);
        else process.stdout.write(`${(res.body as { token: string }).token}\n`);
      }),
    );
  token.command('revoke <login>').description("revoke all of a user's tokens").action(async (login: string, _o: unknown, command: Command) =>
    withClient(command, async (client) => {
      expectOk(await client.request('DELETE', `/admin/users/${encodeURIComponent(login)}/authorizations`));
      process.stdout.write(`revoked every token of ${login}\n`);
    }),
  );

  const org = admin.command('org').description('manage organizations');
  org
    .command('create <org>')
    .requiredOption('--owner <login>', 'the first owner')
    .option('--name <name>', 'display name')
    .action(async (name: string, opts: { owner: string; name?: string }, command: Command) =>
      withClient(command, async (client, g) => {
        const res = expectOk(await client.request('POST', '/admin/organizations', { body: { login: name, admin: opts.owner, profile_name: opts.name } }));
        if (g.json) printJson(res.body);
        else process.stdout.write(`created organization ${name} owned by ${opts.owner}\n`);
      }),
    );
  org
    .command('add-member <org> <login>')
    .addOption(new Option('--role <role>', 'admin (owner) or member').choices(['admin', 'member']).default('member'))
    .action(async (orgName: string, login: string, opts: { role: string }, command: Command) =>
      withClient(command, async (client, g) => {
        const res = expectOk(
          await client.request('PUT', `/orgs/${encodeURIComponent(orgName)}/memberships/${encodeURIComponent(login)}`, { body: { role: opts.role } }),
        );
        if (g.json) printJson(res.body);
        else process.stdout.write(`${login} is now ${opts.role === 'admin' ? 'an owner' : 'a member'} of ${orgName}\n`);
      }),
    );
}
