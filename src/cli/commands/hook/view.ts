// `hublet hook view --org ORG ID`: one webhook as fields (or the API's JSON); its secret shows as set or none.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { hookOwner, hooksPath, orgOption, repoOption, printHook, type Hook, type HookOwner, type OwnerFlags } from './shared.js';

interface ViewOptions {
  client: Client;
  owner: HookOwner;
  id: string;
  json: boolean;
}

async function runView(opts: ViewOptions, io: IO): Promise<void> {
  const res = expectOk(await opts.client.request('GET', `${hooksPath(opts.owner)}/${opts.id}`));
  if (opts.json) return printJson(io.stdout, res.body);
  printHook(io.stdout, res.body as Hook);
}

export function registerView(hook: Command, f: Factory): void {
  withExamples(hook.command('view').description('show a webhook: URL, content type, events, whether a secret is set, the last response'), [
    'hublet hook view --org acme 12',
    'hublet --json hook view --org acme 12',
  ])
    .argument('<id>', 'hook id (hublet hook list shows them)')
    .addOption(orgOption())
    .addOption(repoOption())
    .action(async (_id: string, flags: OwnerFlags, command: Command) => {
      const { owner, ids } = hookOwner(command, flags, ['id'], f.io);
      return withClient(command, f, (client, g) => runView({ client, owner, id: ids[0], json: Boolean(g.json) }, f.io));
    });
}
