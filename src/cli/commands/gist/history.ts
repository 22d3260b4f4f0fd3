// `hublet gist history ID`: every revision of a gist, newest first, with its line changes (times relative at a terminal).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { printJson, printTable } from '../../output.js';
import { timeCell } from '../../relative-time.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { collectPages, gistPath, type Commit } from './shared.js';

export async function runHistory(opts: ClientOptions & { id: string }, io: IO): Promise<void> {
  const commits = await collectPages<Commit>(opts.client, `${gistPath(opts.id)}/commits`, Infinity);
  if (opts.json) return printJson(io.stdout, commits);
  const now = new Date();
  const rows = commits.map((c) => ({
    version: c.version,
    user: c.user?.login ?? '',
    committed: timeCell(c.committed_at, io.isTTY, now),
    additions: c.change_status.additions,
    deletions: c.change_status.deletions,
  }));
  printTable(io.stdout, rows, ['version', 'user', 'committed', 'additions', 'deletions']);
}

export function registerHistory(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('history')
      .argument('<id>', 'the gist: its id or URL')
      .description("list a gist's revisions, newest first (view one with `gist view ID --revision VERSION`)"),
    ['hublet gist history ID', '# the gist as it was at one of them', 'hublet gist view ID --revision VERSION'],
  ).action(async (id: string, _flags: unknown, command: Command) => {
    await withClient(command, f, (c) => runHistory({ ...c, id }, f.io));
  });
}
