// `hublet repo …`: the repository command group, one command per file (create, list, view, delete); git clone/push go to the clone URL.
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { registerCreate } from './create.js';
import { registerDelete } from './delete.js';
import { registerList } from './list.js';
import { registerView } from './view.js';

export function registerRepo(program: Command, f: Factory): void {
  const repo = program.command('repo').description('repositories: create, list, view, delete (git clone/push go to the clone URL)');
  for (const register of [registerCreate, registerList, registerView, registerDelete]) register(repo, f);
}
