// `hublet hook …`: the organization-webhook command group, one command per file (list, create, view, edit, delete, ping, deliveries, delivery, redeliver).
import type { Command } from 'commander';
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
  const hook = program.command('hook').description('organization webhooks and their deliveries');
  for (const register of [registerList, registerCreate, registerView, registerEdit, registerDelete, registerPing, registerDeliveries, registerDelivery, registerRedeliver]) {
    register(hook, f);
  }
}
