// `hublet admin user set-password LOGIN --password-stdin`: sets a user's password (the first line of standard input).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { passwordFromStdin } from './password-stdin.js';

export async function runSetPassword(opts: Pick<ClientOptions, 'client'> & { login: string; password: string }, io: IO): Promise<void> {
  expectOk(
    await opts.client.request('PUT', `/admin/users/${encodeURIComponent(opts.login)}/password`, { body: { password: opts.password } }),
  );
  io.stdout.write(`set the password of ${opts.login}\n`);
}

export function registerUserSetPassword(user: Command, f: Factory): void {
  withExamples(user.command('set-password').description("set a user's password, read from standard input (one line)"), [
    'hublet admin user set-password alice --password-stdin < password.txt',
    'echo "$PASSWORD" | hublet admin user set-password alice --password-stdin',
  ])
    .argument('<login>', 'the user')
    .requiredOption('--password-stdin', 'read the password from standard input (the only way: never on the command line)')
    .action(async (login: string, _flags: unknown, command: Command) => {
      const password = await passwordFromStdin(f.io);
      return withClient(command, f, (c) => runSetPassword({ ...c, login, password }, f.io));
    });
}
