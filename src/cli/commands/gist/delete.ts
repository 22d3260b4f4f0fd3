// `hublet gist delete ID`: deletes a gist you own (its repository goes too).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { withClient, type Factory } from '../factory.js';
import { gistId, gistPath } from './shared.js';

interface DeleteOptions {
  client: Client;
  id: string;
  json: boolean;
}

async function runDelete(opts: DeleteOptions, io: IO): Promise<void> {
  expectOk(await opts.client.request('DELETE', gistPath(opts.id)));
  // 204: the API has no JSON to give scripts; they read the exit code.
  if (!opts.json) io.stdout.write(`deleted gist ${gistId(opts.id)}\n`);
}

export function registerDelete(gist: Command, f: Factory): void {
  gist
    .command('delete <id>')
    .description('delete a gist')
    .action(async (id: string, _flags: unknown, command: Command) => {
      await withClient(command, f, (client, g) => runDelete({ client, id, json: Boolean(g.json) }, f.io));
    });
}
