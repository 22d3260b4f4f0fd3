// `hublet gist …`: the gist command group, one command per file (create, list, search, view, edit, rename, delete, fork,
// star, unstar, history, clone, import).
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { registerClone } from './clone.js';
import { registerCreate } from './create.js';
import { registerDelete } from './delete.js';
import { registerEdit } from './edit.js';
import { registerFork } from './fork.js';
import { registerHistory } from './history.js';
import { registerImport } from './import.js';
import { registerList } from './list.js';
import { registerRename } from './rename.js';
import { registerSearch } from './search.js';
import { registerStar } from './star.js';
import { registerUnstar } from './unstar.js';
import { registerView } from './view.js';

export function registerGist(program: Command, f: Factory): void {
  const gist = program.command('gist').description('create, view, edit, fork, star and clone gists');
  for (const register of [
    registerCreate,
    registerList,
    registerSearch,
    registerView,
    registerEdit,
    registerRename,
    registerDelete,
    registerFork,
    registerStar,
    registerUnstar,
    registerHistory,
    registerClone,
    registerImport,
  ]) {
    register(gist, f);
  }
}
