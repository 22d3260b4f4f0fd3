// `hublet repo delete OWNER/NAME [--yes]`: deletes a repository and its git data, after its name is typed on a terminal.
import readline from 'node:readline/promises';
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { fullSpec, repoPath } from './shared.js';

interface DeleteOptions {
  client: Client;
  spec: { owner: string; name: string };
}

/** Asks for the repository's full name on a terminal; refuses without one (scripts pass --yes). */
export async function confirmDelete(fullName: string, io: IO): Promise<void> {
  if (!io.stdinIsTTY) throw new CliExit(EXIT.usage, `hublet: refusing to delete ${fullName} without --yes (no terminal to confirm on)`);
  const rl = readline.createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await rl.question(`Type ${fullName} to delete it and all its git data: `);
    if (answer.trim() !== fullName) throw new CliExit(EXIT.error, 'hublet: not deleted (the name did not match)');
  } finally {
    rl.close();
  }
}

export async function runDelete(opts: DeleteOptions, io: IO): Promise<void> {
  expectOk(await opts.client.request('DELETE', repoPath(opts.spec)));
  io.stdout.write(`deleted ${opts.spec.owner}/${opts.spec.name}\n`);
}

export function registerDelete(repo: Command, f: Factory): void {
  withExamples(repo.command('delete').description('delete a repository and its git data (asks for its name on a terminal unless --yes)'), [
    'hublet repo delete acme/old-tools',
    '# in a script (no terminal to confirm on)',
    'hublet repo delete acme/old-tools --yes',
  ])
    .argument('<owner/name>', 'the repository')
    .option('--yes', 'do not ask (needed without a terminal)')
    .action(async (specText: string, flags: { yes?: boolean }, command: Command) => {
      const spec = fullSpec(specText);
      if (!flags.yes) await confirmDelete(`${spec.owner}/${spec.name}`, f.io);
      return withClient(command, f, ({ client }) => runDelete({ client, spec }, f.io));
    });
}
