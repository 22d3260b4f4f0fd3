// `hublet hook delivery --org ORG ID DELIVERY_ID`: one delivery, what was sent and what came back.
// `hook delivery ORG ID DELIVERY_ID`, the form of earlier versions, still works with a deprecation note.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import type { Factory } from '../factory.js';
import { deliveryLine, hookCommand, hookPath, withHooks, type Delivery, type HookOptions, type OwnerFlags } from './shared.js';

export async function runDelivery(opts: HookOptions & { deliveryId: string }, io: IO): Promise<void> {
  const res = expectOk(await opts.client.request('GET', `${hookPath(opts)}/deliveries/${opts.deliveryId}`));
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
  hookCommand(
    hook,
    'delivery',
    'show one delivery: the request headers and payload sent, the response that came back',
    [
      'hublet hook delivery --org acme 12 345',
      '# the payload alone (jq)',
      'hublet --json hook delivery --org acme 12 345 | jq .request.payload',
    ],
    true,
  )
    .argument('<id>', 'hook id')
    .argument('<delivery_id>', 'delivery id (hublet hook deliveries shows them)')
    .action(async (_id: string, _deliveryId: string, flags: OwnerFlags, command: Command) =>
      withHooks(command, f, flags, ['id', 'delivery_id'], (opts, [id, deliveryId]) => runDelivery({ ...opts, id, deliveryId }, f.io)),
    );
}
