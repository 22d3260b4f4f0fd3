// `hublet hook list --org ORG` (or `--repo OWNER/REPO`): an organization's or a repository's webhooks, as a table (or the API's JSON).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printList } from '../../output.js';
import type { Factory } from '../factory.js';
import { hookCommand, hooksPath, withHooks, type Hook, type HooksOptions, type OwnerFlags } from './shared.js';

export async function runList(opts: HooksOptions, io: IO): Promise<void> {
  const res = expectOk(await opts.client.request('GET', `${hooksPath(opts.owner)}?per_page=100`));
  const hooks = res.body as Hook[];
  printList(io.stdout, opts.json, hooks, ['id', 'url', 'events', 'active', 'last'], (h) => ({
    id: h.id,
    url: h.config.url,
    events: h.events.join(','),
    active: h.active ? 'yes' : 'no',
    last: h.last_response.message ?? h.last_response.status,
  }));
}

export function registerList(hook: Command, f: Factory): void {
  hookCommand(hook, 'list', "list an organization's or a repository's webhooks: id, URL, events, whether active, the last response", [
    'hublet hook list --org acme',
    'hublet hook list --repo octo/app',
    'hublet --json hook list --org acme',
  ]).action(async (flags: OwnerFlags, command: Command) => withHooks(command, f, flags, [], (opts) => runList(opts, f.io)));
}
