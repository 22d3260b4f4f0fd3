// `hublet admin user create LOGIN`: a user (--site-admin for an administrator, --password-stdin with a password read from
// standard input); prints a line, or the user with --json.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { passwordFromStdin } from './password-stdin.js';

interface UserCreateOptions extends ClientOptions {
  login: string;
  siteAdmin?: boolean;
  email?: string;
  /** Read from standard input (--password-stdin). */
  password?: string;
}

export async function runUserCreate(opts: UserCreateOptions, io: IO): Promise<void> {
  const res = expectOk(
    await opts.client.request('POST', '/admin/users', {
      body: { login: opts.login, email: opts.email, site_admin: opts.siteAdmin, password: opts.password },
    }),
  );
  if (opts.json) printJson(io.stdout, res.body);
  else io.stdout.write(`created user ${(res.body as { login: string }).login}\n`);
}

export function registerUserCreate(user: Command, f: Factory): void {
  withExamples(
    user.command('create').description('create a user (in local mode no server is needed; then give them a token with admin token create)'),
    [
      'hublet admin user create alice --email alice@example.com',
      '# another site administrator, and a token for them',
      'hublet admin user create root2 --site-admin',
      'hublet admin token create root2 --scopes site_admin',
      '# a user who can sign in: the password is the first line of standard input',
      'echo "$PASSWORD" | hublet admin user create bob --password-stdin',
    ],
  )
    .argument('<login>', "the new user's login")
    .option('--site-admin', 'make the user a site administrator')
    .option('--email <email>', 'email address')
    .option('--password-stdin', "read the user's password from standard input (one line)")
    .action(async (login: string, flags: { siteAdmin?: boolean; email?: string; passwordStdin?: boolean }, command: Command) => {
      const password = flags.passwordStdin ? await passwordFromStdin(f.io) : undefined;
      return withClient(command, f, (c) => runUserCreate({ ...c, login, siteAdmin: flags.siteAdmin, email: flags.email, password }, f.io));
    });
}
