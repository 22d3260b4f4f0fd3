// `hublet gist unstar ID`: removes your star from a gist (fine when there was none).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { gistId, gistPath } from './shared.js';

export async function runUnstar(opts: ClientOptions & { id: string }, io: IO): Promise<void> {
  expectOk(await opts.client.request('DELETE', `${gistPath(opts.id)}/star`));
  if (!opts.json) io.stdout.write(`unstarred gist ${gistId(opts.id)}\n`);
}

export function registerUnstar(gist: Command, f: Factory): void {
  withExamples(gist.command('unstar').argument('<id>', 'the gist: its id or URL').description('remove your star from a gist'), [
    'hublet gist unstar ID',
  ]).action(async (id: string, _flags: unknown, command: Command) => {
    await withClient(command, f, (c) => runUnstar({ ...c, id }, f.io));
  });
}
