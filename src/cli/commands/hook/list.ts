// `hublet hook list --org ORG` (or `--repo OWNER/REPO`): an organization's or a repository's webhooks, as a table (or the API's JSON).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson, printTable } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { hookOwner, hooksPath, orgOption, repoOption, type Hook, type HookOwner, type OwnerFlags } from './shared.js';

interface ListOptions {
  client: Client;
  owner: HookOwner;
  json: boolean;
}

async function runList(opts: ListOptions, io: IO): Promise<void> {
  const res = expectOk(await opts.client.request('GET', `${hooksPath(opts.owner)}?per_page=100`));
  const hooks = res.body as Hook[];
  if (opts.json) return printJson(io.stdout, hooks);
  printTable(
    io.stdout,
    hooks.map((h) => ({ id: h.id, url: h.config.url, events: h.events.join(','), active: h.active ? 'yes' : 'no', last: h.last_response.message ?? h.last_response.status })),
    ['id', 'url', 'events', 'active', 'last'],
  );
}

export function registerList(hook: Command, f: Factory): void {
  withExamples(hook.command('list').description("list an organization's or a repository's webhooks: id, URL, events, whether active, the last response"), [
    'hublet hook list --org acme',
    'hublet hook list --repo octo/app',
    'hublet --json hook list --org acme',
  ])
    .addOption(orgOption())
    .addOption(repoOption())
    .action(async (flags: OwnerFlags, command: Command) => {
      const { owner } = hookOwner(command, flags, [], f.io);
      return withClient(command, f, (client, g) => runList({ client, owner, json: Boolean(g.json) }, f.io));
    });
}
