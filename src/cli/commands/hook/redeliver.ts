// `hublet hook redeliver --org ORG ID DELIVERY_ID`: sends a delivery again (same guid, marked as a redelivery) and shows how it went.
// `hook redeliver ORG ID DELIVERY_ID`, the form of earlier versions, still works with a deprecation note.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { awaitDelivery, hookOwner, hooksPath, newestDeliveryId, orgOption, reportDelivery, waitOption, type Delivery, type HookOwner, type OwnerFlags } from './shared.js';

interface RedeliverOptions {
  client: Client;
  owner: HookOwner;
  id: string;
  deliveryId: string;
  /** How long to wait for the delivery. */
  waitMs: number;
  json: boolean;
}

async function runRedeliver(opts: RedeliverOptions, io: IO): Promise<void> {
  const { client, owner, id, deliveryId } = opts;
  const original = expectOk(await client.request('GET', `${hooksPath(owner)}/${id}/deliveries/${deliveryId}`)).body as Delivery;
  const before = await newestDeliveryId(client, owner, id);
  expectOk(await client.request('POST', `${hooksPath(owner)}/${id}/deliveries/${deliveryId}/attempts`));
  const d = await awaitDelivery(client, owner, id, before, (x) => x.guid === original.guid && x.redelivery, opts.waitMs);
  reportDelivery(io, d, opts.json, `redelivery of ${deliveryId} queued`);
}

export function registerRedeliver(hook: Command, f: Factory): void {
  withExamples(hook.command('redeliver').description('send a delivery again (same guid, marked as a redelivery) and show how it went'), [
    '# the failures first, then send one again',
    'hublet hook deliveries --org acme 12 --status failure',
    'hublet hook redeliver --org acme 12 345',
  ])
    .argument('<id>', 'hook id')
    .argument('<delivery_id>', 'delivery id (hublet hook deliveries shows them)')
    .allowExcessArguments() // `hook redeliver ORG ID DELIVERY_ID`, deprecated (hookOwner)
    .addOption(orgOption())
    .addOption(waitOption())
    .action(async (_id: string, _deliveryId: string, flags: OwnerFlags & { wait: string }, command: Command) => {
      const { owner, ids } = hookOwner(command, flags, ['id', 'delivery_id'], { stderr: f.io.stderr, positionalOrg: true });
      const [id, deliveryId] = ids;
      return withClient(command, f, (client, g) => runRedeliver({ client, owner, id, deliveryId, waitMs: Number(flags.wait) * 1000 || 0, json: Boolean(g.json) }, f.io));
    });
}
