// `hublet gist star ID`: stars a gist (starring twice is fine).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import { expectOk } from '../../output.js';
import { withClient } from '../with-client.js';
import { gistId, gistPath } from './shared.js';

export async function runStar(client: Client, id: string, json: boolean): Promise<void> {
  expectOk(await client.request('PUT', `${gistPath(id)}/star`, { headers: { 'content-length': '0' } }));
  if (!json) process.stdout.write(`starred gist ${gistId(id)}\n`);
}

export function registerStar(gist: Command): void {
  gist
    .command('star <id>')
    .description('star a gist')
    .action(async (id: string, _opts: unknown, command: Command) => {
      await withClient(command, (client, g) => runStar(client, id, Boolean(g.json)));
    });
}
