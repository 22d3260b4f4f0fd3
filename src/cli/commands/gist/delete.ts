// `hublet gist delete ID [--yes]`: deletes a gist you own (its repository goes too). As current gh's (since early
// 2025): at a terminal it asks `? Delete "FILE" gist? (y/N)` first; without a terminal it needs --yes (a usage error
// otherwise, exit 2, before anything is touched); declining deletes nothing and exits 2, gh's "cancelled".
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk } from '../../output.js';
import { canPrompt, confirm } from '../../prompt.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { getGist, gistId, gistPath, sortedNames } from './shared.js';

interface DeleteOptions extends ClientOptions {
  id: string;
  /** --yes: delete without asking. */
  confirmed: boolean;
}

export async function runDelete(opts: DeleteOptions, io: IO): Promise<void> {
  if (!opts.confirmed) {
    // The question names the gist by its first file, as gh's does; a gist that is not there fails here (404).
    const gist = await getGist(opts.client, opts.id);
    const name = sortedNames(gist.files)[0] ?? gist.id;
    if (!(await confirm(io, `Delete ${JSON.stringify(name)} gist?`))) throw new CliExit(EXIT.usage, 'hublet: not deleted');
  }
  expectOk(await opts.client.request('DELETE', gistPath(opts.id)));
  // 204: the API has no JSON to give scripts; they read the exit code.
  if (!opts.json) io.stdout.write(`deleted gist ${gistId(opts.id)}\n`);
}

export function registerDelete(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('delete')
      .argument('<id>', 'the gist: its id or URL')
      .description('delete a gist (asks first at a terminal; --yes to skip the question, and without a terminal)')
      .option('--yes', 'delete without asking'),
    ['# asks first at a terminal', 'hublet gist delete ID', '# scripts confirm with --yes', 'hublet gist delete ID --yes'],
  ).action(async (id: string, flags: { yes?: boolean }, command: Command) => {
    if (!flags.yes && !canPrompt(f.io)) throw new CliExit(EXIT.usage, 'hublet: --yes required when not running interactively');
    await withClient(command, f, (c) => runDelete({ ...c, id, confirmed: Boolean(flags.yes) }, f.io));
  });
}
