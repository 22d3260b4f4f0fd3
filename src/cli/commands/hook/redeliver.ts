// `hublet hook redeliver --org ORG ID DELIVERY_ID` (or `--repo OWNER/REPO`): sends a delivery again (same guid, marked as
// a redelivery) and shows how it went; with `--failed [--since …]` every failed one (redeliver-failed.ts).
// `hook redeliver ORG ID DELIVERY_ID`, the form of earlier versions, still works with a deprecation note.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { parseSince, runRedeliverFailed } from './redeliver-failed.js';
import { awaitDelivery, hookOwner, hooksPath, newestDeliveryId, orgOption, repoOption, reportDelivery, usageError, waitOption, type Delivery, type HookOwner, type OwnerFlags } from './shared.js';

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
  withExamples(
    hook
      .command('redeliver')
      .description('send a delivery again (same guid, marked as a redelivery) and show how it went; with --failed, every failed delivery of the hook'),
    [
      '# the failures first, then send one again',
      'hublet hook deliveries --org acme 12 --status failure',
      'hublet hook redeliver --org acme 12 345',
      '# every delivery of the last day that failed (one attempt per event)',
      'hublet hook redeliver --org acme 12 --failed --since 24h',
      'hublet hook redeliver --repo octo/app 7 --failed --since 2026-11-20T00:00:00Z',
    ],
  )
    .argument('<id>', 'hook id')
    .argument('[delivery_id]', 'delivery id (hublet hook deliveries shows them); not with --failed')
    .allowExcessArguments() // `hook redeliver ORG ID DELIVERY_ID`, deprecated (hookOwner)
    .addOption(orgOption())
    .addOption(repoOption())
    .option('--failed', "redeliver every failed delivery of the hook (newest attempt of each event not delivered since), not one")
    .option('--since <duration|time>', 'with --failed: only deliveries since then: a duration back from now (30m, 12h, 7d, 2w) or a time (2026-11-20, 2026-11-20T10:00:00Z)')
    .addOption(waitOption())
    .action(async (_id: string, _deliveryId: string | undefined, flags: OwnerFlags & { wait: string; failed?: boolean; since?: string }, command: Command) => {
      if (!flags.failed) {
        if (flags.since !== undefined) usageError(command, "option '--since <duration|time>' needs --failed");
        const { owner, ids } = hookOwner(command, flags, ['id', 'delivery_id'], { stderr: f.io.stderr, positionalOrg: true });
        const [id, deliveryId] = ids;
        return withClient(command, f, (client, g) => runRedeliver({ client, owner, id, deliveryId, waitMs: Number(flags.wait) * 1000 || 0, json: Boolean(g.json) }, f.io));
      }
      if (command.args.length > 1 && (flags.org !== undefined || flags.repo !== undefined || command.args.length > 2)) {
        usageError(command, "a delivery id and --failed cannot be used together (--failed redelivers every failed delivery of the hook)");
      }
      const { owner, ids } = hookOwner(command, flags, ['id'], { stderr: f.io.stderr, positionalOrg: true });
      const since = flags.since === undefined ? undefined : parseSince(flags.since, new Date());
      if (flags.since !== undefined && !since) usageError(command, `option '--since <duration|time>' argument '${flags.since}' is invalid. Expected a duration (30m, 12h, 7d, 2w) or a time (2026-11-20T10:00:00Z).`);
      return withClient(command, f, (client, g) => runRedeliverFailed({ client, owner, id: ids[0], since, json: Boolean(g.json) }, f.io));
    });
}
