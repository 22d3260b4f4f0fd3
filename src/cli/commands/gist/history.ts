// `hublet gist history ID`: every revision of a gist, newest first, with its line changes.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import { printJson, printTable } from '../../output.js';
import { withClient } from '../with-client.js';
import { collectPages, gistPath, type Commit } from './shared.js';

export async function runHistory(client: Client, id: string, json: boolean): Promise<void> {
  const commits = await collectPages<Commit>(client, `${gistPath(id)}/commits`, Infinity);
  if (json) return printJson(commits);
  const rows = commits.map((c) => ({
    version: c.version,
    user: c.user?.login ?? '',
    committed: c.committed_at,
    additions: c.change_status.additions,
    deletions: c.change_status.deletions,
  }));
  printTable(rows, ['version', 'user', 'committed', 'additions', 'deletions']);
}

export function registerHistory(gist: Command): void {
  gist
    .command('history <id>')
    .description("list a gist's revisions, newest first (view one with `gist view ID --revision VERSION`)")
    .action(async (id: string, _opts: unknown, command: Command) => {
      await withClient(command, (client, g) => runHistory(client, id, Boolean(g.json)));
    });
}
