// `hublet hook view ID --org ORG`: one webhook as fields (or the API's JSON); its secret shows as set or none.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { positiveIntegerText as hookId } from '../option-values.js';
import { withClient, type Factory } from '../factory.js';
import { hooksPath, orgOption, printHook, type Hook } from './shared.js';

interface ViewOptions {
  client: Client;
  org: string;
  id: string;
  json: boolean;
}

async function runView(opts: ViewOptions, io: IO): Promise<void> {
  const res = expectOk(await opts.client.request('GET', `${hooksPath(opts.org)}/${opts.id}`));
  if (opts.json) return printJson(io.stdout, res.body);
  printHook(io.stdout, res.body as Hook);
}

export function registerView(hook: Command, f: Factory): void {
  hook
    .command('view')
    .argument('<id>', 'hook id', hookId)
    .description('show a webhook')
    .addOption(orgOption())
    .action(async (id: string, flags: { org: string }, command: Command) =>
      withClient(command, f, (client, g) => runView({ client, org: flags.org, id, json: Boolean(g.json) }, f.io)),
    );
}
