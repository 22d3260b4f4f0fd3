// `hublet gist unstar ID`: removes your star from a gist (fine when there was none).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import { expectOk } from '../../output.js';
import { withClient } from '../with-client.js';
import { gistId, gistPath } from './shared.js';

export async function runUnstar(client: Client, id: string, json: boolean): Promise<void> {
  expectOk(await client.request('DELETE', `${gistPath(id)}/star`));
  if (!json) process.stdout.write(`unstarred gist ${gistId(id)}\n`);
}

export function registerUnstar(gist: Command): void {
  gist
    .command('unstar <id>')
    .description('remove your star from a gist')
    .action(async (id: string, _opts: unknown, command: Command) => {
      await withClient(command, (client, g) => runUnstar(client, id, Boolean(g.json)));
    });
}
