// `hublet hook …`: the webhook command group, one command per file (list, create, view, edit, delete, ping, deliveries, delivery, redeliver).
// Every command names the owner with `--org ORG` (an organization's hooks) or `--repo OWNER/REPO` (a repository's): see shared.ts.
import type { Command } from 'commander';
import { withExamples } from '../examples.js';
import type { Factory } from '../factory.js';
import { registerCreate } from './create.js';
import { registerDeliveries } from './deliveries.js';
import { registerDelivery } from './delivery.js';
import { registerDelete } from './delete.js';
import { registerEdit } from './edit.js';
import { registerList } from './list.js';
import { registerPing } from './ping.js';
import { registerRedeliver } from './redeliver.js';
import { registerView } from './view.js';

export function registerHook(program: Command, f: Factory): void {
  const hook = withExamples(
    program
      .command('hook')
      .description('organization and repository webhooks and their deliveries (every command takes --org ORG or --repo OWNER/REPO)'),
    [
      'hublet hook create --org acme --url https://ci.example.com/hook --events push,repository --secret s3cret',
      'hublet hook list --org acme',
      'hublet hook ping --org acme 12',
      'hublet hook deliveries --org acme 12 --status failure',
      'hublet hook create --repo octo/app --url https://ci.example.com/hook --events push',
      '# send every failed delivery of the last day again',
      'hublet hook redeliver --repo octo/app 7 --failed --since 24h',
    ],
  );
  for (const register of [
    registerList,
    registerCreate,
    registerView,
    registerEdit,
    registerDelete,
    registerPing,
    registerDeliveries,
    registerDelivery,
    registerRedeliver,
  ]) {
    register(hook, f);
  }
}
