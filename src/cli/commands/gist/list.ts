// `hublet gist list`: your gists (or starred ones), filtered by visibility, following pages up to --limit.
import { Option, type Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { printJson, printTable } from '../../output.js';
import { positiveInteger } from '../option-values.js';
import { withClient, type Factory } from '../factory.js';
import { collectPages, fileCount, type Gist } from './shared.js';

/** The command line's flags. */
interface ListFlags {
  public?: boolean;
  secret?: boolean;
  starred?: boolean;
  limit: number;
}

interface ListOptions extends ListFlags {
  client: Client;
  json: boolean;
}

async function runList(opts: ListOptions, io: IO): Promise<void> {
  const keep = opts.public ? (g: Gist) => g.public : opts.secret ? (g: Gist) => !g.public : undefined;
  const gists = await collectPages<Gist>(opts.client, opts.starred ? '/gists/starred' : '/gists', opts.limit, keep);
  if (opts.json) return printJson(io.stdout, gists);
  const rows = gists.map((g) => ({
    id: g.id,
    owner: g.owner?.login ?? '',
    description: g.description ?? '',
    files: fileCount(g),
    visibility: g.public ? 'public' : 'secret',
    updated: g.updated_at,
  }));
  printTable(io.stdout, rows, opts.starred ? ['id', 'owner', 'description', 'files', 'visibility', 'updated'] : ['id', 'description', 'files', 'visibility', 'updated']);
}

export function registerList(gist: Command, f: Factory): void {
  gist
    .command('list')
    .description('list your gists (secret ones too), newest first; or the gists you starred')
    .addOption(new Option('--public', 'only public gists').conflicts('secret'))
    .option('--secret', 'only secret gists')
    .option('--starred', 'the gists you starred instead of your own')
    .option('-L, --limit <n>', 'how many gists at most', positiveInteger, 10)
    .action(async (flags: ListFlags, command: Command) => {
      await withClient(command, f, (client, g) => runList({ ...flags, client, json: Boolean(g.json) }, f.io));
    });
}
