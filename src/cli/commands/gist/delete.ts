// `hublet gist delete ID`: deletes a gist you own (its repository goes too).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import { expectOk } from '../../output.js';
import { withClient } from '../with-client.js';
import { gistId, gistPath } from './shared.js';

export async function runDelete(client: Client, id: string, json: boolean): Promise<void> {
  expectOk(await client.request('DELETE', gistPath(id)));
  // 204: the API has no JSON to give scripts; they read the exit code.
  if (!json) process.stdout.write(`deleted gist ${gistId(id)}\n`);
}

export function registerDelete(gist: Command): void {
  gist
    .command('delete <id>')
    .description('delete a gist')
    .action(async (id: string, _opts: unknown, command: Command) => {
      await withClient(command, (client, g) => runDelete(client, id, Boolean(g.json)));
    });
}
