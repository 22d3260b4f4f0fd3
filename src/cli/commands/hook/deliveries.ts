// `hublet hook deliveries ORG ID`: a webhook's deliveries, newest first, as a table (or the API's JSON).
import { Option, type Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson, printTable } from '../../output.js';
import { positiveIntegerText as hookId } from '../option-values.js';
import { withClient, type Factory } from '../factory.js';
import { hooksPath, type Delivery } from './shared.js';

interface DeliveriesOptions {
  client: Client;
  org: string;
  id: string;
  status?: string;
  /** As typed: anything but a number means 30; at most 100. */
  limit: string;
  json: boolean;
}

async function runDeliveries(opts: DeliveriesOptions, io: IO): Promise<void> {
  const q = new URLSearchParams({ per_page: String(Math.min(100, Math.max(1, Number(opts.limit) || 30))) });
  if (opts.status) q.set('status', opts.status);
  const res = expectOk(await opts.client.request('GET', `${hooksPath(opts.org)}/${opts.id}/deliveries?${q}`));
  const list = res.body as Delivery[];
  if (opts.json) return printJson(io.stdout, list);
  printTable(
    io.stdout,
    list.map((d) => ({ id: d.id, guid: d.guid, event: d.action ? `${d.event}.${d.action}` : d.event, code: d.status_code, status: d.status, redelivery: d.redelivery ? 'yes' : '', delivered: d.delivered_at })),
    ['id', 'guid', 'event', 'code', 'status', 'redelivery', 'delivered'],
  );
}

export function registerDeliveries(hook: Command, f: Factory): void {
  hook
    .command('deliveries')
    .argument('<org>', 'organization')
    .argument('<id>', 'hook id', hookId)
    .description("list a webhook's deliveries, newest first")
    .addOption(new Option('--status <status>', 'only successes or failures').choices(['success', 'failure']))
    .option('--limit <n>', 'at most this many (up to 100)', '30')
    .action(async (org: string, id: string, flags: { status?: string; limit: string }, command: Command) =>
      withClient(command, f, (client, g) => runDeliveries({ client, org, id, status: flags.status, limit: flags.limit, json: Boolean(g.json) }, f.io)),
    );
}
