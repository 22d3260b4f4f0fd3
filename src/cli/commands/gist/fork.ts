// `hublet gist fork ID`: your copy of someone else's gist, history included; prints its id (the gist with --json).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import { expectOk, printJson } from '../../output.js';
import { withClient } from '../with-client.js';
import { gistPath, type Gist } from './shared.js';

export async function runFork(client: Client, id: string, json: boolean): Promise<void> {
  const fork = expectOk(await client.request('POST', `${gistPath(id)}/forks`)).body as Gist;
  if (json) printJson(fork);
  else process.stdout.write(`${fork.id}\n`);
}

export function registerFork(gist: Command): void {
  gist
    .command('fork <id>')
    .description("fork someone else's gist (forking it again gives the same fork)")
    .action(async (id: string, _opts: unknown, command: Command) => {
      await withClient(command, (client, g) => runFork(client, id, Boolean(g.json)));
    });
}
