// `hublet hook delete --org ORG ID`: deletes a webhook (an active one is sent a meta event first; locally before the command returns).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import type { Factory } from '../factory.js';
import { DELIVER_QUEUE, hookCommand, hookPath, withHooks, type HookOptions, type OwnerFlags } from './shared.js';

export async function runDelete(opts: HookOptions, io: IO): Promise<void> {
  expectOk(await opts.client.request('DELETE', hookPath(opts)));
  await opts.client.settle([DELIVER_QUEUE]);
  if (opts.json) return printJson(io.stdout, { deleted: Number(opts.id) });
  io.stdout.write(`deleted hook ${opts.id}\n`);
}

export function registerDelete(hook: Command, f: Factory): void {
  hookCommand(hook, 'delete', 'delete a webhook (an active one is sent a meta event first)', ['hublet hook delete --org acme 12'])
    .argument('<id>', 'hook id')
    .action(async (_id: string, flags: OwnerFlags, command: Command) =>
      withHooks(command, f, flags, ['id'], (opts, [id]) => runDelete({ ...opts, id }, f.io)),
    );
}
