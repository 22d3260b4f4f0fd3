// `hublet gist rename ID OLD NEW`: renames one file of a gist (a new revision; content and history stay).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { gistPath, type Gist } from './shared.js';

interface RenameOptions extends ClientOptions {
  id: string;
  from: string;
  to: string;
}

export async function runRename(opts: RenameOptions, io: IO): Promise<void> {
  const body = { files: { [opts.from]: { filename: opts.to } } };
  const gist = expectOk(await opts.client.request('PATCH', gistPath(opts.id), { body })).body as Gist;
  if (opts.json) printJson(io.stdout, gist);
  else io.stdout.write(`renamed ${opts.from} to ${opts.to} in gist ${gist.id}\n`);
}

export function registerRename(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('rename')
      .argument('<id>', 'the gist: its id or URL')
      .argument('<old>', "the file's name now")
      .argument('<new>', 'its new name')
      .description('rename a file of a gist'),
    ['hublet gist rename ID notes.txt notes.md'],
  ).action(async (id: string, from: string, to: string, _flags: unknown, command: Command) => {
    await withClient(command, f, (c) => runRename({ ...c, id, from, to }, f.io));
  });
}
