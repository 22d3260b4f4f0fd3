// `hublet hook delivery --org ORG ID DELIVERY_ID`: one delivery, what was sent and what came back.
// `hook delivery ORG ID DELIVERY_ID`, the form of earlier versions, still works with a deprecation note.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { deliveryLine, hookOwner, hooksPath, orgOption, repoOption, type Delivery, type HookOwner, type OwnerFlags } from './shared.js';

interface DeliveryOptions {
  client: Client;
  owner: HookOwner;
  id: string;
  deliveryId: string;
  json: boolean;
}

async function runDelivery(opts: DeliveryOptions, io: IO): Promise<void> {
  const res = expectOk(await opts.client.request('GET', `${hooksPath(opts.owner)}/${opts.id}/deliveries/${opts.deliveryId}`));
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
  withExamples(hook.command('delivery').description('show one delivery: the request headers and payload sent, the response that came back'), [
    'hublet hook delivery --org acme 12 345',
    '# the payload alone (jq)',
    "hublet --json hook delivery --org acme 12 345 | jq .request.payload",
  ])
    .argument('<id>', 'hook id')
    .argument('<delivery_id>', 'delivery id (hublet hook deliveries shows them)')
    .allowExcessArguments() // `hook delivery ORG ID DELIVERY_ID`, deprecated (hookOwner)
    .addOption(orgOption())
    .addOption(repoOption())
    .action(async (_id: string, _deliveryId: string, flags: OwnerFlags, command: Command) => {
      const { owner, ids } = hookOwner(command, flags, ['id', 'delivery_id'], { stderr: f.io.stderr, positionalOrg: true });
      const [id, deliveryId] = ids;
      return withClient(command, f, (client, g) => runDelivery({ client, owner, id, deliveryId, json: Boolean(g.json) }, f.io));
    });
}
