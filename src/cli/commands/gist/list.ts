// `hublet gist list`: your gists (or starred ones), filtered by visibility, following pages up to --limit.
import { Option, type Command } from 'commander';
import type { Client } from '../../client.js';
import { printJson, printTable } from '../../output.js';
import { positiveInteger } from '../option-values.js';
import { withClient } from '../with-client.js';
import { collectPages, fileCount, type Gist } from './shared.js';

export interface ListOptions {
  public?: boolean;
  secret?: boolean;
  starred?: boolean;
  limit: number;
}

export async function runList(client: Client, opts: ListOptions, json: boolean): Promise<void> {
  const keep = opts.public ? (g: Gist) => g.public : opts.secret ? (g: Gist) => !g.public : undefined;
  const gists = await collectPages<Gist>(client, opts.starred ? '/gists/starred' : '/gists', opts.limit, keep);
  if (json) return printJson(gists);
  const rows = gists.map((g) => ({
    id: g.id,
    owner: g.owner?.login ?? '',
    description: g.description ?? '',
    files: fileCount(g),
    visibility: g.public ? 'public' : 'secret',
    updated: g.updated_at,
  }));
  printTable(rows, opts.starred ? ['id', 'owner', 'description', 'files', 'visibility', 'updated'] : ['id', 'description', 'files', 'visibility', 'updated']);
}

export function registerList(gist: Command): void {
  gist
    .command('list')
    .description('list your gists (secret ones too), newest first; or the gists you starred')
    .addOption(new Option('--public', 'only public gists').conflicts('secret'))
    .option('--secret', 'only secret gists')
    .option('--starred', 'the gists you starred instead of your own')
    .option('-L, --limit <n>', 'how many gists at most', positiveInteger, 10)
    .action(async (opts: ListOptions, command: Command) => {
      await withClient(command, (client, g) => runList(client, opts, Boolean(g.json)));
    });
}
