// `hublet hook delete ID --org ORG`: deletes a webhook (an active one is sent a meta event first; locally before the command returns).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { positiveIntegerText as hookId } from '../option-values.js';
import { withClient, type Factory } from '../factory.js';
import { DELIVER_QUEUE, hooksPath, orgOption } from './shared.js';

interface DeleteOptions {
  client: Client;
  org: string;
  id: string;
  json: boolean;
}

async function runDelete(opts: DeleteOptions, io: IO): Promise<void> {
  expectOk(await opts.client.request('DELETE', `${hooksPath(opts.org)}/${opts.id}`));
  await opts.client.settle([DELIVER_QUEUE]);
  if (opts.json) return printJson(io.stdout, { deleted: Number(opts.id) });
  io.stdout.write(`deleted hook ${opts.id}\n`);
}

export function registerDelete(hook: Command, f: Factory): void {
  hook
    .command('delete')
    .argument('<id>', 'hook id', hookId)
    .description('delete a webhook (an active one is sent a meta event first)')
    .addOption(orgOption())
    .action(async (id: string, flags: { org: string }, command: Command) =>
      withClient(command, f, (client, g) => runDelete({ client, org: flags.org, id, json: Boolean(g.json) }, f.io)),
    );
}
