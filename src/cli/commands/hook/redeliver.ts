// `hublet hook redeliver ORG ID DELIVERY_ID`: sends a delivery again (same guid, marked as a redelivery) and shows how it went.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { positiveIntegerText as hookId } from '../option-values.js';
import { withClient, type Factory } from '../factory.js';
import { awaitDelivery, hooksPath, newestDeliveryId, reportDelivery, type Delivery } from './shared.js';

interface RedeliverOptions {
  client: Client;
  org: string;
  id: string;
  deliveryId: string;
  /** How long to wait for the delivery. */
  waitMs: number;
  json: boolean;
}

async function runRedeliver(opts: RedeliverOptions, io: IO): Promise<void> {
  const { client, org, id, deliveryId } = opts;
  const original = expectOk(await client.request('GET', `${hooksPath(org)}/${id}/deliveries/${deliveryId}`)).body as Delivery;
  const before = await newestDeliveryId(client, org, id);
  expectOk(await client.request('POST', `${hooksPath(org)}/${id}/deliveries/${deliveryId}/attempts`));
  const d = await awaitDelivery(client, org, id, before, (x) => x.guid === original.guid && x.redelivery, opts.waitMs);
  reportDelivery(io, d, opts.json, `redelivery of ${deliveryId} queued`);
}

export function registerRedeliver(hook: Command, f: Factory): void {
  hook
    .command('redeliver')
    .argument('<org>', 'organization')
    .argument('<id>', 'hook id', hookId)
    .argument('<delivery_id>', 'delivery id', hookId)
    .description('send a delivery again (same guid, marked as a redelivery)')
    .option('--wait <seconds>', 'how long to wait for the delivery', '15')
    .action(async (org: string, id: string, deliveryId: string, flags: { wait: string }, command: Command) =>
      withClient(command, f, (client, g) => runRedeliver({ client, org, id, deliveryId, waitMs: Number(flags.wait) * 1000 || 0, json: Boolean(g.json) }, f.io)),
    );
}
