// `hublet hook ping ORG ID`: sends a ping event and shows how its delivery went (exit 1 when it failed).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { positiveIntegerText as hookId } from '../option-values.js';
import { withClient, type Factory } from '../factory.js';
import { awaitDelivery, hooksPath, newestDeliveryId, reportDelivery } from './shared.js';

interface PingOptions {
  client: Client;
  org: string;
  id: string;
  /** How long to wait for the delivery. */
  waitMs: number;
  json: boolean;
}

async function runPing(opts: PingOptions, io: IO): Promise<void> {
  const { client, org, id } = opts;
  const before = await newestDeliveryId(client, org, id);
  expectOk(await client.request('POST', `${hooksPath(org)}/${id}/pings`));
  const d = await awaitDelivery(client, org, id, before, (x) => x.event === 'ping', opts.waitMs);
  reportDelivery(io, d, opts.json, `ping sent to hook ${id}; not delivered yet`);
}

export function registerPing(hook: Command, f: Factory): void {
  hook
    .command('ping')
    .argument('<org>', 'organization')
    .argument('<id>', 'hook id', hookId)
    .description('send a ping event and show how it went')
    .option('--wait <seconds>', 'how long to wait for the delivery', '15')
    .action(async (org: string, id: string, flags: { wait: string }, command: Command) =>
      withClient(command, f, (client, g) => runPing({ client, org, id, waitMs: Number(flags.wait) * 1000 || 0, json: Boolean(g.json) }, f.io)),
    );
}
