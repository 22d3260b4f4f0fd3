// `hublet hook deliveries --org ORG ID`: a webhook's deliveries, newest first, as a table (or the API's JSON).
// `hook deliveries ORG ID`, the form of earlier versions, still works with a deprecation note.
import { Option, type Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson, printTable } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { hookOwner, hooksPath, orgOption, repoOption, type Delivery, type HookOwner, type OwnerFlags } from './shared.js';

interface DeliveriesOptions {
  client: Client;
  owner: HookOwner;
  id: string;
  status?: string;
  /** As typed: anything but a number means 30; at most 100. */
  limit: string;
  json: boolean;
}

async function runDeliveries(opts: DeliveriesOptions, io: IO): Promise<void> {
  const q = new URLSearchParams({ per_page: String(Math.min(100, Math.max(1, Number(opts.limit) || 30))) });
  if (opts.status) q.set('status', opts.status);
  const res = expectOk(await opts.client.request('GET', `${hooksPath(opts.owner)}/${opts.id}/deliveries?${q}`));
  const list = res.body as Delivery[];
  if (opts.json) return printJson(io.stdout, list);
  printTable(
    io.stdout,
    list.map((d) => ({ id: d.id, guid: d.guid, event: d.action ? `${d.event}.${d.action}` : d.event, code: d.status_code, status: d.status, redelivery: d.redelivery ? 'yes' : '', delivered: d.delivered_at })),
    ['id', 'guid', 'event', 'code', 'status', 'redelivery', 'delivered'],
  );
}

export function registerDeliveries(hook: Command, f: Factory): void {
  withExamples(hook.command('deliveries').description("list a webhook's deliveries, newest first: id, guid, event, response code and status"), [
    'hublet hook deliveries --org acme 12',
    '# the last five failures',
    'hublet hook deliveries --org acme 12 --status failure --limit 5',
  ])
    .argument('<id>', 'hook id')
    .allowExcessArguments() // `hook deliveries ORG ID`, deprecated (hookOwner)
    .addOption(orgOption())
    .addOption(repoOption())
    .addOption(new Option('--status <status>', 'only successes or failures').choices(['success', 'failure']))
    .option('--limit <n>', 'at most this many (up to 100)', '30')
    .action(async (_id: string, flags: OwnerFlags & { status?: string; limit: string }, command: Command) => {
      const { owner, ids } = hookOwner(command, flags, ['id'], { stderr: f.io.stderr, positionalOrg: true });
      return withClient(command, f, (client, g) => runDeliveries({ client, owner, id: ids[0], status: flags.status, limit: flags.limit, json: Boolean(g.json) }, f.io));
    });
}
