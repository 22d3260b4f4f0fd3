// `hublet admin token revoke LOGIN`: revokes every token of a user.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';

export async function runTokenRevoke(opts: Pick<ClientOptions, 'client'> & { login: string }, io: IO): Promise<void> {
  expectOk(await opts.client.request('DELETE', `/admin/users/${encodeURIComponent(opts.login)}/authorizations`));
  io.stdout.write(`revoked every token of ${opts.login}\n`);
}

export function registerTokenRevoke(token: Command, f: Factory): void {
  withExamples(token.command('revoke').description("revoke all of a user's tokens (their next request answers 401)"), [
    'hublet admin token revoke alice',
  ])
    .argument('<login>', 'the user whose tokens go')
    .action(async (login: string, _flags: unknown, command: Command) =>
      withClient(command, f, (c) => runTokenRevoke({ ...c, login }, f.io)),
    );
}
