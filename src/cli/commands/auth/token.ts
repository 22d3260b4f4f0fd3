// `hublet auth token`: prints the token remote mode would send (as `gh auth token`), chosen by the one rule of mode.ts:
// --token > HUBLET_TOKEN > the saved token (for the saved server). Local mode sends none: an error saying so.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { chooseMode, describeChoice, type ModeFlags } from '../../mode.js';
import { CliExit, EXIT } from '../../output.js';
import { withExamples } from '../examples.js';
import { globals, type Factory } from '../factory.js';

interface TokenOptions {
  flags: ModeFlags;
  /** Where the token and the saved credentials are found. */
  env: NodeJS.ProcessEnv;
}

export async function runToken(opts: TokenOptions, io: IO): Promise<void> {
  const choice = chooseMode(opts.flags, opts.env);
  if (choice.mode === 'local')
    throw new CliExit(EXIT.error, `hublet: no token: this command would run in ${describeChoice(choice)}, which acts without one`);
  if (!choice.token) {
    throw new CliExit(
      EXIT.auth,
      `hublet: no token found for ${choice.server.value}\nhint: sign in with \`hublet auth login --server ${choice.server.value}\`, or set HUBLET_TOKEN`,
    );
  }
  io.stdout.write(`${choice.token.value}\n`);
}

export function registerToken(auth: Command, f: Factory): void {
  withExamples(
    auth
      .command('token')
      .description('print the token remote mode sends (--token, HUBLET_TOKEN, or the one `auth login` saved), e.g. for curl'),
    [
      'hublet auth token',
      '# the same token for another client',
      'curl -H "Authorization: Bearer $(hublet auth token)" https://hublet.example/user',
    ],
  ).action(async (_flags: unknown, command: Command) => {
    await runToken({ flags: globals(command), env: f.env }, f.io);
  });
}
