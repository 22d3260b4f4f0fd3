// `hublet repo …`: the repository command group, one command per file (create, list, view, delete); git clone/push go to the clone URL.
import type { Command } from 'commander';
import { withExamples } from '../examples.js';
import type { Factory } from '../factory.js';
import { registerCreate } from './create.js';
import { registerDelete } from './delete.js';
import { registerList } from './list.js';
import { registerView } from './view.js';

export function registerRepo(program: Command, f: Factory): void {
  const repo = withExamples(
    program.command('repo').description('repositories: create, list, view, delete (git clone/push go to the clone URL)'),
    [
      'hublet repo create acme/tools --private',
      'git clone "$(hublet --json repo view acme/tools | jq -r .clone_url)"',
      'hublet repo list acme',
    ],
  );
  for (const register of [registerCreate, registerList, registerView, registerDelete]) register(repo, f);
}
