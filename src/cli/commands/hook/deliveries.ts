// `hublet hook deliveries --org ORG ID`: a webhook's deliveries, newest first, as a table (or the API's JSON).
// `hook deliveries ORG ID`, the form of earlier versions, still works with a deprecation note.
import { Option, type Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printList } from '../../output.js';
import type { Factory } from '../factory.js';
import { hookCommand, hookPath, withHooks, type Delivery, type HookOptions, type OwnerFlags } from './shared.js';

interface DeliveriesOptions extends HookOptions {
  status?: string;
  /** As typed: anything but a number means 30; at most 100. */
  limit: string;
}

export async function runDeliveries(opts: DeliveriesOptions, io: IO): Promise<void> {
  const q = new URLSearchParams({ per_page: String(Math.min(100, Math.max(1, Number(opts.limit) || 30))) });
  if (opts.status) q.set('status', opts.status);
  const res = expectOk(await opts.client.request('GET', `${hookPath(opts)}/deliveries?${q}`));
  const list = res.body as Delivery[];
  printList(io.stdout, opts.json, list, ['id', 'guid', 'event', 'code', 'status', 'redelivery', 'delivered'], (d) => ({
    id: d.id,
    guid: d.guid,
    event: d.action ? `${d.event}.${d.action}` : d.event,
    code: d.status_code,
    status: d.status,
    redelivery: d.redelivery ? 'yes' : '',
    delivered: d.delivered_at,
  }));
}

export function registerDeliveries(hook: Command, f: Factory): void {
  hookCommand(
    hook,
    'deliveries',
    "list a webhook's deliveries, newest first: id, guid, event, response code and status",
    ['hublet hook deliveries --org acme 12', '# the last five failures', 'hublet hook deliveries --org acme 12 --status failure --limit 5'],
    true,
  )
    .argument('<id>', 'hook id')
    .addOption(new Option('--status <status>', 'only successes or failures').choices(['success', 'failure']))
    .option('--limit <n>', 'at most this many (up to 100)', '30')
    .action(async (_id: string, flags: OwnerFlags & { status?: string; limit: string }, command: Command) =>
      withHooks(command, f, flags, ['id'], (opts, [id]) => runDeliveries({ ...opts, id, status: flags.status, limit: flags.limit }, f.io)),
    );
}
