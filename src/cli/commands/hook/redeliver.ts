// `hublet hook redeliver --org ORG ID DELIVERY_ID` (or `--repo OWNER/REPO`): sends a delivery again (same guid, marked as
// a redelivery) and shows how it went; with `--failed [--since …]` every failed one (redeliver-failed.ts).
// `hook redeliver ORG ID DELIVERY_ID`, the form of earlier versions, still works with a deprecation note.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import { withClient, type Factory } from '../factory.js';
import { parseSince, runRedeliverFailed } from './redeliver-failed.js';
import {
  awaitDelivery,
  hookCommand,
  hookOwner,
  hookPath,
  newestDeliveryId,
  reportDelivery,
  usageError,
  waitOption,
  waitTime,
  withHooks,
  type Delivery,
  type HookOptions,
  type OwnerFlags,
} from './shared.js';

/** `waitMs`: how long to wait for the delivery. */
export async function runRedeliver(opts: HookOptions & { deliveryId: string; waitMs: number }, io: IO): Promise<void> {
  const { client, deliveryId } = opts;
  const original = expectOk(await client.request('GET', `${hookPath(opts)}/deliveries/${deliveryId}`)).body as Delivery;
  const before = await newestDeliveryId(opts);
  expectOk(await client.request('POST', `${hookPath(opts)}/deliveries/${deliveryId}/attempts`));
  const d = await awaitDelivery(opts, before, (x) => x.guid === original.guid && x.redelivery, opts.waitMs);
  reportDelivery(io, d, opts.json, `redelivery of ${deliveryId} queued`);
}

export function registerRedeliver(hook: Command, f: Factory): void {
  hookCommand(
    hook,
    'redeliver',
    'send a delivery again (same guid, marked as a redelivery) and show how it went; with --failed, every failed delivery of the hook',
    [
      '# the failures first, then send one again',
      'hublet hook deliveries --org acme 12 --status failure',
      'hublet hook redeliver --org acme 12 345',
      '# every delivery of the last day that failed (one attempt per event)',
      'hublet hook redeliver --org acme 12 --failed --since 24h',
      'hublet hook redeliver --repo octo/app 7 --failed --since 2026-11-20T00:00:00Z',
    ],
    true,
  )
    .argument('<id>', 'hook id')
    .argument('[delivery_id]', 'delivery id (hublet hook deliveries shows them); not with --failed')
    .option('--failed', 'redeliver every failed delivery of the hook (newest attempt of each event not delivered since), not one')
    .option(
      '--since <duration|time>',
      'with --failed: only deliveries since then: a duration back from now (30m, 12h, 7d, 2w) or a time (2026-11-20, 2026-11-20T10:00:00Z)',
    )
    .addOption(waitOption())
    .action(
      async (
        _id: string,
        _deliveryId: string | undefined,
        flags: OwnerFlags & { wait: string; failed?: boolean; since?: string },
        command: Command,
      ) => {
        if (!flags.failed) {
          if (flags.since !== undefined) usageError(command, "option '--since <duration|time>' needs --failed");
          return withHooks(command, f, flags, ['id', 'delivery_id'], (opts, [id, deliveryId]) =>
            runRedeliver({ ...opts, id, deliveryId, waitMs: waitTime(flags.wait) }, f.io),
          );
        }
        if (command.args.length > 1 && (flags.org !== undefined || flags.repo !== undefined || command.args.length > 2)) {
          usageError(command, 'a delivery id and --failed cannot be used together (--failed redelivers every failed delivery of the hook)');
        }
        const { owner, ids } = hookOwner(command, flags, ['id'], f.io.stderr);
        const since = flags.since === undefined ? undefined : parseSince(flags.since, new Date());
        if (flags.since !== undefined && !since)
          usageError(
            command,
            `option '--since <duration|time>' argument '${flags.since}' is invalid. Expected a duration (30m, 12h, 7d, 2w) or a time (2026-11-20T10:00:00Z).`,
          );
        return withClient(command, f, (c) => runRedeliverFailed({ ...c, owner, id: ids[0], since }, f.io));
      },
    );
}
