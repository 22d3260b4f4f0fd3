// `hublet hook view --org ORG ID`: one webhook as fields (or the API's JSON); its secret shows as set or none.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk } from '../../output.js';
import type { Factory } from '../factory.js';
import { hookCommand, hookPath, showHook, withHooks, type Hook, type HookOptions, type OwnerFlags } from './shared.js';

export async function runView(opts: HookOptions, io: IO): Promise<void> {
  showHook(io, expectOk(await opts.client.request('GET', hookPath(opts))).body as Hook, opts.json);
}

export function registerView(hook: Command, f: Factory): void {
  hookCommand(hook, 'view', 'show a webhook: URL, content type, signature format, events, whether a secret is set, the last response', [
    'hublet hook view --org acme 12',
    'hublet --json hook view --org acme 12',
  ])
    .argument('<id>', 'hook id (hublet hook list shows them)')
    .action(async (_id: string, flags: OwnerFlags, command: Command) =>
      withHooks(command, f, flags, ['id'], (opts, [id]) => runView({ ...opts, id }, f.io)),
    );
}
