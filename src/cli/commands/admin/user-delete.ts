// `hublet admin user delete LOGIN`: deletes a user.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';

export async function runUserDelete(opts: Pick<ClientOptions, 'client'> & { login: string }, io: IO): Promise<void> {
  expectOk(await opts.client.request('DELETE', `/admin/users/${encodeURIComponent(opts.login)}`));
  io.stdout.write(`deleted user ${opts.login}\n`);
}

export function registerUserDelete(user: Command, f: Factory): void {
  withExamples(user.command('delete').description('delete a user with their tokens, gists and repositories'), [
    'hublet admin user delete alice',
  ])
    .argument('<login>', 'the user to delete')
    .action(async (login: string, _flags: unknown, command: Command) =>
      withClient(command, f, (c) => runUserDelete({ ...c, login }, f.io)),
    );
}
