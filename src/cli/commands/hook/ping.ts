// `hublet hook ping --org ORG ID`: sends a ping event and shows how its delivery went (exit 1 when it failed).
// `hook ping ORG ID`, the form of earlier versions, still works with a deprecation note.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import type { Factory } from '../factory.js';
import {
  awaitDelivery,
  hookCommand,
  hookPath,
  newestDeliveryId,
  reportDelivery,
  waitOption,
  waitTime,
  withHooks,
  type HookOptions,
  type OwnerFlags,
} from './shared.js';

/** `waitMs`: how long to wait for the delivery. */
export async function runPing(opts: HookOptions & { waitMs: number }, io: IO): Promise<void> {
  const before = await newestDeliveryId(opts);
  expectOk(await opts.client.request('POST', `${hookPath(opts)}/pings`));
  const d = await awaitDelivery(opts, before, (x) => x.event === 'ping', opts.waitMs);
  reportDelivery(io, d, opts.json, `ping sent to hook ${opts.id}; not delivered yet`);
}

export function registerPing(hook: Command, f: Factory): void {
  hookCommand(
    hook,
    'ping',
    'send a ping event and show how its delivery went (exit 1 when it failed)',
    ['hublet hook ping --org acme 12', '# wait up to a minute for a slow receiver', 'hublet hook ping --org acme 12 --wait 60'],
    true,
  )
    .argument('<id>', 'hook id')
    .addOption(waitOption())
    .action(async (_id: string, flags: OwnerFlags & { wait: string }, command: Command) =>
      withHooks(command, f, flags, ['id'], (opts, [id]) => runPing({ ...opts, id, waitMs: waitTime(flags.wait) }, f.io)),
    );
}
