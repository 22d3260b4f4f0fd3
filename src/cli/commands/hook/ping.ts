// `hublet hook ping --org ORG ID`: sends a ping event and shows how its delivery went (exit 1 when it failed).
// `hook ping ORG ID`, the form of earlier versions, still works with a deprecation note.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { awaitDelivery, hookOwner, hooksPath, newestDeliveryId, orgOption, repoOption, reportDelivery, waitOption, type HookOwner, type OwnerFlags } from './shared.js';

interface PingOptions {
  client: Client;
  owner: HookOwner;
  id: string;
  /** How long to wait for the delivery. */
  waitMs: number;
  json: boolean;
}

async function runPing(opts: PingOptions, io: IO): Promise<void> {
  const { client, owner, id } = opts;
  const before = await newestDeliveryId(client, owner, id);
  expectOk(await client.request('POST', `${hooksPath(owner)}/${id}/pings`));
  const d = await awaitDelivery(client, owner, id, before, (x) => x.event === 'ping', opts.waitMs);
  reportDelivery(io, d, opts.json, `ping sent to hook ${id}; not delivered yet`);
}

export function registerPing(hook: Command, f: Factory): void {
  withExamples(hook.command('ping').description('send a ping event and show how its delivery went (exit 1 when it failed)'), [
    'hublet hook ping --org acme 12',
    '# wait up to a minute for a slow receiver',
    'hublet hook ping --org acme 12 --wait 60',
  ])
    .argument('<id>', 'hook id')
    .allowExcessArguments() // `hook ping ORG ID`, deprecated (hookOwner)
    .addOption(orgOption())
    .addOption(repoOption())
    .addOption(waitOption())
    .action(async (_id: string, flags: OwnerFlags & { wait: string }, command: Command) => {
      const { owner, ids } = hookOwner(command, flags, ['id'], { stderr: f.io.stderr, positionalOrg: true });
      return withClient(command, f, (client, g) => runPing({ client, owner, id: ids[0], waitMs: Number(flags.wait) * 1000 || 0, json: Boolean(g.json) }, f.io));
    });
}
