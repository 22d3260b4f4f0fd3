// `hublet hook delete --org ORG ID`: deletes a webhook (an active one is sent a meta event first; locally before the command returns).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { DELIVER_QUEUE, hookOwner, hooksPath, orgOption, repoOption, type HookOwner, type OwnerFlags } from './shared.js';

interface DeleteOptions {
  client: Client;
  owner: HookOwner;
  id: string;
  json: boolean;
}

async function runDelete(opts: DeleteOptions, io: IO): Promise<void> {
  expectOk(await opts.client.request('DELETE', `${hooksPath(opts.owner)}/${opts.id}`));
  await opts.client.settle([DELIVER_QUEUE]);
  if (opts.json) return printJson(io.stdout, { deleted: Number(opts.id) });
  io.stdout.write(`deleted hook ${opts.id}\n`);
}

export function registerDelete(hook: Command, f: Factory): void {
  withExamples(hook.command('delete').description('delete a webhook (an active one is sent a meta event first)'), ['hublet hook delete --org acme 12'])
    .argument('<id>', 'hook id')
    .addOption(orgOption())
    .addOption(repoOption())
    .action(async (_id: string, flags: OwnerFlags, command: Command) => {
      const { owner, ids } = hookOwner(command, flags, ['id'], f.io);
      return withClient(command, f, (client, g) => runDelete({ client, owner, id: ids[0], json: Boolean(g.json) }, f.io));
    });
}
