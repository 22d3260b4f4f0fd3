// `hublet gist fork ID`: your copy of someone else's gist, history included; prints its id (the gist with --json).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { gistPath, type Gist } from './shared.js';

export async function runFork(opts: ClientOptions & { id: string }, io: IO): Promise<void> {
  const fork = expectOk(await opts.client.request('POST', `${gistPath(opts.id)}/forks`)).body as Gist;
  if (opts.json) printJson(io.stdout, fork);
  else io.stdout.write(`${fork.id}\n`);
}

export function registerFork(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('fork')
      .argument('<id>', 'the gist: its id or URL')
      .description("fork someone else's gist (forking it again gives the same fork)"),
    ['hublet gist fork ID'],
  ).action(async (id: string, _flags: unknown, command: Command) => {
    await withClient(command, f, (c) => runFork({ ...c, id }, f.io));
  });
}
