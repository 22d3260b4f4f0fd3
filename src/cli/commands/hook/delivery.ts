// `hublet hook delivery ORG ID DELIVERY_ID`: one delivery, what was sent and what came back.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { positiveIntegerText as hookId } from '../option-values.js';
import { withClient, type Factory } from '../factory.js';
import { deliveryLine, hooksPath, type Delivery } from './shared.js';

interface DeliveryOptions {
  client: Client;
  org: string;
  id: string;
  deliveryId: string;
  json: boolean;
}

async function runDelivery(opts: DeliveryOptions, io: IO): Promise<void> {
  const res = expectOk(await opts.client.request('GET', `${hooksPath(opts.org)}/${opts.id}/deliveries/${opts.deliveryId}`));
  const d = res.body as Delivery;
  if (opts.json) return printJson(io.stdout, d);
  const out = io.stdout;
  out.write(`${deliveryLine(d)}\nguid ${d.guid}\nurl ${d.url}\ndelivered ${d.delivered_at}\n\nrequest headers\n`);
  for (const [k, v] of Object.entries(d.request?.headers ?? {})) out.write(`  ${k}: ${v}\n`);
  out.write(`request payload\n${JSON.stringify(d.request?.payload, null, 2)}\n\nresponse headers\n`);
  for (const [k, v] of Object.entries(d.response?.headers ?? {})) out.write(`  ${k}: ${v}\n`);
  out.write(`response body\n${d.response?.payload ?? ''}\n`);
}

export function registerDelivery(hook: Command, f: Factory): void {
  hook
    .command('delivery')
    .argument('<org>', 'organization')
    .argument('<id>', 'hook id', hookId)
    .argument('<delivery_id>', 'delivery id', hookId)
    .description('show one delivery: what was sent and what came back')
    .action(async (org: string, id: string, deliveryId: string, _flags: unknown, command: Command) =>
      withClient(command, f, (client, g) => runDelivery({ client, org, id, deliveryId, json: Boolean(g.json) }, f.io)),
    );
}
