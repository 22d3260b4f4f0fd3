// `hublet gist star ID`: stars a gist (starring twice is fine).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { gistId, gistPath } from './shared.js';

export async function runStar(opts: ClientOptions & { id: string }, io: IO): Promise<void> {
  expectOk(await opts.client.request('PUT', `${gistPath(opts.id)}/star`, { headers: { 'content-length': '0' } }));
  if (!opts.json) io.stdout.write(`starred gist ${gistId(opts.id)}\n`);
}

export function registerStar(gist: Command, f: Factory): void {
  withExamples(gist.command('star').argument('<id>', 'the gist: its id or URL').description('star a gist'), [
    'hublet gist star ID',
    '# the gists you starred',
    'hublet gist list --starred',
  ]).action(async (id: string, _flags: unknown, command: Command) => {
    await withClient(command, f, (c) => runStar({ ...c, id }, f.io));
  });
}
