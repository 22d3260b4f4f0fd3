// `hublet hook …`: the organization-webhook command group, one command per file (list, create, view, edit, delete, ping, deliveries, delivery, redeliver).
// Every command names the owner with `--org ORG` (repository hooks would take `--repo OWNER/REPO`: see shared.ts).
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
  const hook = withExamples(program.command('hook').description('organization webhooks and their deliveries (every command takes --org ORG)'), [
    'hublet hook create --org acme --url https://ci.example.com/hook --events push,repository --secret s3cret',
    'hublet hook list --org acme',
    'hublet hook ping --org acme 12',
    'hublet hook deliveries --org acme 12 --status failure',
  ]);
  for (const register of [registerList, registerCreate, registerView, registerEdit, registerDelete, registerPing, registerDeliveries, registerDelivery, registerRedeliver]) {
    register(hook, f);
  }
}
